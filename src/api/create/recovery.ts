// Creating a report never twice: the POST and what a lost answer leaves in doubt, the look-up that tells whether the
// report was stored, the settle window it is watched for, and a resume's watch for a create an earlier run left in doubt.
import { decodeRecord } from '../http/decode.js';
import type { ApiRecord, Page } from '../model/record.js';
import { InterruptedError, serviceFailing, serviceUnreachable, UnsettledCreateError } from '../errors.js';
import { HttpClient, type Params } from '../http/http.js';
import type { PagingOptions } from '../http/paging.js';
import { CreateLedger, newerThan, pickRedirected, type SendWindow } from './ledger.js';
import { normaliseReportUrl, reportIdentity } from '../model/report-url.js';
import { outcomeOfError, RetryPolicy, type AttemptOutcome } from '../http/retry-policy.js';
import type { Privacy, ReportListParams } from '../list-params.js';
import { timestampOf } from '../model/timestamps.js';

export interface ReportCreateInput {
  url: string;
  privacy?: Privacy;
  password?: string;
}

export interface CreateResult {
  report: ApiRecord;
  /** True when an attempt's answer was lost and the report was found by looking it up. */
  recovered: boolean;
  /**
   * How a recovered report was found: by the URL's identity, by the identity of the page's final URL after its
   * redirects (retraced by rsapi), or as the one new report of its project that nothing else could have made.
   */
  matchedBy?: MatchedBy;
  attempts: number;
}

export type MatchedBy = 'identity' | 'redirect' | 'elimination';

export interface CreateOptions {
  /**
   * Told when an answer was lost while the service may still be working: rsapi now watches for the report
   * for up to `windowMs` before calling it unsettled (for a line on the terminal). `resuming`: the answer an earlier
   * run lost (createUnlessStored), and the URL is sent once the watch proves its report absent.
   */
  onSettling?: (url: string, windowMs: number, resuming: boolean) => void;
  /**
   * The run's ledger (the newest id seen, the reports its URLs took): what tells a redirected page's report
   * from another URL's. A create without one keeps its own.
   */
  ledger?: CreateLedger;
  /**
   * Raised when the run gives up on the service (a bulk run's breaker: it answers 5xx to everything): a watch for a
   * lost answer ends with the look-up under way (one more if it was waiting), unsettled unless that found the report.
   */
  giveUp?: AbortSignal;
  /**
   * Awaited before each POST of the URL but a fresh create's first (whose caller journaled it): a resume's, once its
   * watch found nothing, and a resend. A bulk run journals a `sending` line for it, so that a run killed after this POST
   * watches as long after it as after the first: a resume that sent and was killed made the next resume's watch end
   * before the service had stored the report, and it sent a second. If it throws, nothing is sent.
   */
  resending?: (url: string) => Promise<void>;
}

/** When an earlier run's attempt at a URL began and when it was last heard of (ms, our clock), from its journal. */
export interface EarlierAttempt {
  sentAt: number;
  lastSeenAt: number;
  /** When its last request went out (its last `sending` line); journals of older versions: sentAt. */
  lastSentAt?: number;
  /** The create timeout that run waited for its answer (journals of older versions do not say: this run's is used). */
  timeoutMs?: number;
  /** The newest report id that run had seen before sending (journals of older versions do not say). */
  newestIdBefore?: number;
}

/** One create as sent: the URL (normalised), when it first went out (ms, our clock), and what was known then. */
export interface SentCreate {
  url: string;
  sentAt: number;
  /** A resume: no report created after this (ms, our clock) is taken as a redirected page's. */
  until?: number;
  newestIdBefore?: number;
  /** Where the page ends after its redirects, once retraced (`url` undefined: it could not be told). */
  finalPage?: { url: string | undefined };
}

/**
 * What a look-up came to: the report (and how it was matched), several that could be it, absence (no field), or
 * `incomplete` (why absence is not proved: a search stopped at its page cap before it reached older reports).
 */
interface LookUp {
  found?: ApiRecord;
  matchedBy?: MatchedBy;
  ambiguous?: ApiRecord[];
  incomplete?: string;
}

/** A search newest first: the report if met, and whether it read down to reports older than the send (else its page cap stopped it). */
interface Search<T> {
  result: T;
  complete: boolean;
}

