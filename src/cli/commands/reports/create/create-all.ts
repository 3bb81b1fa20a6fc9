// Bulk report creation: bounded concurrency, the journal kept, each outcome reported as it comes, Ctrl-C honoured.
import { withoutPassedValues } from '../../../../api/model/checks.js';
import type { ApiRecord } from '../../../../api/model/record.js';
import { ApiError, RsapiError, UnsettledCreateError } from '../../../../api/errors.js';
import { type ExitCodeValue, exitCodeOf } from '../../../runtime/exit-codes.js';
import type { CreateLedger } from '../../../../api/create/ledger.js';
import type { EarlierAttempt, ReportCreateInput } from '../../../../api/reports.js';
import type { BulkCreateResult } from './existing.js';
import { reportIdentity } from '../../../../api/model/report-url.js';
import { JournalWriteError, type Journal, type JournalEntry } from './journal.js';
import { runPool } from '../../../bulk/pool.js';
import { unreachableCause } from './service-gone.js';
import type { Breaker } from './breaker.js';
import type { ProgressDisplay } from './progress.js';

export interface BulkCreateRun {
  /** The URLs to send, distinct, already checked, journal skips removed. */
  urls: string[];
  concurrency: number;
  /**
   * Creates one report; safe against duplicates after an ambiguous failure (ReportsApi.create); or, with --existing,
   * uses the one there. `resending` journals a POST after the URL's first (CreateOptions.resending).
   */
  create: (input: ReportCreateInput, resending: (url: string) => Promise<void>) => Promise<BulkCreateResult>;
  /** For a URL an earlier run left unsettled: looks it up first, creates it only if surely absent (ReportsApi.createUnlessStored). */
  resume: (input: ReportCreateInput, earlier: EarlierAttempt, resending: (url: string) => Promise<void>) => Promise<BulkCreateResult>;
  /**
   * Whether sending `url` may create a report (default: yes). One the service holds already, re-audited or kept
   * (--existing refresh|skip), creates none: it gets no `sending` line, for a resume may simply send it again.
   */
  mayCreate?: (url: string) => boolean;
  input: Omit<ReportCreateInput, 'url'>;
  journal?: Journal;
  /** The run's ledger, shared with `create` and `resume`: its newest id before each request is journaled with it. */
  ledger?: CreateLedger;
  /** How long each create waits for its answer: journaled with each send, so a resume watches as long as this run would have. */
  timeoutMs?: number;
  /** Raised on Ctrl-C (or by `halt`): no new URL is started; requests under way finish or time out. */
  stop: AbortSignal;
  /** Stops every new request of the run (the journal can no longer be written). */
  halt: () => void;
  /** Counts the service's answers: once it has answered 5xx to every request for a while, no new URL is started. */
  breaker?: Breaker;
  progress: ProgressDisplay;
  /** `kept`: the report as the outcome keeps it (withoutPassedValues unless wholeReports): one copy for the run's files too. */
  onCreated: (url: string, index: number, result: BulkCreateResult, kept: ApiRecord) => Promise<void>;
  onFailed: (url: string, index: number, error: RsapiError) => void;
  /** Keep each report whole (a run part writes them): else without its passed checks' values, which no output shows. */
  wholeReports?: boolean;
}

/**
 * What became of one URL sent: its report (made, re-audited or kept as it was; without its passed checks' values, for a
 * run of 50,000 pages holds one a page, unless the run writes a part), or why it failed.
 */
export type SentUrl =
  /** `recovered`: its answer was lost, and the report found by looking the URL up. */
  | { status: 'created'; report: ApiRecord; recovered: boolean }
  | { status: 'refreshed' | 'kept'; report: ApiRecord }
  /** `unsettled`: failed with the report perhaps created (its answer lost, it never showed up); a resume looks it up first. */
  | { status: 'failed' | 'unsettled'; message: string; code: ExitCodeValue };

export interface BulkCreateOutcome {
  created: number;
  /** URLs that had a report already, re-audited (--existing refresh) or kept as it was (--existing skip). */
  refreshed: number;
  kept: number;
  failed: number;
  /** URLs never sent: the run was stopped (Ctrl-C, the journal failed, stdout went away) before their turn. */
  notStarted: number;
  /** Created only after a lost answer, found by looking the URL up. */
  recovered: number;
  /** Failed with the report perhaps created: its answer was lost and it never showed up (counted in `failed` too). */
  unsettled: number;
  /** The exit code of the first failure class met, in completion order. */
  firstFailure: ExitCodeValue | undefined;
  interrupted: boolean;
  /** The first journal write that failed: the run stopped there. */
  journalFailure: JournalWriteError | undefined;
  /**
   * Why the service went out of reach (`connection refused`) or failed everything (`HTTP 503 to 10 requests in a row
   * over 6 s`: the breaker), when it did: the run started no URL after.
   */
  serviceGone: string | undefined;
  /** The breaker tripped (serviceGone says why): the run ends with exit 8 whatever else failed. */
  tripped: boolean;
  /** Each URL sent, by URL: what became of it. A URL never sent (`notStarted`) is not in it. */
  sent: Map<string, SentUrl>;
}

