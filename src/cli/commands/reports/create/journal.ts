// The bulk-create journal: one run at a time (a lock file), one JSON line per event, read back to resume a run. A
// `sending` line is written and checked before its request; the outcomes' lines go in groups (OUTCOMES_WAIT_MS).
import { closeSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { RsapiError } from '../../../../api/errors.js';
import { UsageError } from '../../../runtime/errors.js';
import { reportIdentity } from '../../../../api/model/report-url.js';
import { plural } from '../../../../plural.js';
import type { HeldLock, LockAttempt, LockFiles } from '../../../../config/lock-file.js';
import type { EarlierAttempt } from '../../../../api/reports.js';
import { earlierWindowEnd } from '../../../../api/create/recovery.js';
import { fileError } from '../../../runtime/files.js';
import { checkOutputPath } from '../../../runtime/write.js';
import type { Secrets } from '../../../runtime/secrets.js';

/**
 * `sending` is written before a URL's first request, `created` or `failed` when it ends. A URL whose
 * last line is `sending` was under way when the run was killed: it may or may not have been created;
 * so may one that `failed` with `maybeCreated` (its answer was lost and could not be looked up).
 */
export type JournalStatus = 'sending' | 'created' | 'failed';

/**
 * The last line of a run that ended with every URL done (created, refreshed or kept; none failed, unsettled or not
 * started): a journal belongs to one run, so the next run on the same path starts it afresh instead of skipping them.
 * What an earlier run left unsettled and this one did not settle (another input) is not this run's to end: it outlives
 * the line, and a run of it looks it up first (never twice).
 */
const ENDED = 'ended';

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
  /**
   * On `sending`: the newest report id the run had seen before the request (ids grow with creation order).
   * A resume takes no report of this id or lower for the URL's own (how a redirected page's report is told).
   */
  newestIdBefore?: number;
  /** On `sending`: how long the run waits for the answer (ms). A resume watches until the send + this + the settle window. */
  timeoutMs?: number;
  /** ISO 8601 time of the event. */
  at: string;
}

/** What an earlier run left behind, per report identity (reportIdentity of the URL: look URLs up by it). */
export interface JournalHistory {
  /** Identities whose last entry is `created`. */
  created: Set<string>;
  /** Identities that may have been created by an earlier run without its knowing, with when it first sent them and last heard of them. */
  unsettled: Map<string, EarlierAttempt>;
  /** Each unsettled identity's URL as last sent and every line of it: what an ended journal keeps when it is emptied. */
  unsettledLines: Map<string, { url: string; lines: string[] }>;
  /** Identities created before the resume window (`createdSince`): not in `created`, so sent again. */
  expired: Set<string>;
  /** When the oldest entry of `created` was written (ms since the epoch): how old the readings a resume keeps are. */
  oldestCreatedAt?: number;
  /** The reports earlier runs created, by URL: none of them is another URL's. */
  taken: { url: string; id: string | number }[];
  /** Lines that could not be read (a torn last line after a kill, or damage). */
  unreadable: number;
  /** When the journal's run ended (its last line says so): the next run starts it afresh. */
  endedAt?: string;
}

/** A journal line that could not be written whole: the run stops before its next request. */
export class JournalWriteError extends RsapiError {
  constructor(name: string, reason: string, options: { cause?: unknown; hint?: string } = {}) {
    super(`cannot write the journal ${name}: ${reason}; stopped before the next request`, {
      cause: options.cause,
      hint: options.hint ?? 'free some space (or give --journal on another disk), then run the same command again: the journal resumes the run',
    });
  }
}

/** Writes text at the file's end; answers how many bytes went out (a test passes one that falls short). */
export type JournalWriter = (fd: number, text: string) => number;

/**
 * Where a journal's lines are kept: a file (FileJournalStore), or a table of a shared history (`rsapi audit` on
 * PostgreSQL: every runner of the job meets it there). Its owner holds it alone while the run lasts.
 */