/**
 * How far a created report's timestamp may precede our request, on the service's clock as its Date
 * headers give it, and still count as ours: the service may store times truncated to the second.
 */
const TIMESTAMP_SLACK_MS = 1_000;
/** The same, when the service sends no Date header and our own clock must do (clock skew). */
const CLOCK_SKEW_MS = 120_000;
/**
 * A resume takes a report created this long after the earlier attempt's settle window ended as a redirected
 * page's, at most: an audit still running then is not believed; reports from later are someone else's.
 */
const LATE_STORE_MS = 10 * 60_000;
/**
 * A look-up pages newest first down to the reports older than the send, this far at most (5,000 reports made since):
 * one that stops here has proved nothing, and the URL stays unsettled.
 */
const LOOKUP_PER_PAGE = 100;
const LOOKUP_MAX_PAGES = 50;

export class CreateRecovery {
  constructor(
    private readonly http: HttpClient,
    /** How long a create waits for its answer. */
    private readonly createTimeoutMs: number,
    /** The list of reports, paged (ReportsApi.pages): what a look-up reads, newest first. */
    private readonly pages: (params: ReportListParams, paging: PagingOptions) => AsyncGenerator<Page>,
  ) {}

  /**
   * Creates one report, never twice. A POST is sent again blindly only when it surely did nothing (never
   * sent, 429). After an answer that ended the service's handling (502, 503, 500) one look-up tells whether
   * the report was stored; after one that may leave it still working (our timeout, a reset after sending,
   * 504) a look-up that finds nothing proves nothing: it watches for the report for a settle window and,
   * if it never shows, throws UnsettledCreateError without sending again. The URL is sent normalised; its
   * report is looked up by identity, then as a redirected page's (lookUp).
   */
  async create(input: ReportCreateInput, options: CreateOptions = {}, earlier?: Pick<SentCreate, 'sentAt' | 'newestIdBefore'>): Promise<CreateResult> {
    const url = normaliseReportUrl(input.url);
    const form: Params = { url, privacy: input.privacy, password: input.password };
    const req = { method: 'POST' as const, path: '/reports', form, timeoutMs: this.createTimeoutMs };
    const policy = this.http.policy;
    const ledger = options.ledger ?? new CreateLedger([url]);
    // A resume that sends again keeps the earlier attempt's bounds: that one may still turn up.
    const sent: SentCreate = { url, sentAt: earlier?.sentAt ?? Date.now(), newestIdBefore: earlier ? earlier.newestIdBefore : ledger.newestId };
    for (let attempt = 1; ; attempt++) {
      let failure: unknown;
      let outcome: AttemptOutcome | undefined;
      if (attempt > 1 || earlier) await options.resending?.(url);
      ledger.sending(url);
      try {
        const response = await this.http.request(req);
        try {
          const report = decodeRecord(response.body, HttpClient.describe(req));
          ledger.take(url, report);
          return { report, recovered: false, attempts: attempt };
        } catch (error) {
          // A 2xx whose body is no report: the service created it all the same (createDoubt), so it is looked for.
          failure = error;
          outcome = { type: 'answer', status: response.status };
        }
      } catch (error) {
        failure = error;
        outcome = outcomeOfError(error);
      }
      const doubt = RetryPolicy.createDoubt(outcome);
      if (outcome === undefined || doubt === 'none') {
        ledger.settle(url);
        throw failure;
      }
      const lost = lostAnswer(outcome);
      // `ended`: the first look-up that proves the report absent ends the watch; one that cannot tell yet (another
      // create of the project still under way, a failed look-up) is repeated as for `running`, within the window.
      const windowMs = RetryPolicy.settleWindowMs(this.createTimeoutMs);
      const watched = await this.settle(sent, windowMs, options, ledger, lost, doubt === 'ended');
      if (watched.found) return { report: watched.found, matchedBy: watched.matchedBy, recovered: true, attempts: attempt };
      if (watched.unsure) throw watched.unsure(failure);
      if (doubt === 'running') throw new UnsettledCreateError(url, `${lost} and no report showed up within ${seconds(windowMs)} s`, { cause: failure });
      if (!policy.mayResendCreate(outcome, attempt)) {
        ledger.settle(url);
        throw failure;
      }
      await this.http.pause(policy.delayMs(attempt, outcome));
    }
  }

