// The CI flags of `reports create|show|list` (--junit, --summary, --html, --baseline, --max-drop): checked up front, fed each report, written at the end.
import { basename, dirname, join } from 'node:path';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { CI_OPTIONS } from './ci-options.js';
import type { DeclaredOptions } from '../flags/options.js';
import type { ApiRecord } from '../../api/model/record.js';
import { withoutPassedValues } from '../../api/model/checks.js';
import type { RsapiError } from '../../api/errors.js';
import { ExitCode, type ExitCodeValue, exitCodeOf, hintOf } from '../runtime/exit-codes.js';
import { UsageError } from '../runtime/errors.js';
import { reportIdentity } from '../../api/model/report-url.js';
import type { CommandContext } from '../runtime/context.js';
import {
  baselineAnnotations,
  compareWithBaseline,
  baselineReport,
  historyBaselineSpec,
  loadBaseline,
  type Baseline,
  type BaselineComparison,
  type HistoryBaselineSpec,
} from './baseline.js';
import { recordsHaveChecks } from './check-changes.js';
import { checkOutputPath } from '../runtime/write.js';
import { checkRunFiles, type RunFile } from '../runtime/run-files.js';
import type { CheckStats } from '../../output/stats/check-stats.js';
import { emptyVerdict, lostHistoryLine, type CiCase, type EmptyInput, type CiRun, type FirstRun, type RunDescription } from './run-record.js';
import { runWarning } from '../verdicts/named-failures.js';
import { inShare, shardText, type SelectedShare, type Shard } from '../bulk/shard.js';
import type { PageHistory, PageHistoryOptions } from './page-history.js';

export function addCiOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  return addStatsFileOptions(command.addOption(CI_OPTIONS.junit()))
    .option(
      '--baseline <file|last|run:ID|since:D>',
      'compare with an earlier json or ndjson output of rsapi, or a recorded run (last, run:12, since:7d), URL by URL',
    )
    .addOption(CI_OPTIONS.maxDrop())
    .addOption(CI_OPTIONS.failOnNewFailures())
    .addOption(CI_OPTIONS.requireBaseline());
}

export type CiFlags = DeclaredOptions<typeof addCiOptions<[], {}, {}>>;

/** What chose the reports, as the verbs' options name it: the HTML page's header says what ran. */
export interface RunInputs {
  /** --allow-empty (list and create): a baseline gate that compared no report passes. */
  allowEmpty?: boolean;
  project?: string;
  search?: string;
  result?: string;
  fromFile?: string;
  fromSitemap?: readonly string[];
}

/** The files of a run that has no gate or baseline (`reports stats`): --summary and --html. */
export function addStatsFileOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return addHtmlOption(command.addOption(CI_OPTIONS.summary()));
}

/** --html: one self-contained page of the run. */
export function addHtmlOption<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  return command.addOption(CI_OPTIONS.html());
}

/** The CI files and the baseline of a run, checked: what the CiReporter is built from (with its CiSetup). */
export type CiPlan = CiFlags &
  RunInputs &
  PartialFilesFlag & {
    /** `--baseline last|run:ID|since:D`, parsed (undefined: a file, or no baseline). */
    historyBaseline?: HistoryBaselineSpec;
  };

/**
 * --partial-files (`reports create`, `rsapi audit`): a run that stopped early (Ctrl-C, SIGTERM, the breaker) writes its
 * HTML page and JUnit file under their names even over an earlier run's; without it they go beside them (partialPath).
 */
export interface PartialFilesFlag {
  partialFiles?: boolean;
}

/**
 * The CI flags' part of a verb's plan: flags that need --baseline, and the paths the run will write (their folder
 * exists, they are no folder, none is an input of the run or another output: checkRunFiles over these and the verb's
 * own `files`), checked before anything is read or sent. Undefined when no CI file or baseline is asked.
 */
