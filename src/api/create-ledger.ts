// Which report a create made when its answer was lost and the page redirected: the run's ledger of reports taken, and the rule that picks one.
import { toNumber, type ApiRecord } from './decode.js';
import { projectName, reportIdentity, reportProject } from './report-url.js';

/**
 * What one run knows of the service's reports: the newest id it has seen (ids grow with creation order, so
 * a report a POST makes has a higher id than any seen before it was sent), which reports are already taken
 * by a URL of the run (or of an earlier run, from its journal), and the identities of the run's URLs.
 */
export class CreateLedger {
  private readonly takenBy = new Map<string, string>();
  private readonly identities: Set<string>;
  private newest: number | undefined;

  constructor(urls: Iterable<string> = [], taken: Iterable<{ url: string; id: unknown }> = []) {
    this.identities = new Set([...urls].map(reportIdentity));
    for (const { url, id } of taken) this.take(url, { id });
  }

  /** The newest id seen so far; undefined before any. */
  get newestId(): number | undefined {
    return this.newest;
  }

  see(records: Iterable<ApiRecord>): void {
    for (const record of records) {
      const id = toNumber(record.id);
      if (id !== undefined && (this.newest === undefined || id > this.newest)) this.newest = id;
    }
  }

  /** The report is `url`'s: no other URL of the run may take it. */
  take(url: string, record: ApiRecord): void {
    this.see([record]);
    if (record.id !== undefined && record.id !== null) this.takenBy.set(String(record.id), reportIdentity(url));
  }

  /** Whether the report is surely another URL's: taken by one, or stored under the identity of another URL of the run. */
  isOthers(url: string, record: ApiRecord): boolean {
    const own = reportIdentity(url);
    const holder = record.id === undefined || record.id === null ? undefined : this.takenBy.get(String(record.id));
    if (holder !== undefined) return holder !== own;
    const stored = typeof record.url === 'string' ? reportIdentity(record.url) : undefined;
    return stored !== undefined && stored !== own && this.identities.has(stored);
  }
}

/** When the POST may have made its report: on the service's clock where known, and the newest id seen before it went out. */
export interface SendWindow {
  /** No report created before this (ms since the epoch) is the POST's: the send, less room for truncated times and skew. */
  since: number;
  /** When the POST was sent on the service's clock, if its Date headers told. */
  sentAt?: number;
  /** Nor one created after this (a resume: the earlier attempt's window is over). */
  until?: number;
  /** Nor one of this id or lower. */
  newestIdBefore?: number;
}

/** A redirected page's report, found; or several that could be it (rsapi stays unsure); or none at all. */
export type RedirectPick = { found: ApiRecord } | { ambiguous: ApiRecord[] } | { none: true };

/**
 * The rule for a page stored under another URL than sent (a redirect): among the reports created in the
 * send window that no other URL of the run holds, the one filed under the sent URL's project (host
 * without `www.`) is taken when it is the only one there. Two or more there leave rsapi unsure; so do
 * reports only in other projects (a redirect to another host, or someone else's report: it cannot be
 * told). One exception: services store times to the second, so a report of the send's own second may
 * be older than the send; when exactly one report of the project is of a later second (an audit takes
 * seconds) and the others are of the send's second, that one is taken. `records` are the newest
 * reports; `createdAt` reads a record's time (ms), if it has one.
 */
export function pickRedirected(
  url: string,
  records: readonly ApiRecord[],
  window: SendWindow,
  ledger: CreateLedger,
  createdAt: (record: ApiRecord) => number | undefined,
): RedirectPick {
  const project = reportProject(url);
  const candidates = records.filter((record) => inWindow(record, window, createdAt) && !ledger.isOthers(url, record));
  const own = candidates.filter((record) => projectOf(record) === project);
  if (own.length === 1) return { found: own[0]! };
  const later = laterThanTheSendsSecond(own, window, createdAt);
  if (later) return { found: later };
  if (own.length > 1) return { ambiguous: own };
  return candidates.length === 0 ? { none: true } : { ambiguous: candidates };
}

/** The one report of a second after the send's, when every other one is of the send's second. */
function laterThanTheSendsSecond(
  records: readonly ApiRecord[],
  window: SendWindow,
  createdAt: (record: ApiRecord) => number | undefined,
): ApiRecord | undefined {
  if (window.sentAt === undefined || records.length < 2) return undefined;
  const nextSecond = Math.floor(window.sentAt / 1000) * 1000 + 1000;
  const times = records.map(createdAt);
  if (times.some((time) => time === undefined)) return undefined;
  const later = records.filter((_, index) => times[index]! >= nextSecond);
  return later.length === 1 ? later[0] : undefined;
}

/** Whether the record came after the newest id seen before the request (ids grow with creation order); true when either is unknown. */
export function newerThan(record: ApiRecord, newestIdBefore: number | undefined): boolean {
  const id = toNumber(record.id);
  return newestIdBefore === undefined || id === undefined || id > newestIdBefore;
}

function inWindow(record: ApiRecord, window: SendWindow, createdAt: (record: ApiRecord) => number | undefined): boolean {
  if (!newerThan(record, window.newestIdBefore)) return false;
  const at = createdAt(record);
  return at === undefined || (at >= window.since && (window.until === undefined || at <= window.until));
}

function projectOf(record: ApiRecord): string | undefined {
  if (typeof record.project === 'string' && record.project !== '') return projectName(record.project);
  return typeof record.url === 'string' ? reportProject(record.url) : undefined;
}