export interface JournalStore {
  /** How messages name it: the file's path, or the job and history it is kept in. */
  readonly name: string;
  /** Its lines as written, each ending in a newline; a last line cut short (a kill mid-write) is left out and dropped. */
  read(): Promise<{ text: string; torn: boolean }>;
  /** Makes it hold these lines alone (an ended run's unsettled ones), replaced whole: a kill in between loses none. */
  replace(lines: readonly string[]): Promise<void>;
  /** Adds lines (each ending in a newline) in one write: kept (in the OS's or the history's hands) when this resolves, or JournalWriteError. */
  append(text: string): void | Promise<void>;
  /** Lets go of it (a file's lock is released). */
  close(): void;
}

/**
 * How long an outcome's line (`created`, `failed`) may wait to be written with others: until the next `sending` line,
 * this long, or the run's end (Journal.flush), whichever comes first. A `sending` line is never held: no request goes
 * out before its line is kept. An outcome line lost to a kill costs a resume a look-up (after its `sending` line) or a
 * second re-audit (a refresh writes none), never a second report. One write a line cost a weekly audit of 50,000
 * pages 0.3 s of system calls (on PostgreSQL, a round trip each).
 */
export const OUTCOMES_WAIT_MS = 50;

export class Journal {
  /**
   * Which of the identities an earlier run left unsettled this run settled (created, or surely stored nothing): the
   * others outlive its end. Only those: a run of 50,000 pages held a set of every URL it created.
   */
  private readonly settled = new Set<string>();
  /** Outcome lines not written yet (OUTCOMES_WAIT_MS), and the timer that writes them. */
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Why a write of held lines failed: every later record and flush throws it (the run stops before its next request). */
  private failure: unknown;

  private constructor(
    private readonly store: JournalStore,
    readonly history: JournalHistory,
    private readonly secrets: Secrets,
  ) {}

  /** How messages name the journal: its file's path, or the job and history it is kept in. */
  get path(): string {
    return this.store.name;
  }

  /**
   * Opens a journal: a file (`PATH`: its lock taken, unless the plan holds it already as `lock`, from claimJournal: a
   * second run on it is a usage error at once), or a store. Reads what is there (tolerating a torn last line); usage
   * error if it cannot.
   */
  static async open(
    where: string | JournalStore,
    owner: { secrets: Secrets; locks: LockFiles },
    options: { lock?: HeldLock; write?: JournalWriter; createdSince?: number } = {},
  ): Promise<Journal> {
    const store = typeof where === 'string' ? new FileJournalStore(where, owner.locks, options) : where;
    try {
      // A line counts only once its newline is kept: a torn tail (a kill, a full disk) was never acted on (no request
      // goes out before its `sending` line is whole), so it is cut off, not resumed from.
      const { text, torn } = await store.read();
      const history = parseHistory(text, { createdSince: options.createdSince });
      if (torn) history.unreadable++;
      // An ended run's journal is this run's now: emptied, so it never grows week after week; but the lines of what
      // an earlier run left unsettled stay.
      if (history.endedAt !== undefined) await store.replace([...history.unsettledLines.values()].flatMap((own) => own.lines));
      return new Journal(store, history, owner.secrets);
    } catch (error) {
      store.close();
      throw error;
    }
  }

