// The bulk-create journal: one JSON line per event, appended and written synchronously, read back to resume a run.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { normaliseReportUrl } from '../../api/report-url.js';
import type { EarlierAttempt } from '../../api/reports.js';
import { fileError } from '../files.js';
import { redact } from '../secrets.js';

/**
 * `sending` is written before a URL's first request, `created` or `failed` when it ends. A URL whose
 * last line is `sending` was under way when the run was killed: it may or may not have been created;
 * so may one that `failed` with `maybeCreated` (its answer was lost and could not be looked up).
 */
export type JournalStatus = 'sending' | 'created' | 'failed';

export interface JournalEntry {
  url: string;
  status: JournalStatus;
  /** The report's id, once created. */
  id?: string | number;
  /** Why it failed, and the exit code of that failure class. */
  error?: string;
  code?: number;
  /** A failure that may hide a created report: the next run looks the URL up before sending it. */
  maybeCreated?: boolean;
  /** ISO 8601 time of the event. */
  at: string;
}

/** What an earlier run left behind, per URL. */
export interface JournalHistory {
  /** URLs whose last entry is `created`. */
  created: Set<string>;
  /** URLs that may have been created by an earlier run without its knowing, with when it first sent them and last heard of them. */
  unsettled: Map<string, EarlierAttempt>;
  /** Lines that could not be read (a torn last line after a kill, or damage). */
  unreadable: number;
}

export class Journal {
  private constructor(
    readonly path: string,
    private fd: number | undefined,
    readonly history: JournalHistory,
  ) {}

  /** Reads what is there (tolerating a torn last line) and opens the file for appending; usage error if it cannot. */
  static open(path: string): Journal {
    const text = readExisting(path);
    const history = parseHistory(text);
    let fd: number;
    try {
      fd = openSync(path, 'a', 0o600);
    } catch (error) {
      throw fileError('open the journal', path, error);
    }
    // A torn last line must not swallow the first new entry.
    if (text !== '' && !text.endsWith('\n')) writeSync(fd, '\n');
    return new Journal(path, fd, history);
  }

  /** Appends one line; on disk (in the OS's hands) before this returns. */
  record(entry: Omit<JournalEntry, 'at'>): void {
    if (this.fd === undefined) throw new Error(`the journal ${this.path} is closed`);
    // Redacted as stderr is: a service's error message may echo the key or the report password. The
    // message is redacted before JSON escaping could hide a secret from the redaction of the line.
    const error = entry.error === undefined ? undefined : redact(entry.error);
    writeSync(this.fd, `${redact(JSON.stringify({ ...entry, error, at: new Date().toISOString() }))}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

function readExisting(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return '';
    throw fileError('read the journal', path, error);
  }
}

export function parseHistory(text: string): JournalHistory {
  const history: JournalHistory = { created: new Set(), unsettled: new Map(), unreadable: 0 };
  const firstSeen = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = parseEntry(line);
    if (!entry) {
      history.unreadable++;
      continue;
    }
    // Journals of older versions hold URLs as typed: compared in normalised form, like the input.
    const url = normaliseReportUrl(entry.url);
    const parsed = Date.parse(entry.at);
    const at = Number.isNaN(parsed) ? 0 : parsed;
    if (!firstSeen.has(url)) firstSeen.set(url, at);
    lastSeen.set(url, Math.max(lastSeen.get(url) ?? 0, at));
    if (entry.status === 'created') {
      history.created.add(url);
      history.unsettled.delete(url);
    } else {
      history.created.delete(url);
      if (entry.status === 'sending' || entry.maybeCreated === true) history.unsettled.set(url, { sentAt: firstSeen.get(url) ?? 0, lastSeenAt: lastSeen.get(url) ?? 0 });
      else history.unsettled.delete(url);
    }
  }
  return history;
}

function parseEntry(line: string): JournalEntry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const { url, status, at } = value as Record<string, unknown>;
    if (typeof url !== 'string' || typeof at !== 'string') return undefined;
    if (status !== 'sending' && status !== 'created' && status !== 'failed') return undefined;
    return value as JournalEntry;
  } catch {
    return undefined;
  }
}
