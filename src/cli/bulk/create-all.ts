// Bulk report creation: bounded concurrency, the journal kept, each outcome reported as it comes, Ctrl-C honoured.
import type { ApiRecord } from '../../api/decode.js';
import { ApiError, ExitCode, RsapiError, type ExitCodeValue } from '../../api/errors.js';
import { isAmbiguousFailure } from '../../api/http.js';
import type { CreateResult, ReportCreateInput } from '../../api/reports.js';
import type { Journal } from './journal.js';
import { runPool } from './pool.js';
import type { ProgressDisplay } from './progress.js';

export interface BulkCreateRun {
  /** The URLs to send, distinct, already checked, journal skips removed. */
  urls: string[];
  concurrency: number;
  /** Creates one report; safe against duplicates after an ambiguous failure (ReportsApi.create). */
  create: (input: ReportCreateInput) => Promise<CreateResult>;
  /** Finds the report an earlier run may have created for this URL, sent at `sentAt` (ms) (ReportsApi.findCreated). */
  lookUp: (url: string, sentAt: number) => Promise<ApiRecord | undefined>;
  input: Omit<ReportCreateInput, 'url'>;
  journal?: Journal;
  /** Raised on Ctrl-C: no new URL is started; requests under way finish or time out. */
  stop: AbortSignal;
  progress: ProgressDisplay;
  onCreated: (url: string, index: number, result: CreateResult) => Promise<void>;
  onFailed: (url: string, index: number, error: RsapiError) => void;
}

export interface BulkCreateOutcome {
  created: number;
  failed: number;
  /** URLs never started because of Ctrl-C. */
  notStarted: number;
  /** Created only after a lost answer, found by looking the URL up. */
  recovered: number;
  /** The exit code of the first failure class met, in completion order. */
  firstFailure: ExitCodeValue | undefined;
  interrupted: boolean;
}

export async function createAll(run: BulkCreateRun): Promise<BulkCreateOutcome> {
  const outcome: BulkCreateOutcome = { created: 0, failed: 0, notStarted: 0, recovered: 0, firstFailure: undefined, interrupted: false };
  let inFlight = 0;
  const update = () => run.progress.update({ created: outcome.created, failed: outcome.failed, inFlight });
  const unsettled = run.journal?.history.unsettled;

  const { started } = await runPool(run.urls, { concurrency: run.concurrency, stop: run.stop }, async (url, index) => {
    inFlight++;
    update();
    run.journal?.record({ url, status: 'sending' });
    let result: CreateResult | undefined;
    let failure: RsapiError | undefined;
    try {
      // A URL an earlier run left unsettled (killed mid-request, or a failed look-up) may exist: look first.
      const earlier = unsettled?.get(url);
      const found = earlier === undefined ? undefined : await run.lookUp(url, earlier);
      result = found ? { report: found, recovered: true, attempts: 0 } : await run.create({ ...run.input, url });
    } catch (error) {
      failure = asRsapiError(error);
    }
    inFlight--;
    if (result) {
      run.journal?.record({ url, status: 'created', id: recordIdOf(result.report) });
      outcome.created++;
      if (result.recovered) outcome.recovered++;
      await run.onCreated(url, index, result);
    } else if (failure) {
      run.journal?.record({ url, status: 'failed', error: failure.message, code: failure.exitCode, ...(mayHaveCreated(failure) ? { maybeCreated: true } : {}) });
      outcome.failed++;
      outcome.firstFailure ??= failure.exitCode;
      run.onFailed(url, index, failure);
    }
    update();
  });
  outcome.notStarted = run.urls.length - started;
  outcome.interrupted = run.stop.aborted;
  return outcome;
}

/** A bug (not an RsapiError) still fails only its URL: exit 1 for it, and the run goes on. */
function asRsapiError(error: unknown): RsapiError {
  if (error instanceof RsapiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new RsapiError(`unexpected error: ${message}`, ExitCode.unexpected, { cause: error });
}

/**
 * Whether the report may exist despite the failure: the answer to the POST was lost (timeout, reset, 502-504:
 * the service may still store it), the look-up itself failed, or something unforeseen happened.
 */
function mayHaveCreated(failure: RsapiError): boolean {
  return !(failure instanceof ApiError) || failure.method !== 'POST' || isAmbiguousFailure(failure);
}

function recordIdOf(report: ApiRecord): string | number | undefined {
  const id = report.id;
  // An id beyond 2^53 arrives as a bigint (api/json.ts): the journal keeps it exact, as text.
  if (typeof id === 'bigint') return id.toString();
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