  /**
   * Appends one line. A `sending` line is kept (in the OS's or the history's hands) when this resolves, with the
   * outcome lines held before it; an outcome line is held (OUTCOMES_WAIT_MS). JournalWriteError when a write failed.
   */
  async record(entry: Omit<JournalEntry, 'at'>): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    // Redacted as stderr is: a service's error message may echo the key or the report password. The
    // message is redacted before JSON escaping could hide a secret from the redaction of the line.
    const error = entry.error === undefined ? undefined : this.secrets.redact(entry.error);
    this.pending.push(`${this.secrets.redact(JSON.stringify({ ...entry, error, at: new Date().toISOString() }))}\n`);
    if (entry.status === 'sending') await this.flush();
    else this.timer ??= setTimeout(() => this.flush().catch(() => undefined), OUTCOMES_WAIT_MS).unref();
    if (this.history.unsettledLines.size === 0) return;
    const identity = reportIdentity(entry.url);
    if (!this.history.unsettledLines.has(identity)) return;
    if (entry.status === 'created' || (entry.status === 'failed' && entry.maybeCreated !== true)) this.settled.add(identity);
    else this.settled.delete(identity);
  }

  /** Writes the lines held (in one write): kept when this resolves, or JournalWriteError, then and ever after. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failure !== undefined) throw this.failure;
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    try {
      await this.store.append(text);
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }

  /**
   * Says the run ended with every URL done: the next run on this path starts afresh (parseHistory). Answers the URLs an
   * earlier run left unsettled that this run did not settle: the journal keeps them, and a run of them looks them up first.
   */
  async end(urls: number): Promise<string[]> {
    const carried = [...this.history.unsettledLines].filter(([identity]) => !this.settled.has(identity)).map(([, own]) => own.url);
    // How many URLs the line leaves unsettled: with none, the next run reads nothing before it (parseHistory).
    this.pending.push(`${JSON.stringify({ url: '', status: ENDED, urls, carried: carried.length, at: new Date().toISOString() })}\n`);
    await this.flush();
    return carried;
  }

  /** Lets go of the journal. Lines still held are written first where that can be done at once (a file's). */
  close(): void {
    clearTimeout(this.timer);
    if (this.failure === undefined && this.pending.length > 0) {
      try {
        void Promise.resolve(this.store.append(this.pending.join(''))).catch(() => undefined);
      } catch {
        // a run that could not write its lines said so already, or ends on its own error
      }
    }
    this.pending = [];
    this.store.close();
  }
}

/** A journal in a file: written synchronously and checked, one run at a time (`PATH.lock`). */
class FileJournalStore implements JournalStore {
  private fd: number | undefined;
  private readonly lock: HeldLock;
  private readonly write: JournalWriter;

  constructor(
    readonly name: string,
    locks: LockFiles,
    options: { lock?: HeldLock; write?: JournalWriter },
  ) {
    this.write = options.write ?? ((fd, text) => writeSync(fd, text));
    this.lock = options.lock ?? lockJournal(name, locks);
  }

  /** Reads the file and opens it for appending, a torn tail cut off. */
  async read(): Promise<{ text: string; torn: boolean }> {
    const text = readExisting(this.name);
    const committed = text.slice(0, text.lastIndexOf('\n') + 1);
    try {
      this.fd = openSync(this.name, 'a', 0o600);
      if (committed !== text) ftruncateSync(this.fd, Buffer.byteLength(committed));
    } catch (error) {
      throw fileError('open the journal', this.name, error);
    }
    return { text: committed, torn: committed !== text };
  }

  async replace(lines: readonly string[]): Promise<void> {
    try {
      if (lines.length === 0) {
        if (this.fd !== undefined) ftruncateSync(this.fd, 0);
        return;
      }
      replaceWhole(this.name, `${lines.join('\n')}\n`);
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = openSync(this.name, 'a', 0o600);
    } catch (error) {
      throw fileError('open the journal', this.name, error);
    }
  }