  /**
   * Resumes a URL an earlier run left unsettled: looks it up first (watching until a settle window after
   * that run last heard of it, if that is not over yet) and sends it only if the report is surely not there.
   */
  async createUnlessStored(input: ReportCreateInput, earlier: EarlierAttempt, options: CreateOptions = {}): Promise<CreateResult> {
    const url = normaliseReportUrl(input.url);
    const ledger = options.ledger ?? new CreateLedger([url]);
    const windowEnd = earlierWindowEnd(earlier, this.createTimeoutMs);
    const sent: SentCreate = { url, sentAt: earlier.sentAt, until: windowEnd + LATE_STORE_MS, newestIdBefore: earlier.newestIdBefore };
    ledger.sending(url);
    const watched = await this.settle(sent, Math.max(0, windowEnd - Date.now()), options, ledger, 'an earlier run did not learn its outcome');
    if (watched.found) return { report: watched.found, matchedBy: watched.matchedBy, recovered: true, attempts: 0 };
    if (watched.unsure) throw watched.unsure(undefined);
    return this.create(input, { ...options, ledger }, earlier);
  }

  /**
   * Looks for the report at once, then again with growing waits until `windowMs` has passed. Not found
   * by then, it is absent; a failed look-up is tried again at the next turn, and if the last one failed
   * too (or Ctrl-C stopped the watch) rsapi is unsure: `unsure` makes the error to throw. With `absenceEnds`
   * (the service's handling is over) the first look-up that proves the report absent ends the watch. The run giving
   * up on the service (`giveUp`) ends it with the look-up under way (one more if it was waiting): unsure, unless that
   * look-up found the report.
   */
  private async settle(
    sent: SentCreate,
    windowMs: number,
    options: CreateOptions,
    ledger: CreateLedger,
    lost: string,
    absenceEnds = false,
  ): Promise<SettleOutcome> {
    const { url } = sent;
    const clock = this.http.policy.clock;
    const deadline = clock.now() + windowMs;
    // A resume's watch (`until` set) is for an earlier run's send.
    if (windowMs > 0 && !absenceEnds) options.onSettling?.(url, windowMs, sent.until !== undefined);
    const unsure = (why: string) => ({ unsure: (cause: unknown) => new UnsettledCreateError(url, why, { cause }) });
    const interrupted = unsure('interrupted while waiting for the report to show up');
    let lookUpError: unknown;
    let looked: LookUp = {};
    let answered = false;
    const givenUp = () => options.giveUp?.aborted === true;
    for (let turn = 1; ; turn++) {
      try {
        looked = await this.lookUp(sent, ledger);
        answered = true;
        if (looked.found) return { found: looked.found, matchedBy: looked.matchedBy };
        if (absenceEnds && !looked.ambiguous && looked.incomplete === undefined) return {};
        lookUpError = undefined;
      } catch (error) {
        if (error instanceof InterruptedError) return interrupted;
        // A service out of reach (after the look-up's own retries) answers no further look-up either: watching on
        // would hold the URL (and a slot of a bulk run) for the whole window to learn nothing.
        if (serviceUnreachable(error)) {
          const why = `${lost} and the service stopped answering while rsapi watched for the report (${messageOf(error)})`;
          return { unsure: (cause: unknown) => new UnsettledCreateError(url, why, { cause, serviceGone: error }) };
        }
        lookUpError = error;
      }
      const remaining = deadline - clock.now();
      if (remaining <= 0 || givenUp()) {
        if (lookUpError !== undefined) {
          const why = `${lost} and looking the report up failed (${messageOf(lookUpError)})`;
          // A service that failed every read of the window (503 to everything) is as good as gone: a bulk run that
          // went on would spend a whole window on each URL left, to learn nothing. One that answered a read is flaky.
          const gone = !answered && serviceFailing(lookUpError) ? lookUpError : undefined;
          return { unsure: (cause: unknown) => new UnsettledCreateError(url, why, { cause, serviceGone: gone }) };
        }
        if (looked.ambiguous) return unsure(ambiguity(lost, looked.ambiguous));
        // Absence seen before the window's end proves nothing: the report may show up yet.
        if (remaining > 0) return unsure(`${lost} and no report showed up before the run gave up on the service`);
        return looked.incomplete === undefined ? {} : unsure(`${lost} and ${looked.incomplete}`);
      }
      try {
        await this.http.pause(Math.min(RetryPolicy.settleDelayMs(turn, this.createTimeoutMs), remaining), options.giveUp);
      } catch {
        // Given up during the wait: one last look-up, then the watch ends (unsure, unless that look-up finds the report).
        if (!givenUp()) return interrupted;
      }
    }
  }