export async function createAll(run: BulkCreateRun): Promise<BulkCreateOutcome> {
  const outcome: BulkCreateOutcome = {
    created: 0,
    refreshed: 0,
    kept: 0,
    failed: 0,
    notStarted: 0,
    recovered: 0,
    unsettled: 0,
    firstFailure: undefined,
    interrupted: false,
    journalFailure: undefined,
    serviceGone: undefined,
    tripped: false,
    sent: new Map(),
  };
  // A service out of reach fails every URL alike: no new one is started (each stays resumable, "not started").
  const unreachable = new AbortController();
  let neverSent = 0;
  /** Writes to the journal (a line, or the lines it holds); false (and the run halted) when it could not write them whole. */
  const journaling = async (write: (journal: Journal) => Promise<void>): Promise<boolean> => {
    if (!run.journal) return true;
    try {
      await write(run.journal);
      return true;
    } catch (error) {
      outcome.journalFailure ??= error instanceof JournalWriteError ? error : new JournalWriteError(run.journal.path, String(error), { cause: error });
      run.halt();
      return false;
    }
  };
  const journaled = (entry: Omit<JournalEntry, 'at'>) => journaling((journal) => journal.record(entry));
  // A create's `sending` line: the newest id before it and its timeout, so that a resume watches as this run would have.
  const sendingLine = (url: string) => {
    const newestIdBefore = run.ledger?.newestId;
    return { url, status: 'sending' as const, ...(newestIdBefore === undefined ? {} : { newestIdBefore }), timeoutMs: run.timeoutMs };
  };
  // A POST after the URL's first (a resume's, after its watch; a resend) is journaled too: no POST without its line.
  const resending = async (url: string) => {
    if (!(await journaled(sendingLine(url)))) throw outcome.journalFailure;
  };
  let inFlight = 0;
  // The bar counts what is done: a report kept or re-audited is as done as one created.
  const update = () => run.progress.update({ created: outcome.created, refreshed: outcome.refreshed, kept: outcome.kept, failed: outcome.failed, inFlight });
  // Looked up by identity only when an earlier run left some (a URL parsed for nothing 50,000 times otherwise).
  const unsettled = run.journal?.history.unsettled.size ? run.journal.history.unsettled : undefined;

  const { breaker } = run;
  breaker?.tripped.addEventListener(
    'abort',
    () => {
      outcome.tripped = true;
      outcome.serviceGone ??= breaker.cause;
    },
    { once: true },
  );
  const stop = AbortSignal.any([run.stop, unreachable.signal, ...(breaker ? [breaker.tripped] : [])]);
  const { started } = await runPool(run.urls, { concurrency: run.concurrency, stop }, async (url, index) => {
    // No create without its `sending` line kept (on disk, or in the history): a resume must know it may have gone out. A
    // weekly audit's refreshes write half the lines (a PostgreSQL journal half the round trips).
    if (outcome.journalFailure || ((run.mayCreate?.(url) ?? true) && !(await journaled(sendingLine(url))))) {
      neverSent++;
      return;
    }
    inFlight++;
    update();
    let result: BulkCreateResult | undefined;
    let failure: RsapiError | undefined;
    try {
      // A URL an earlier run left unsettled (killed mid-request, or its report never showed up) may exist: look first.
      const earlier = unsettled?.get(reportIdentity(url));
      result = earlier === undefined ? await run.create({ ...run.input, url }, resending) : await run.resume({ ...run.input, url }, earlier, resending);
    } catch (error) {
      failure = asRsapiError(error);
    }
    inFlight--;
    if (result) {
      await journaled({ url, status: 'created', id: recordIdOf(result.report) });
      if (result.existing === 'refreshed') outcome.refreshed++;
      else if (result.existing === 'kept') outcome.kept++;
      else outcome.created++;
      if (result.recovered) outcome.recovered++;
      const { recovered, existing } = result;
      const report = run.wholeReports ? result.report : withoutPassedValues(result.report);
      outcome.sent.set(url, existing ? { status: existing, report } : { status: 'created', report, recovered });
      await run.onCreated(url, index, result, report);
    } else if (failure) {
      const maybeCreated = mayHaveCreated(failure);
      await journaled({ url, status: 'failed', error: failure.message, code: exitCodeOf(failure), ...(maybeCreated ? { maybeCreated: true } : {}) });
      outcome.failed++;
      if (maybeCreated) outcome.unsettled++;
      outcome.firstFailure ??= exitCodeOf(failure);
      outcome.sent.set(url, { status: maybeCreated ? 'unsettled' : 'failed', message: failure.message, code: exitCodeOf(failure) });
      const gone = unreachableCause(failure);
      if (gone !== undefined) {
        outcome.serviceGone ??= gone;
        unreachable.abort();
      }
      run.onFailed(url, index, failure);
    }
    update();
  });
  // The outcome lines the journal still holds (OUTCOMES_WAIT_MS): written before the run's summary, or it says why not.
  if (!outcome.journalFailure) await journaling((journal) => journal.flush());
  outcome.notStarted = run.urls.length - started + neverSent;
  outcome.interrupted = run.stop.aborted;
  return outcome;
}

/** A bug (not an RsapiError) still fails only its URL: exit 1 for it, and the run goes on. */
function asRsapiError(error: unknown): RsapiError {
  if (error instanceof RsapiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new RsapiError(`unexpected error: ${message}`, { cause: error });
}

/**
 * Whether the report may exist despite the failure: the create said so (its answer was lost and the report
 * never showed up), a resume's look-up failed, or something unforeseen happened (Ctrl-C included). Any
 * other failed create surely stored nothing: it was refused, or a look-up proved it absent.
 */
function mayHaveCreated(failure: RsapiError): boolean {
  return failure instanceof UnsettledCreateError || !(failure instanceof ApiError) || failure.method !== 'POST';
}

function recordIdOf(report: ApiRecord): string | number | undefined {
  const id = report.id;
  // An id beyond 2^53 arrives as a bigint (api/json.ts): the journal keeps it exact, as text.
  if (typeof id === 'bigint') return id.toString();
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
