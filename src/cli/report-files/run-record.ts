// What a CI run processed, report by report: the one input of the JUnit file, the Markdown summary and the baseline check.
import type { ApiRecord } from '../../api/model/record.js';
import { plural } from '../../plural.js';
import { overNothing } from '../verdicts/empty.js';
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
  /** The job's name (--job, the audit's job), when it has one: the page's title names it. */
  job?: string;
  /** The service's origin (the base URL without /api/v1): reports link to their page there, `{service}/reports/{id}`. */
  service?: string;
  /** The flags that chose the reports (`--project example.com`, `--result bad`). */
  filters?: string[];
  /** The input: `--from-file urls.txt`, `--from-sitemap https://…`. */
  input?: string;
  /** The CI commit (GITHUB_SHA, CI_COMMIT_SHA), when present. */
  commit?: string;
}

/**
 * A recorded run for which `--baseline last` found no earlier run of its job (its first, or a history lost): nothing
 * was compared, and every file says so.
 */
export interface FirstRun {
  /** The job's name (--job, the audit's job), else its key as the history stores it. */
  job: string;
  /** Where the history was looked for: a SQLite file's path, or a PostgreSQL URL without its password. */
  history: string;
  /** Set when most pages of the run had a report already (refreshed or kept): a job that ran before, its history lost? */
  hadReports?: { count: number; of: number };
}

/** `first run of job weekly: nothing compared`: on stderr, in the summary, the HTML page and JUnit. */
export function firstRunLine(firstRun: FirstRun): string {
  return `first run of job ${firstRun.job}: nothing compared`;
}

/** `shard 2/3 missing`, each: what a merge of run parts without every share says in every file and on stderr. */
export function missingShareLines(shares: readonly string[] | undefined): string[] {
  return (shares ?? []).map((share) => `shard ${share} missing`);
}

/** `7 of 8 pages had a report already: ...`, when most did on a first run; undefined otherwise. */
export function lostHistoryLine(firstRun: FirstRun | undefined): string | undefined {
  const had = firstRun?.hadReports;
  if (!firstRun || !had) return undefined;
  return (
    `${had.count} of ${plural(had.of, 'page')} had a report already: if job ${firstRun.job} ran before, ` +
    `its history may have been lost (looked for in ${firstRun.history})`
  );
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
  /** `--baseline last` found no earlier run of the job. */
  firstRun?: FirstRun;
  /** Why the run had no URL to judge (`the sitemap listed no page`), and whether it failed for it (its gates over nothing). */
  empty?: EmptyInput;
  /** A merge of run parts recorded with shares missing (--allow-partial): `2/3`, each. */
  missingShares?: string[];
}

export interface EmptyInput {
  why: string;
  failed: boolean;
}

/**
 * The run's verdict when its input was empty: `the sitemap listed no page: a gate over nothing proves nothing (...)`
 * when it failed, `...: nothing judged` when it passed (--allow-empty).
 */
export function emptyVerdict({ why, failed }: EmptyInput): string {
  return failed ? overNothing(why) : `${why}: nothing judged`;
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