export function planCiFiles(flags: CiFlags & PartialFilesFlag, inputs: RunInputs, files: readonly RunFile[] = []): CiPlan | undefined {
  if (flags.maxDrop !== undefined && flags.baseline === undefined) {
    throw new UsageError('--max-drop needs --baseline FILE to compare with');
  }
  if (flags.failOnNewFailures && flags.baseline === undefined) {
    throw new UsageError('--fail-on-new-failures needs --baseline FILE to compare with');
  }
  if (flags.requireBaseline && flags.baseline === undefined) {
    throw new UsageError('--require-baseline needs --baseline last (or FILE, run:ID, since:D) to require');
  }
  const historyBaseline = flags.baseline === undefined ? undefined : historyBaselineSpec(flags.baseline);
  if (flags.junit !== undefined) checkOutputPath(flags.junit, '--junit');
  if (flags.summary !== undefined) checkOutputPath(flags.summary, '--summary');
  if (flags.html !== undefined) checkOutputPath(flags.html, '--html');
  checkRunFiles([
    { flag: '--baseline', path: flags.baseline, reads: true },
    { flag: '--junit', path: flags.junit, writes: true },
    { flag: '--summary', path: flags.summary, writes: true },
    { flag: '--html', path: flags.html, writes: true },
    ...files,
  ]);
  const { junit, summary, html, baseline, maxDrop, failOnNewFailures, requireBaseline, partialFiles } = flags;
  if ([junit, summary, html, baseline].every((value) => value === undefined)) return undefined;
  return { junit, summary, html, baseline, maxDrop, failOnNewFailures, requireBaseline, partialFiles, ...inputs, historyBaseline };
}

/** What the files say of the run's gate (verdicts/gates.ts's Gate has it): whether it judged, whether it failed, and why. */
export interface GateVerdict {
  readonly active: boolean;
  readonly failed: boolean;
  /** The verdict lines (the flags' and the assertions file's) as one, without `rsapi: `. */
  fileVerdict(): string;
}

/** What a run knows once its input and its history are read: the reporter is built from these and its plan, whole. */
export interface CiSetup {
  /** The baseline: the file (readBaselineFile) or the history's run (recording.ts's RunHistory). */
  baseline?: Baseline;
  /** `reports create --shard`: the share run, and which baseline URLs belong to it. */
  share?: SelectedShare;
  /** Bulk create: cases finish in any order; the files list them in input order. */
  inputOrder?: readonly string[];
  /** --html: the earlier runs of the history the page shows (RunHistory.pageHistory). */
  pageHistory?: (options: PageHistoryOptions) => Promise<PageHistory | undefined>;
  /** --baseline last found no earlier run of the job (RunHistory.firstRun): nothing compared, said in every file. */
  firstRun?: FirstRun;
  /** The job's name, when it has one (--job, the audit's): the HTML page's title names it. */
  job?: string;
  /** Why the run had no URL to judge (`the sitemap listed no page`): the verdict of its files. */
  empty?: string;
  /** The service's web pages, when not the configured one's (a merged run's, as its parts name it). */
  service?: string;
  /**
   * A merge of run parts with shares missing (--allow-partial): which (`2/3`), named in every file, and their pages
   * left out of the comparison (not vanished: not read).
   */
  missingShares?: readonly Shard[];
}

export class CiReporter {
  private readonly cases: CiCase[] = [];
  private readonly startedAt = new Date();
  private readonly started = performance.now();
  /** Pages of this run that had a report already (refreshed or kept): most, on a first run, hints at a lost history. */
  private hadReports = 0;
  /** Set by finish: the input was empty (setup.empty), and whether the run failed for it. */
  private empty?: EmptyInput;
  /** Why the run stopped before it tried every URL (`interrupted`), when it did: its files are partial. */
  private stopped?: string;
  /** Once finished: the comparison with the baseline, when there was one. */
  comparison?: BaselineComparison;
  /** Once finished: the files of a partial run written beside their names (the path asked -> the path written). */
  readonly besides = new Map<string, string>();

  constructor(
    private readonly command: string,
    private readonly flags: CiPlan,
    private readonly setup: CiSetup,
  ) {}

  /** The history run compared with (--baseline last, run:ID, since:D), when there was one. */
  get baselineRun(): number | undefined {
    return this.setup.baseline?.run;
  }

  /** How many reports the run read (its cases that are reports). */
  get reportCount(): number {
    return this.cases.filter((c) => c.kind === 'report').length;
  }

