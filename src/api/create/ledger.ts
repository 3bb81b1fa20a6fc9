// Which report a create made when its answer was lost: the run's ledger of reports taken and of URLs still in doubt, and the rule that picks a redirected page's report by elimination.
import { toNumber, type ApiRecord } from '../model/record.js';
import { projectName, reportIdentity, reportProject } from '../model/report-url.js';

/**
 * Where a URL of the input stands, as far as this run knows: `waiting` (not sent yet by this run, and no earlier
 * run left it in doubt), `pending` (sent and unanswered, left in doubt by an earlier run, or another share's: its
 * report may appear at any time) or `settled` (it has its report, or surely stored none).
 */
type UrlState = 'waiting' | 'pending' | 'settled';

/**
 * What one run knows of the service's reports: the newest id it has seen (ids grow with creation order, so a
 * report a POST makes has a higher id than any seen before it was sent), which reports are already taken by a URL
 * of the run (or of an earlier run, from its journal), and where each URL of the input stands.
 */
export class CreateLedger {
  private readonly takenBy = new Map<string, string>();
  /** Identity -> state, for every URL of the input (other shares' included). */
  private readonly states = new Map<string, UrlState>();
  /** Identity -> its project, worked out once (mayEliminate reads it for every URL at each look-up). */
  private readonly projects = new Map<string, string>();
  private newest: number | undefined;

  /**
   * `urls`: every URL of the input, other shares' too (pending until this run sends them: `willSend`). `taken`:
   * reports earlier runs created (their URLs are settled).
   */
  constructor(urls: Iterable<string> = [], taken: Iterable<{ url: string; id: unknown }> = []) {
    for (const url of urls) this.setState(reportIdentity(url), 'pending');
    for (const { url, id } of taken) this.take(url, { id });
  }

  private setState(identity: string, state: UrlState): void {
    if (!this.projects.has(identity)) this.projects.set(identity, reportProject(identity));
    this.states.set(identity, state);
  }

  /**
   * The URLs this run will send: waiting until sent, except those an earlier run left in doubt (`inDoubt`, identities).
   * One an earlier run created (`taken`) is sent again when its reading is too old to resume: its new report may appear.
   */
  willSend(urls: Iterable<string>, inDoubt: { has(identity: string): boolean } = new Set()): void {
    for (const url of urls) {
      const identity = reportIdentity(url);
      this.setState(identity, inDoubt.has(identity) ? 'pending' : 'waiting');
    }
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

  /** The URL's create goes out: its report may appear from now on. */
  sending(url: string): void {
    const identity = reportIdentity(url);
    if (this.states.get(identity) !== 'settled') this.setState(identity, 'pending');
  }

  /** The URL's create surely stored nothing (refused, or proved absent): it is settled without a report. */
  settle(url: string): void {
    this.setState(reportIdentity(url), 'settled');
  }

  /** The report is `url`'s: no other URL of the run may take it. */
  take(url: string, record: ApiRecord): void {
    this.see([record]);
    this.settle(url);
    if (record.id !== undefined && record.id !== null) this.takenBy.set(String(record.id), reportIdentity(url));
  }

  /** Whether another URL already took the report (by its id): only that makes a report surely not `url`'s. */
  isOthers(url: string, record: ApiRecord): boolean {
    const holder = record.id === undefined || record.id === null ? undefined : this.takenBy.get(String(record.id));
    return holder !== undefined && holder !== reportIdentity(url);
  }

  /**
   * Whether a new report of `url`'s project may be taken as its own by elimination: only when no other URL of that
   * project could have made it, that is, every other one is settled or not sent yet (so its report cannot be among
   * those already stored). A URL of another share, or one an earlier run left in doubt, forbids it.
   */
  mayEliminate(url: string): boolean {
    const own = reportIdentity(url);
    const project = reportProject(url);
    for (const [identity, state] of this.states) {
      if (identity !== own && state === 'pending' && this.projects.get(identity) === project) return false;
    }
    return true;
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
 * The rule for a page stored under another URL than sent (a redirect) when rsapi could not learn where the page
 * ends: among the reports created in the send window that no other URL took, the one filed under the sent URL's
 * project (host without `www.`) is taken when it is the only one there and no other URL of that project is in
 * doubt (`ledger.mayEliminate`). Otherwise any such report leaves rsapi unsure: it may be this page's, or that
 * of another create still under way. `records` are the newest reports; `createdAt` reads a record's time (ms).
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
  if (candidates.length === 0) return { none: true };
  const own = candidates.filter((record) => projectOf(record) === project);
  if (own.length === 1 && ledger.mayEliminate(url)) return { found: own[0]! };
  return { ambiguous: own.length > 0 ? own : candidates };
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