  append(text: string): void {
    if (this.fd === undefined) throw new JournalWriteError(this.name, 'it is closed');
    let written: number;
    try {
      written = this.write(this.fd, text);
    } catch (error) {
      throw new JournalWriteError(this.name, describeFileFailure(error), { cause: error });
    }
    const bytes = Buffer.byteLength(text);
    if (written < bytes) throw new JournalWriteError(this.name, `only ${written} of ${bytes} bytes of a line were written (disk full?)`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.lock.release();
  }
}

/** Writes the file anew beside it, on disk before it is renamed over the old one. */
function replaceWhole(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * What a resume keeps and what it sends again: `resuming the journal FILE of 3 h ago: skipping 24 URLs already created`,
 * and the URLs of `all` created before the resume window (`windowMs`, --resume-within), too old to stand for this run's.
 */
export function resumeLines(journal: Journal, all: readonly string[], skipped: number, windowMs: number | undefined, createTimeoutMs: number): string[] {
  const { oldestCreatedAt, expired } = journal.history;
  const lines: string[] = [];
  if (skipped > 0) {
    const age = oldestCreatedAt === undefined ? '' : ` of ${ageText(Date.now() - oldestCreatedAt)} ago`;
    lines.push(`rsapi: resuming the journal ${journal.path}${age}: skipping ${plural(skipped, 'URL')} already created`);
  }
  // A URL parsed for it only when some are: a week's journal has none.
  const stale = expired.size === 0 ? 0 : all.filter((url) => expired.has(reportIdentity(url))).length;
  if (stale > 0 && windowMs !== undefined) {
    const age = ageText(windowMs);
    lines.push(`rsapi: the journal ${journal.path} shows ${plural(stale, 'URL')} created more than ${age} ago (--resume-within): auditing them again`);
  }
  const doubtful = unsettledLine(journal, all, createTimeoutMs);
  if (doubtful) lines.push(doubtful);
  return lines;
}

/**
 * What a run of URLs an earlier run left unsettled does first, and how long it may wait: the longest of their watches
 * still to come (an earlier run killed mid-request is watched for until its timeout and settle window are over: a
 * resume soon after may sit minutes on them, the bar showing them in flight).
 */
function unsettledLine(journal: Journal, all: readonly string[], createTimeoutMs: number): string | undefined {
  const { unsettled } = journal.history;
  if (unsettled.size === 0) return undefined;
  let count = 0;
  let waitMs = 0;
  for (const url of all) {
    const earlier = unsettled.get(reportIdentity(url));
    if (earlier === undefined) continue;
    count++;
    waitMs = Math.max(waitMs, earlierWindowEnd(earlier, createTimeoutMs) - Date.now());
  }
  if (count === 0) return undefined;
  const them = count === 1 ? 'it is' : 'each is';
  const wait = waitMs >= 1_000 ? `, watching up to ${ageText(waitMs)} for a report an earlier send may still make` : '';
  return (
    `rsapi: the journal ${journal.path} shows ${plural(count, 'URL')} an earlier run sent without learning the outcome: ` +
    `${them} looked up first${wait}, and sent only if no report shows up`
  );
}

/** `rsapi: the journal FILE keeps 1 unsettled URL of an earlier run: https://…; a run of it looks it up first` (Journal.end's URLs). */
export function carriedLine(path: string, urls: readonly string[]): string {
  const shown = urls.slice(0, 3).join(', ') + (urls.length > 3 ? ` and ${urls.length - 3} more` : '');
  const them = urls.length === 1 ? 'it' : 'them';
  return `rsapi: the journal ${path} keeps ${plural(urls.length, 'unsettled URL')} of an earlier run: ${shown}; a run of ${them} looks ${them} up first`;
}

/** `3 h`, `2 d`, `5 min`, `40 s`: a time span as a person reads it, rounded down. */
function ageText(ms: number): string {
  if (ms < 60_000) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / (24 * 60))} d`;
}

/** How many of a file's first lines must read as journal lines before rsapi appends to it. */
const LINES_CHECKED = 5;
/** How every journal line begins (JSON.stringify of an entry, `url` first): a torn first line is a prefix of it. */
const LINE_START = '{"url":"';

/**
 * Refuses, before any request, a --journal path that would damage another file: an existing file whose first lines
 * are not this journal's lines (a URL list, notes). A missing or empty file, or an earlier run's journal, is fine. (A
 * journal that is an input file of the run, under any name, is refused with the run's other files: checkRunFiles.)
 */
export function guardJournal(path: string): void {
  const text = readHead(path);
  const lines = firstLines(text);
  const tornOnly = lines.length === 0 && text.trim() !== '';
  const foreign = lines.find((line) => parseEntry(line) === undefined) ?? (tornOnly && !isTornLine(text) ? text : undefined);
  if (foreign === undefined) return;
  throw new UsageError(
    `--journal ${path} exists and is not a journal of rsapi (its line ${JSON.stringify(foreign.slice(0, 60))} is not a journal entry); ` +
      'it was left unchanged and nothing was sent',
    {
      hint: "give a new file (or an earlier run's journal) to --journal",
    },
  );
}

/**
 * The journal's part of the plan, before the sitemap is fetched, stdin read or anything sent: its folder
 * exists, it is a journal (guardJournal), and no other run uses it. Its lock is taken now and held until the run ends
 * (Journal.open is given it); a dry run, which writes nothing, takes none. A caller that took `PATH.lock` itself
 * (`rsapi audit`, which names the run holding it in its own words) gives it as `held`.
 */
export function claimJournal(path: string, locks: LockFiles, options: { dryRun: boolean; held?: HeldLock }): HeldLock | undefined {
  checkOutputPath(path, '--journal');
  guardJournal(path);
  return options.dryRun ? undefined : (options.held ?? lockJournal(path, locks));
}

/** The first LINES_CHECKED complete lines of a text that are not blank. */
function firstLines(text: string): string[] {
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, LINES_CHECKED);
}

/**
 * The start of a file, up to its first LINES_CHECKED complete lines that are not blank (the whole file when it has
 * fewer): what guardJournal reads of an earlier run's journal, not its 100,000 lines (a 50,000-page week's: 11 MB).
 */
function readHead(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw fileError('read the journal', path, error);
  }
  try {
    let buffer = Buffer.alloc(HEAD_BYTES);
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(buffer.length)]);
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      length += read;
      const text = buffer.toString('utf8', 0, length);
      // Past HEAD_LIMIT, no journal (a line is a URL of at most 8 KB and a message): what is read says enough.
      if (read === 0 || length >= HEAD_LIMIT || firstLines(text).length >= LINES_CHECKED) return text;
    }
  } catch (error) {
    throw fileError('read the journal', path, error);
  } finally {
    closeSync(fd);
  }
}

/** How much of a journal readHead reads first (five lines of the longest URLs, 8 KB each, fit), and at most. */
const HEAD_BYTES = 64 * 1024;
const HEAD_LIMIT = 1024 * 1024;

/** A first line cut short by a kill: the start of a journal line, nothing else. */
function isTornLine(text: string): boolean {
  return LINE_START.startsWith(text) || text.startsWith(LINE_START);
}

/** `PATH.lock`, holding the pid of the run using the journal: a second run is refused at once; a dead run's lock is taken over. */
function lockJournal(journalPath: string, locks: LockFiles): HeldLock {
  const lockPath = `${journalPath}.lock`;
  let attempt: LockAttempt;
  try {
    attempt = locks.tryLock(lockPath);
  } catch (error) {
    throw fileError('open the journal', journalPath, error);
  }
  if ('held' in attempt) return attempt.held;
  const pid = attempt.holder > 0 ? `pid ${attempt.holder}, ` : '';
  throw new UsageError(`the journal ${journalPath} is in use by another run (${pid}lock file ${lockPath})`, {
    hint: 'wait for that run to end, or give this one another --journal',
  });
}

function describeFileFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EIO: 'input/output error',
    EFBIG: 'the file is too large',
  };
  return code ? `${reasons[code] ?? (error as Error).message} (${code})` : String(error);
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

/** What a journal holds, read without taking its lock or changing it (a dry run); a missing file holds nothing. */
export function readJournalHistory(path: string, options: { createdSince?: number } = {}): JournalHistory {
  const text = readExisting(path);
  return parseHistory(text.slice(0, text.lastIndexOf('\n') + 1), options);
}

/**
 * What the journal's lines say, URL by URL (the last line of each wins). An `ended` line clears everything before it but
 * the URLs still unsettled there (ENDED). `createdSince` (ms since the epoch): a URL created before it is not skipped
 * but sent again (the resume window: a week-old reading is not this week's), listed in `expired`.
 */
export function parseHistory(text: string, options: { createdSince?: number } = {}): JournalHistory {
  const history: JournalHistory = { created: new Set(), unsettled: new Map(), unsettledLines: new Map(), taken: [], unreadable: 0, expired: new Set() };
  // A run that ended carrying no unsettled URL (its `ended` line says `carried: 0`; an older one's says nothing) left
  // nothing that binds the next run: its lines, two a page (100,000 after a 50,000-page week), are not read.
  const ended = parseEntry(lastLine(text));
  if (ended?.status === ENDED && (ended as { carried?: unknown }).carried === 0) return { ...history, endedAt: ended.at };
  const firstSeen = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  // The last send of each URL, and the longest timeout any of its sends waited with.
  const lastSent = new Map<string, number>();
  const timeouts = new Map<string, number>();
  // The lowest newest-id-before of a URL's sends: undefined once one send did not say (an older version's line).
  const idFloor = new Map<string, number | undefined>();
  // When each URL's `created` line was written; each URL's lines (as sent, and every line of it).
  const createdAt = new Map<string, number>();
  const linesOf = new Map<string, { url: string; lines: string[] }>();
  // A URL's lines are read as one identity (a URL parsed once, not once a line).
  const identities = new Map<string, string>();
  const identityOf = (url: string) => {
    let identity = identities.get(url);
    if (identity === undefined) {
      identity = reportIdentity(url);
      identities.set(url, identity);
    }
    return identity;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = parseEntry(line);
    if (!entry) {
      history.unreadable++;
      continue;
    }
    // Lines hold the URL as sent (older versions: as typed, or normalised): keyed by identity, like the input.
    if (entry.status === ENDED) {
      // Nothing before this line binds the next run, but what is still unsettled: it is no run's to forget.
      Object.assign(history, { created: new Set(), taken: [], endedAt: entry.at });
      createdAt.clear();
      for (const map of [firstSeen, lastSeen, lastSent, timeouts, idFloor, linesOf]) {
        for (const url of map.keys()) if (!history.unsettled.has(url)) map.delete(url);
      }
      continue;
    }
    delete history.endedAt;
    const url = identityOf(entry.url);
    const parsed = Date.parse(entry.at);
    const at = Number.isNaN(parsed) ? 0 : parsed;
    const own = linesOf.get(url) ?? { url: entry.url, lines: [] };
    own.url = entry.url;
    own.lines.push(line);
    linesOf.set(url, own);
    if (!firstSeen.has(url)) firstSeen.set(url, at);
    lastSeen.set(url, Math.max(lastSeen.get(url) ?? 0, at));
    if (entry.status === 'sending') {
      idFloor.set(url, lowerFloor(idFloor.has(url), idFloor.get(url), entry.newestIdBefore));
      lastSent.set(url, at);
      if (typeof entry.timeoutMs === 'number' && entry.timeoutMs > (timeouts.get(url) ?? 0)) timeouts.set(url, entry.timeoutMs);
    }
    if (entry.status === 'created') {
      history.created.add(url);
      createdAt.set(url, at);
      history.unsettled.delete(url);
      if (entry.id !== undefined) history.taken.push({ url: entry.url, id: entry.id });
    } else {
      history.created.delete(url);
      const earlier = {
        sentAt: firstSeen.get(url) ?? 0,
        lastSeenAt: lastSeen.get(url) ?? 0,
        lastSentAt: lastSent.get(url),
        timeoutMs: timeouts.get(url),
        newestIdBefore: idFloor.get(url),
      };
      if (entry.status === 'sending' || entry.maybeCreated === true) history.unsettled.set(url, earlier);
      else history.unsettled.delete(url);
    }
  }
  for (const url of history.unsettled.keys()) {
    const own = linesOf.get(url);
    if (own) history.unsettledLines.set(url, own);
  }
  for (const url of history.created) {
    const at = createdAt.get(url) ?? 0;
    if (options.createdSince !== undefined && at < options.createdSince) {
      history.created.delete(url);
      history.expired.add(url);
    } else if (history.oldestCreatedAt === undefined || at < history.oldestCreatedAt) history.oldestCreatedAt = at;
  }
  return history;
}

/** A text's last line, without its newline. */
function lastLine(text: string): string {
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  return text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
}

/** The id floor of all sends so far: the lowest, or none once any send had none (the earliest may be the one that stored it). */
function lowerFloor(seen: boolean, floor: number | undefined, next: unknown): number | undefined {
  const value = typeof next === 'number' && Number.isFinite(next) ? next : undefined;
  if (!seen) return value;
  return floor === undefined || value === undefined ? undefined : Math.min(floor, value);
}

function parseEntry(line: string): (Omit<JournalEntry, 'status'> & { status: JournalStatus | typeof ENDED }) | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const { url, status, at } = value as Record<string, unknown>;
    if (typeof url !== 'string' || typeof at !== 'string') return undefined;
    if (status !== 'sending' && status !== 'created' && status !== 'failed' && status !== ENDED) return undefined;
    return value as JournalEntry;
  } catch {
    return undefined;
  }
}
