// What a CI run processed, report by report: the one input of the JUnit file, the Markdown summary and the baseline check.
import type { ApiRecord } from '../../api/model/record.js';
import { describeChange, type BaselineComparison, type Regression } from './baseline.js';
import { describeChecks, type CheckChange } from './check-changes.js';
import type { ShareInfo } from '../bulk/shard.js';
import type { PageHistory } from './page-history.js';

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

/** What ran, for the HTML page's header: where, with which filters, on what input, at which commit. */
export interface RunDescription {
  /** The service's origin (the base URL without /api/v1): reports link to their page there, `{service}/reports/{id}`. */
  service?: string;
  /** The flags that chose the reports (`--project example.com`, `--result bad`). */
  filters?: string[];
  /** The input: `--from-file urls.txt`, `--from-sitemap https://…`. */
  input?: string;
  /** The CI commit (GITHUB_SHA, CI_COMMIT_SHA), when present. */
  commit?: string;
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
  ran?: RunDescription;
  /**
   * --html with a history: the earlier runs the page shows, and (without --baseline) this run compared with the last
   * of them, listed on the page and never a gate.
   */
  history?: PageHistory & { sinceLast?: BaselineComparison };
}

export function projectOf(record: ApiRecord): string | undefined {
  return typeof record.project === 'string' && record.project !== '' ? record.project : undefined;
}

/** Why a report fails the run: the gate's and the assertions' reasons, and the baseline's when a flag makes it a gate. */
export function caseFailures(c: ReportCase, run: CiRun): string[] {
  const failures = [...c.gateFailures];
  if (c.regression && run.baseline?.maxDrop !== undefined) failures.push(`regressed: ${describeChange(c.regression)} (--max-drop ${run.baseline.maxDrop})`);
  if (c.checkChange && c.checkChange.newFailures.length > 0 && run.baseline?.failOnNewFailures) {
    failures.push(`new failures since the baseline: ${describeChecks(c.checkChange.newFailures)} (--fail-on-new-failures)`);
  }
  if (run.baseline?.failOnNewFailures && run.baseline.lostChecks.includes(c.url)) {
    failures.push('no per-check results, where the baseline had them (--fail-on-new-failures)');
  }
  return failures;
}