  /**
   * Before any request, from the verb's plan (planCiFiles): a baseline file read and checked (exit 2 if it is not one).
   * Undefined for no baseline, or one the history holds (read by openRunHistory once the run's job is known).
   */
  static async readBaselineFile(flags: CiPlan): Promise<Baseline | undefined> {
    if (flags.baseline === undefined || flags.historyBaseline) return undefined;
    const baseline = await loadBaseline(flags.baseline);
    if (flags.failOnNewFailures && !baseline.hasChecks) {
      throw new UsageError(`the baseline file ${baseline.path} holds no per-check results, so --fail-on-new-failures has nothing to compare`, {
        hint: 'write the baseline with -o json from a service that sends per-check results (phpRank), or leave out --fail-on-new-failures',
      });
    }
    return baseline;
  }

  addReport(record: ApiRecord, gateFailures: string[], seconds?: number, asked?: string): void {
    const url = typeof record.url === 'string' ? record.url : String(record.id ?? 'unknown');
    // Kept until the files are written: without what no file shows (a run of 50,000 pages holds each to the end).
    this.cases.push({ kind: 'report', url, asked, record: withoutPassedValues(record), gateFailures, seconds });
  }

  addError(url: string, error: RsapiError, seconds?: number): void {
    this.cases.push({ kind: 'error', url, message: error.message, exitCode: exitCodeOf(error), hint: hintOf(error), seconds });
  }

  /** A URL a shard could not create, as its run part says it (`history merge`): its message and exit code. */
  addFailed(url: string, message: string, exitCode: number): void {
    this.cases.push({ kind: 'error', url, message, exitCode });
  }

  addSkipped(url: string, reason: string): void {
    this.cases.push({ kind: 'skipped', url, reason });
  }

  /** The run's input was empty and a gate failed over it: why, as its files say it (`the sitemap listed no page: ...`). */
  get emptyFailure(): string | undefined {
    return this.empty?.failed ? emptyVerdict(this.empty) : undefined;
  }

  /** The run stopped before it tried every URL (Ctrl-C, SIGTERM, the breaker), and why: its files are partial. */
  stoppedEarly(why: string): void {
    this.stopped = why;
  }

  /** How many pages of the run had a report already (--existing refresh or skip), before finish. */
  pagesHadReports(count: number): void {
    this.hadReports = count;
  }

  /**
   * The first run, as the files say it: with the pages that had a report already when they are most of the run (a job
   * that ran before, whose history was lost), said on stderr too (and as a workflow warning on GitHub Actions).
   */
  private firstRun(ctx: CommandContext): FirstRun | undefined {
    const { firstRun } = this.setup;
    const of = this.reportCount;
    if (!firstRun || this.hadReports * 2 <= of) return firstRun;
    const warned = { ...firstRun, hadReports: { count: this.hadReports, of } };
    const line = lostHistoryLine(warned) as string;
    ctx.note(`rsapi: warning: ${line}`);
    if (ctx.io.env.GITHUB_ACTIONS === 'true') ctx.note(runWarning(line));
    return warned;
  }

  /** Each page's report on the service (`{service}/reports/{id}`), by its URL, where the run read one. */
  private reportPages(ctx: CommandContext): (url: string) => string | undefined {
    const service = this.setup.service ?? serviceWebBase(ctx);
    if (service === undefined) return () => undefined;
    const ids = new Map<string, string>();
    for (const c of this.cases) {
      if (c.kind !== 'report') continue;
      const id = c.record.id;
      if (typeof id === 'string' || typeof id === 'number') ids.set(reportIdentity(c.url), String(id));
    }
    return (url) => {
      const id = ids.get(reportIdentity(url));
      return id === undefined ? undefined : `${service}/reports/${encodeURIComponent(id)}`;
    };
  }

  /** The service, the filters, the input and the CI commit, for the HTML page's header. */
  private describeRun(ctx: CommandContext): RunDescription {
    const { project, search, result, fromFile, fromSitemap } = this.flags;
    const filters = [
      project === undefined ? undefined : `--project ${project}`,
      search === undefined ? undefined : `--search ${search}`,
      result === undefined ? undefined : `--result ${result}`,
    ].filter((f): f is string => f !== undefined);
    const input =
      fromFile !== undefined
        ? `--from-file ${fromFile}`
        : fromSitemap !== undefined
          ? fromSitemap.map((source) => `--from-sitemap ${source}`).join(' ')
          : undefined;
    const env = ctx.io.env;
    const commit = env.GITHUB_SHA ?? env.CI_COMMIT_SHA ?? env.BUILD_VCS_NUMBER;
    const service = this.setup.service ?? serviceWebBase(ctx);
    return { job: this.setup.job, service, filters, input, commit: commit?.trim() ? commit.trim() : undefined };
  }