  /**
   * Where the report of a create whose answer was lost may be, told exactly where rsapi can:
   * 1. the newest report of the URL's identity (reportIdentity: the form the service stores it in) made since the send;
   * 2. else, the page may have redirected: its final URL, retraced from here as the service followed it
   *    (HttpClient.finalPageUrl), and the newest report of that identity; not found there, it is absent;
   * 3. a page rsapi cannot retrace: the one new report of its project that no other URL took, and only while no other
   *    URL of that project is in doubt (pickRedirected); any other new report leaves rsapi unsure.
   * A search that stops at its page cap before reaching reports older than the send proves no absence (`incomplete`).
   */
  private async lookUp(sent: SentCreate, ledger: CreateLedger): Promise<LookUp> {
    const accept = (record: ApiRecord) => !ledger.isOthers(sent.url, record) && newerThan(record, sent.newestIdBefore);
    const own = await this.searchCreated(sent.url, sent, accept);
    if (own.result) {
      ledger.take(sent.url, own.result);
      return { found: own.result, matchedBy: 'identity' };
    }
    const capped = `the look-up read ${LOOKUP_MAX_PAGES * LOOKUP_PER_PAGE} reports made since it was sent without reaching older ones`;
    sent.finalPage ??= { url: await this.http.finalPageUrl(sent.url) };
    const final = sent.finalPage.url;
    if (final !== undefined) {
      if (reportIdentity(final) === reportIdentity(sent.url)) return own.complete ? {} : { incomplete: capped };
      const moved = await this.searchCreated(final, sent, accept);
      if (moved.result) {
        ledger.take(sent.url, moved.result);
        return { found: moved.result, matchedBy: 'redirect' };
      }
      return own.complete && moved.complete ? {} : { incomplete: capped };
    }
    const window = this.sendWindow(sent);
    const recent = await this.createdSince(window);
    ledger.see(recent.result);
    if (!own.complete || !recent.complete) return { incomplete: capped };
    const pick = pickRedirected(sent.url, recent.result, window, ledger, createdAtOf);
    if ('found' in pick) {
      ledger.take(sent.url, pick.found);
      return { found: pick.found, matchedBy: 'elimination' };
    }
    return 'ambiguous' in pick ? { ambiguous: pick.ambiguous } : {};
  }

  /**
   * The newest report of this URL's identity (reportIdentity: as the service stores it) made since the send and
   * accepted by `accept`, if any. Timestamps are compared on the service's clock, known from the look-up's own Date
   * header, so a report made a minute earlier is not taken for ours. The search is a substring match (a site root
   * matches every page of the site), so it pages on, newest first, until it meets a report older than the send (by
   * time, or by id: not newer than the newest seen before it) or the end; at its page cap it is incomplete. Ctrl-C
   * stops it before its next request.
   */
  private async searchCreated(
    url: string,
    sent: Pick<SentCreate, 'sentAt' | 'newestIdBefore'>,
    accept: (record: ApiRecord) => boolean,
  ): Promise<Search<ApiRecord | undefined>> {
    const wanted = reportIdentity(url);
    const { since } = this.sendWindow(sent);
    const older = (record: ApiRecord) => !createdSince(record, since) || !newerThan(record, sent.newestIdBefore);
    // The identity is a substring of every stored form of the URL (the search matches substrings): the matches are
    // then compared by identity.
    const params: ReportListParams = { search: wanted, searchBy: 'url', sortBy: 'id', sort: 'desc', perPage: LOOKUP_PER_PAGE };
    for await (const page of this.pages(params, { all: true, concurrency: 1 })) {
      const found = page.records.find((record) => typeof record.url === 'string' && reportIdentity(record.url) === wanted && !older(record) && accept(record));
      if (found) return { result: found, complete: true };
      if (page.records.some(older)) return { result: undefined, complete: true };
      if (page.page >= LOOKUP_MAX_PAGES && page.nextPage !== undefined) return { result: undefined, complete: false };
    }
    return { result: undefined, complete: true };
  }

