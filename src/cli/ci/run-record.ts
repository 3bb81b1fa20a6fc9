// What a CI run processed, report by report: the one input of the JUnit file, the Markdown summary and the baseline check.
import type { ApiRecord } from '../../api/decode.js';
import type { BaselineComparison, Regression } from './baseline.js';
import type { CheckChange } from './check-changes.js';
import type { ShareInfo } from './shard.js';

/** A report the run read or created. */
export interface ReportCase {
  kind: 'report';
  url: string;
  /** The input URL it was created for, when known (bulk create): its place in the input, even after a redirect. */
  asked?: string;
  record: ApiRecord;
  /** Why the report fails the gate (--fail-on, --min-score); empty when it passes. */
  gateFailures: string[];
  /** Set once the baseline is compared. */
  regression?: Regression;
  /** Checks newly failing or fixed since the baseline; set once it is compared. */
  checkChange?: CheckChange;
  seconds?: number;
}

/** A URL whose report could not be created. */
export interface ErrorCase {
  kind: 'error';
  url: string;
  message: string;
  exitCode: number;
  hint?: string;
  seconds?: number;
}

/** A URL this run did not send: created by an earlier run (journal), or not started after Ctrl-C. */
export interface SkippedCase {
  kind: 'skipped';
  url: string;
  reason: string;
}

export type CiCase = ReportCase | ErrorCase | SkippedCase;

export interface GateOutcome {
  active: boolean;
  failed: boolean;
  /** The gate's verdict line, without the `rsapi: ` prefix. */
  verdict: string;
}

export interface CiRun {
  /** `reports create`, `reports list`, `reports show`. */
  command: string;
  startedAt: Date;
  seconds: number;
  cases: CiCase[];
  share?: ShareInfo;
  gate: GateOutcome;
  baseline?: BaselineComparison;
}

export function projectOf(record: ApiRecord): string | undefined {
  return typeof record.project === 'string' && record.project !== '' ? record.project : undefined;
}