  /**
   * Compares with the baseline (its verdict on stderr), writes the JUnit file and appends the summary.
   * Returns the run's exit code: `code` as the command had it, or 10 when it was 0 and the baseline failed.
   */
  async finish(ctx: CommandContext, gate: GateVerdict, code: ExitCodeValue): Promise<ExitCodeValue> {
    const { inputOrder, share, pageHistory, baseline } = this.setup;
    // A run of many pages: each phase below starts from what is live, not from the last one's garbage (heap.ts).
    const { COLLECT_BETWEEN_PHASES_AT, betweenPhases } = await import('../runtime/heap.js');
    const collect = this.cases.length >= COLLECT_BETWEEN_PHASES_AT ? betweenPhases() : async () => {};
    await collect();
    if (inputOrder) {
      // A report's case holds the URL as stored (`example.com/a` for `https://www.example.com/a`, the final URL of a
      // redirect): placed by the URL it was asked for, found as it was given, else matched by identity (a URL parsed
      // only then: a bulk create's cases hold their URLs as given).
      const given = new Map(inputOrder.map((url, index) => [url, index]));
      let byIdentity: Map<string, number> | undefined;
      const place = (c: CiCase) => {
        const url = c.kind === 'report' ? (c.asked ?? c.url) : c.url;
        const at = given.get(url);
        if (at !== undefined) return at;
        byIdentity ??= new Map(inputOrder.map((each, index) => [reportIdentity(each), index]));
        return byIdentity.get(reportIdentity(url)) ?? Infinity;
      };
      // Each case placed once, not once a comparison (an identity is a URL parsed).
      const placed = this.cases.map((c) => ({ c, at: place(c) })).sort((a, b) => a.at - b.at);
      placed.forEach(({ c }, index) => {
        this.cases[index] = c;
      });
    }
    const run: CiRun = {
      command: this.command,
      startedAt: this.startedAt,
      seconds: (performance.now() - this.started) / 1000,
      cases: this.cases,
      share,
      gate: { active: gate.active, failed: gate.failed, verdict: gate.fileVerdict() },
      ran: this.describeRun(ctx),
      firstRun: this.firstRun(ctx),
      missingShares: this.setup.missingShares?.map(shardText),
    };
    const records = this.cases.flatMap((c) => (c.kind === 'report' ? [c.record] : []));
    // A URL of this run not created (an error) or not sent (journal, Ctrl-C) is listed as such, not as vanished.
    const unjudged = new Set(this.cases.flatMap((c) => (c.kind === 'report' ? [] : [reportIdentity(c.url)])));
    const missing = this.setup.missingShares ?? [];
    const inScope = (url: string) => !unjudged.has(reportIdentity(url)) && (share?.contains(url) ?? true) && !missing.some((shard) => inShare(url, shard));
    if (pageHistory) {
      // With a baseline, the page lists the changes since it: the last run is not read again as one.
      const history = await pageHistory({ last: baseline === undefined, held: baseline }).catch((error: unknown) => {
        ctx.note(`rsapi: history: ${error instanceof Error ? error.message : String(error)}; the HTML page shows no history`);
        return undefined;
      });
      // Without --baseline, the page lists what changed since the last run; it judges nothing.
      if (history) run.history = { ...history, sinceLast: baseline || !history.last ? undefined : compareWithBaseline(history.last, records, { inScope }) };
    }
    await collect();
    if (baseline) {
      const { maxDrop, failOnNewFailures, allowEmpty } = this.flags;
      run.baseline = compareWithBaseline(baseline, records, { maxDrop, inScope, failOnNewFailures, allowEmpty });
      this.comparison = run.baseline;
      // Only the newest report of a URL is compared; older ones in a list keep their own standing.
      const byRecord = new Map(run.baseline.regressions.map((regression) => [regression.now.record, regression]));
      for (const c of this.cases) if (c.kind === 'report') c.regression = byRecord.get(c.record);
      const changes = new Map(run.baseline.checkChanges.map((change) => [change.record, change]));
      for (const c of this.cases) if (c.kind === 'report') c.checkChange = changes.get(c.record);
      // A run with no URL said why already (and its gate over nothing): the baseline adds only its vanished pages.
      const saidOverNothing = this.setup.empty !== undefined;
      for (const line of baselineReport(run.baseline).slice(saidOverNothing ? 1 : 0)) ctx.note(line);
      if (ctx.io.env.GITHUB_ACTIONS === 'true' && !saidOverNothing) for (const line of baselineAnnotations(run.baseline, this.reportPages(ctx))) ctx.note(line);
      if (!baseline.hasChecks && recordsHaveChecks(records)) {
        ctx.note(`rsapi: baseline: ${baseline.path} holds no per-check results; scores and results compared only`);
      }
      if (run.baseline.checksUnjudged) {
        ctx.note(
          run.baseline.verdict.uncheckedSide === 'earlier'
            ? `rsapi: baseline not judged: ${baseline.path} holds no per-check results, so --fail-on-new-failures cannot be judged`
            : 'rsapi: baseline not judged: the service sent no per-check results (`results`) with its reports, so --fail-on-new-failures cannot be judged',
        );
      }
    }
    await collect();
    const exitCode = code !== ExitCode.ok ? code : run.baseline?.checksUnjudged ? ExitCode.server : run.baseline?.failed ? ExitCode.gate : code;
    if (this.setup.empty !== undefined) run.empty = this.empty = { why: this.setup.empty, failed: exitCode === ExitCode.gate };
    const files = await import('../runtime/write.js');
    // The summary and the page show the same per-check counts: counted once for both.
    const { checkStatsOf } = await import('./run-checks.js');
    let checks: CheckStats | undefined;
    const checkStats = () => (checks ??= checkStatsOf(run));
    const place = await this.placeFiles(ctx, code === ExitCode.interrupted ? 'interrupted' : this.stopped);
    if (this.flags.junit !== undefined) {
      const { renderJunit } = await import('./junit.js');
      await files.writeFileAtomically(place(this.flags.junit), renderJunit(run), ctx.secrets);
    }
    if (this.flags.summary !== undefined) {
      const { renderSummary } = await import('./summary.js');
      await files.appendToFile(this.flags.summary, renderSummary(run, exitCode, checkStats()), ctx.secrets);
    }
    if (this.flags.html !== undefined) {
      // Loaded only here: the page's template, style and script cost nothing to a run without --html.
      const { renderHtml } = await import('./html/page.js');
      checkStats();
      await collect();
      await files.writeFileAtomically(place(this.flags.html), renderHtml(run, exitCode, checkStats()), ctx.secrets);
    }
    return exitCode;
  }