  /** Every report made in the window (newest first, any URL): ids grow with creation order, so it pages down until one is older. */
  private async createdSince(window: SendWindow): Promise<Search<ApiRecord[]>> {
    const params: ReportListParams = { sortBy: 'id', sort: 'desc', perPage: LOOKUP_PER_PAGE };
    const records: ApiRecord[] = [];
    const older = (record: ApiRecord) => !createdSince(record, window.since) || !newerThan(record, window.newestIdBefore);
    for await (const page of this.pages(params, { all: true, concurrency: 1 })) {
      records.push(...page.records.filter((record) => !older(record)));
      if (page.records.some(older)) return { result: records, complete: true };
      if (page.page >= LOOKUP_MAX_PAGES && page.nextPage !== undefined) return { result: records, complete: false };
    }
    return { result: records, complete: true };
  }

  /** The send window on the service's clock (as far as its Date headers tell; else ours, with room for skew). */
  private sendWindow(sent: Pick<SentCreate, 'sentAt' | 'until' | 'newestIdBefore'>): SendWindow {
    const onService = (ms: number) => this.http.toServiceTime(ms);
    const since = onService(sent.sentAt);
    const until = sent.until === undefined ? undefined : onService(sent.until);
    return {
      sentAt: since,
      since: since === undefined ? sent.sentAt - CLOCK_SKEW_MS : since - TIMESTAMP_SLACK_MS,
      until: sent.until === undefined ? undefined : until === undefined ? sent.until + CLOCK_SKEW_MS : until + TIMESTAMP_SLACK_MS,
      newestIdBefore: sent.newestIdBefore,
    };
  }
}

/** What watching for a report came to: found, absent (neither field), or unsure (the error to throw). */
interface SettleOutcome {
  found?: ApiRecord;
  matchedBy?: MatchedBy;
  unsure?: (cause: unknown) => UnsettledCreateError;
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A record without any timestamp cannot be placed in time: take it as ours rather than create a duplicate. */
function createdSince(record: ApiRecord, since: number): boolean {
  const time = createdAtOf(record);
  return time === undefined || time >= since;
}

/** When the report was created (ms), if it says. */
function createdAtOf(record: ApiRecord): number | undefined {
  return timestampOf(record.created_at ?? record.generated_at);
}

/** Why a URL stays unsettled when reports rsapi cannot tell apart could be its redirected page's. */
function ambiguity(lost: string, candidates: readonly ApiRecord[]): string {
  const ids = candidates
    .slice(0, 10)
    .map((record) => String(record.id))
    .join(', ');
  const more = candidates.length > 10 ? ', ...' : '';
  const could =
    candidates.length === 1
      ? `1 report created since it was sent could be its page's after a redirect, or another create's still under way`
      : `${candidates.length} reports created since it was sent could be its page's after a redirect`;
  return `${lost}, no report is stored under its URL, and ${could} (ids ${ids}${more})`;
}

/** How a create's outcome was lost, for messages: the service answered (with what), or no answer came. */
function lostAnswer(outcome: AttemptOutcome): string {
  if (outcome.type === 'network') return 'the answer was lost';
  if (outcome.status >= 200 && outcome.status < 300) return `the service answered ${outcome.status} with a body rsapi could not read`;
  return `the service answered ${outcome.status}`;
}

/**
 * Until when a resume watches for a URL an earlier run left in doubt: as long as that run itself would have, from
 * its last send (its timeout, then the settle window) and from the last it heard of the URL (a settle window).
 */
export function earlierWindowEnd(earlier: EarlierAttempt, createTimeoutMs: number): number {
  const timeoutMs = earlier.timeoutMs ?? createTimeoutMs;
  const settleMs = RetryPolicy.settleWindowMs(timeoutMs);
  return Math.max(earlier.lastSeenAt + settleMs, (earlier.lastSentAt ?? earlier.sentAt) + timeoutMs + settleMs);
}