  /**
   * Where the run's HTML page and JUnit file go. A partial run's (`stopped` says why) go beside their names
   * (partialPath), so that an earlier complete run's stay, unless --partial-files says to write over them; stderr says
   * where. A complete run's take their names, and a partial file an earlier run left beside them goes.
   */
  private async placeFiles(ctx: CommandContext, stopped: string | undefined): Promise<(path: string) => string> {
    const paths = [this.flags.html, this.flags.junit].filter((path) => path !== undefined);
    if (stopped === undefined) {
      const { rm } = await import('node:fs/promises');
      await Promise.all(paths.map((path) => rm(partialPath(path), { force: true }).catch(() => undefined)));
      return (path) => path;
    }
    if (this.flags.partialFiles || paths.length === 0) return (path) => path;
    const beside = paths.map((path) => `${partialPath(path)} (${path} is left as it was)`).join(', ');
    ctx.note(`rsapi: the run stopped early (${stopped}): its files are partial, written to ${beside}; --partial-files writes them under their names`);
    for (const path of paths) this.besides.set(path, partialPath(path));
    return partialPath;
  }
}

/** `audit.html` -> `audit.partial.html`, `junit` -> `junit.partial`: where a partial run's file goes beside an earlier run's. */
export function partialPath(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return join(dirname(path), dot > 0 ? `${name.slice(0, dot)}.partial${name.slice(dot)}` : `${name}.partial`);
}

/** phpRank's web pages are under the base URL without /api/v1 (`https://seo.example.net/reports/12`); none when not known. */
export function serviceWebBase(ctx: CommandContext): string | undefined {
  try {
    const base = ctx.settings().baseUrl;
    if (base === undefined) return undefined;
    const url = new URL(base);
    url.username = '';
    url.password = '';
    return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api\/v\d+$/, '')}`;
  } catch {
    return undefined;
  }
}
