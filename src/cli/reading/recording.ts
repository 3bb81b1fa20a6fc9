// --record and --history on the commands that read reports: their options and plan, and the history's part in one run
// (RunHistory): its recorder, baseline, page history and CI files. Where the history lives is history-place.ts's.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { reportIdentity } from '../../api/model/report-url.js';
import { plural } from '../../plural.js';
import { historyMissing, type HistoryLocation } from '../../history/location.js';
import type { KeptRun, RunRecorder } from '../../history/recorder.js';
import type { CommandContext } from '../runtime/context.js';
import { jobName, openExistingHistory, recordingAsked, resolveHistoryLocation, selectionKey, serviceOrigin, type HistoryFlags } from './history-place.js';
import { HistoryError, HistoryNotFoundError } from '../../history/errors.js';
import type { PipelineRole, RunInfo, RunQuery, ShareEnd } from '../../history/types.js';
import type { Baseline, HistoryBaselineSpec } from '../report-files/baseline.js';
import { historyOption, sinceOf } from '../flags/history-values.js';
import type { PageHistory, PageHistoryOptions } from '../report-files/page-history.js';
import { firstRunLine, type FirstRun } from '../report-files/run-record.js';
import { runWarning } from '../verdicts/named-failures.js';
import { CiReporter, type CiPlan, type CiSetup } from '../report-files/reporter.js';
import { ExitCode, exitCodeOf, type ExitCodeValue } from '../runtime/exit-codes.js';

export function addHistoryOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return command
    .option('--record', 'keep a snapshot of every report read in the history (also RSAPI_RECORD=1, `config set record true`)')
    .addOption(historyOption())
    .option('--job <name>', 'the job a recorded run belongs to, whose last run --baseline last compares with (env RSAPI_JOB; default: the input or filters)');
}

/**
 * The history flags' part of a verb's plan, resolved once and before any request (a sitemap fetched, stdin read, a
 * password asked), under --dry-run too: whether the run records (--record, RSAPI_RECORD, the profile's `record`) and
 * its job (--job, RSAPI_JOB); a bad RSAPI_RECORD or job name is a usage error here, not after the run's work.
 */
export function planHistory(ctx: CommandContext, flags: HistoryFlags): HistoryFlags {
  const job = jobName(ctx, flags);
  const record = recordingAsked(ctx, flags) ? true : undefined;
  return { record, history: flags.history, job };
}

/** What a recorded run is: its command, its job (the selection key's parts), and a create's share. */
export interface RunSpec {
  command: string;
  selection: Record<string, unknown>;
  /** `2/3` for a share recorded as a run of its own (a part of the job, unlike a merged run's shares). */
  shard?: string;
  /** The shares `history merge` joined into this run, of how many (`3/3`; `2/3` with --allow-partial): kept as `merged 3/3`. */
  merged?: string;
  /** The service the run read, when it is not the configured one's: a merged run's, as its parts name it. */
  origin?: string;
  /** A share recording into its pipeline's one run, or the merge closing it (a PostgreSQL history). */
  pipeline?: PipelineRole;
}

/**
 * The run as recorded: a named job (--job, RSAPI_JOB) replaces the command's own selection, so a job keeps its history
 * whatever its input becomes; a create's share stays part of it (each share has its own baseline).
 */
export function jobOf(ctx: CommandContext, flags: HistoryFlags, run: RunSpec): RunSpec {
  const name = jobName(ctx, flags);
  return name === undefined ? run : { ...run, selection: { job: name, shard: run.shard } };
}

/** What a run asks of the history besides its recording: the baseline to read, and the earlier runs its page shows. */
export interface HistoryWants {
  /**
   * --baseline last|run:ID|since:D (a run with no per-check results is judged not judged on checks, as history diff
   * judges it); `required`: --require-baseline, so a job with no earlier run is exit 4 rather than a first run.
   */
  baseline?: { spec: HistoryBaselineSpec; required?: boolean };
  /** --html: the page shows the job's earlier runs. */
  page?: boolean;
}

/**
 * The history's part in one run, made before its first request: the baseline read from it, the earlier runs its page
 * shows, and the recorder writing this run (when recording is asked). The run hands the recorder what it reads, and
 * its end is written by `finishing`, whatever happens. A history that cannot be used is said on one line and costs the
 * run nothing but its exit code (11).
 */
export class RunHistory {
  constructor(
    readonly recorder: RunRecorder | undefined,
    /** The run compared with (--baseline last, run:ID, since:D); undefined when none was asked or found. */
    readonly baseline: Baseline | undefined,
    /** --html: the job's earlier runs, read when the page is written; none once this run failed to record. */
    readonly pageHistory: ((options: PageHistoryOptions) => Promise<PageHistory | undefined>) | undefined,
    /**
     * Why the baseline could not be read from the history (`the history ... cannot be written: the disk is full`), when
     * it could not: the run compared nothing, and ends 11 if it ends well otherwise.
     */
    readonly baselineFailure: string | undefined,
    private readonly signal: AbortSignal,
    /** --baseline last found no earlier run of the job: this run starts its history, and compares nothing. */
    readonly firstRun?: FirstRun,
  ) {}

  /** The run kept incomplete when the history failed after its row was written, with the pages it kept. */
  get kept(): KeptRun | undefined {
    return this.recorder?.kept;
  }

  /** The recorded run's id, once its end is written; undefined when not recorded, or when the history failed. */
  get runId(): number | undefined {
    return this.recorder?.failure ? undefined : this.recorder?.id;
  }

  /**
   * Runs `work` and writes the end of this run: its exit code (11 when the history failed and the work went well), or,
   * when the work throws, that error's code and the run marked incomplete.
   */
  async finishing(work: () => Promise<ExitCodeValue>, options: { incomplete?: boolean; share?: () => ShareEnd } = {}): Promise<ExitCodeValue> {
    let code: ExitCodeValue;
    try {
      code = await work();
    } catch (error) {
      await this.end(exitCodeOf(error), false);
      throw error;
    }
    // A merge with shares missing (--allow-partial) is recorded incomplete: never a baseline. A pipeline's share keeps
    // its URLs with its end (none once interrupted: the share is run again).
    return this.end(code, options.incomplete !== true, this.signal.aborted ? undefined : options.share?.());
  }

  private async end(code: ExitCodeValue, complete: boolean, share?: ShareEnd): Promise<ExitCodeValue> {
    const recorder = this.recorder;
    const failure = recorder ? await recorder.finish(code, complete && !this.signal.aborted, new Date(), share) : undefined;
    // Ctrl-C ended the wait for the run's end to be written: the run was cut short, if only in the history.
    if (recorder?.interrupted && code === ExitCode.ok) return ExitCode.interrupted;
    return (failure || this.baselineFailure !== undefined) && code === ExitCode.ok ? ExitCode.history : code;
  }
}

/**
 * The history's part in this run: the baseline read (the last run before this one, so before this one is recorded),
 * the page's history, and the run's row written now when recording is asked. A baseline that cannot be read costs the
 * run its baseline, not its output: said on one line, and the run ends 11 (unless it fails otherwise).
 */
export async function openRunHistory(ctx: CommandContext, flags: HistoryFlags, asked: RunSpec, wants: HistoryWants = {}): Promise<RunHistory> {
  const run = jobOf(ctx, flags, asked);
  let baseline: Baseline | undefined;
  let firstRun: FirstRun | undefined;
  let baselineFailure: string | undefined;
  if (wants.baseline) {
    const { spec, required } = wants.baseline;
    try {
      const found = await historyBaseline(ctx, flags, spec, run, { required: required === true, scores: wants.page === true });
      if ('byUrl' in found) baseline = found;
      else firstRun = found;
    } catch (error) {
      if (!(error instanceof HistoryError)) throw error;
      ctx.note(`rsapi: history: ${error.message}; --baseline ${baselineName(spec)} is not compared${error.hint ? ` (${error.hint})` : ''}`);
      baselineFailure = error.message;
    }
  }
  const recorder = recordingAsked(ctx, flags) ? await startRecorder(ctx, flags, run) : undefined;
  // A history this run failed to record into was said once already: the page does without it.
  const page = wants.page
    ? (options: PageHistoryOptions) => (recorder?.failure ? Promise.resolve(undefined) : pageHistory(ctx, flags, run, options))
    : undefined;
  return new RunHistory(recorder, baseline, page, baselineFailure, ctx.signal, firstRun);
}

/** Where a run is recorded, and as what: part of a verb's plan. */
export interface RecordPlan {
  history: HistoryFlags;
  run: RunSpec;
}

/**
 * The history's part in this run and its CI reporter, built whole once both are known: the history read (its baseline,
 * its page) and the run's row written, then the reporter made from its plan, what the run knows (`setup`: a baseline
 * file read earlier, a share, the input's order) and what the history gave.
 */
export async function openRun(
  ctx: CommandContext,
  record: RecordPlan,
  ci: CiPlan | undefined,
  setup: CiSetup = {},
): Promise<{ history: RunHistory; ci: CiReporter | undefined }> {
  const history = await openRunHistory(ctx, record.history, record.run, {
    baseline: ci?.historyBaseline && { spec: ci.historyBaseline, required: ci.requireBaseline === true },
    page: ci?.html !== undefined,
  });
  const baseline = setup.baseline ?? history.baseline;
  const job = jobName(ctx, record.history);
  return {
    history,
    ci: ci && new CiReporter(record.run.command, ci, { ...setup, baseline, pageHistory: history.pageHistory, firstRun: history.firstRun, job }),
  };
}

/** The run's row, written now; each report the run reads is added to it through the recorder. */
async function startRecorder(ctx: CommandContext, flags: HistoryFlags, run: RunSpec): Promise<RunRecorder> {
  const [{ RunRecorder, writeTimeoutOf }, { openHistory }, { ciContextOf }] = await Promise.all([
    import('../../history/recorder.js'),
    import('../../history/open.js'),
    import('../../history/ci-context.js'),
  ]);
  const location = () => resolveHistoryLocation(ctx, flags);
  const origin = run.origin ?? serviceOrigin(ctx);
  const say = (error: HistoryError, kept: KeptRun | undefined) => {
    const recorded = kept ? `run ${kept.run} is recorded incomplete: ${plural(kept.pages, 'page')} kept` : 'this run is not recorded';
    ctx.note(`rsapi: history: ${error.message}; ${recorded}${error.hint ? ` (${error.hint})` : ''}`);
  };
  return RunRecorder.start(
    () => openHistory(location(), { notice: (line) => ctx.note(line) }),
    {
      started: new Date().toISOString(),
      command: run.command,
      selection: selectionKey(run.selection),
      origin,
      shard: run.merged === undefined ? run.shard : `merged ${run.merged}`,
      ci: ciContextOf(ctx.io.env),
      pipeline: run.pipeline,
    },
    say,
    { signal: ctx.signal, timeoutMs: writeTimeoutOf(ctx.io.env) },
  );
}

/** What a create's job is made of when --job does not name it. */
export interface CreateSource {
  /** The URL arguments, as given. */
  urls: readonly string[];
  fromFile?: string;
  fromSitemap?: readonly string[];
  include?: string[];
  exclude?: string[];
  maxUrls?: number;
  /** --shard as `shardText` writes it (`2/3`). */
  shard?: string;
}

/**
 * A create's job when --job does not name it: its source, so that a page added to or removed from the source keeps
 * the job's history. A sitemap or a URL file by the name given (not its content), with the selection flags and the
 * share. URLs given only as arguments or on stdin are their set (`chosen`, after the selection flags): the key runs
 * recorded before jobs had names carry, so they keep serving as baselines.
 */
export function createJob(source: CreateSource, chosen: readonly string[]): Record<string, unknown> {
  const { shard } = source;
  const file = source.fromFile === '-' ? undefined : source.fromFile;
  if (source.fromSitemap === undefined && file === undefined) return { ...urlSet(chosen), shard };
  const { include, exclude, maxUrls } = source;
  const sitemaps = source.fromSitemap;
  return {
    sitemap: sitemaps?.length === 1 ? sitemaps[0] : sitemaps,
    file,
    arguments: source.urls.length > 0 ? urlSet(source.urls).input : undefined,
    include,
    exclude,
    maxUrls,
    shard,
  };
}

/** A set of URLs as one short hash of their identities, and its size. */
function urlSet(urls: readonly string[]): { input: string; urls: number } {
  const identities = [...new Set(urls.map(reportIdentity))].sort();
  return {
    // node:crypto on first use: every list and show loads this module, and importing it costs their start-up (~6 ms).
    input: process.getBuiltinModule('node:crypto').createHash('sha256').update(identities.join('\n')).digest('hex').slice(0, 16),
    urls: identities.length,
  };
}

/** The runs a run is compared with (history/diff.ts's sameJob): its job's, on this service. */
async function sameRuns(ctx: CommandContext, run: RunSpec): Promise<RunQuery> {
  const { sameJob } = await import('../../history/diff.js');
  return sameJob({ command: run.command, selection: selectionKey(run.selection), origin: run.origin ?? serviceOrigin(ctx) });
}

/**
 * The earlier runs of this command and selection that --html shows, read when the page is written (this run, not yet
 * complete, is not among them). No history (a SQLite file not there): none, and no file made.
 */
async function pageHistory(ctx: CommandContext, flags: HistoryFlags, run: RunSpec, options: PageHistoryOptions): Promise<PageHistory | undefined> {
  const location = resolveHistoryLocation(ctx, flags);
  if (historyMissing(location)) return undefined;
  const [{ openHistory }, { readPageHistory }] = await Promise.all([import('../../history/open.js'), import('../report-files/page-history.js')]);
  const store = await openHistory(location, { readOnly: true, notice: (line) => ctx.note(line) });
  try {
    return await readPageHistory(store, await sameRuns(ctx, run), options);
  } finally {
    await store.close();
  }
}

/**
 * --baseline last|run:ID|since:D: the reports of a recorded run, as a baseline. `last` is the newest such run of the
 * job (sameRuns), in the order the store recorded them; `since:D` the oldest within D. None: exit 4, except for `last`
 * on a run that records without --require-baseline (`required`): the job's first run starts its history (FirstRun:
 * nothing to compare, no baseline gate, and every file says so). `scores`: the run's page scores kept for --html's
 * history (readRunBaseline).
 */
async function historyBaseline(
  ctx: CommandContext,
  flags: HistoryFlags,
  spec: HistoryBaselineSpec,
  run: RunSpec,
  { required, scores }: { required: boolean; scores: boolean },
): Promise<Baseline | FirstRun> {
  const { readRunBaseline, readEarlierReadings } = await import('../report-files/page-history.js');
  const firstRun = spec.kind === 'last' && recordingAsked(ctx, flags);
  const location = resolveHistoryLocation(ctx, flags);
  if (historyMissing(location) && spec.kind !== 'run') {
    if (firstRun && required) throw noEarlierRun(run, `no history at ${location.shown}`);
    if (firstRun) return startsHistory(ctx, run, location);
    throw new HistoryNotFoundError(`--baseline ${baselineName(spec)}: no history at ${location.shown} yet, so no earlier run of this job`, {
      hint: START_HINT,
    });
  }
  const store = await openExistingHistory(ctx, flags);
  try {
    const same = await sameRuns(ctx, run);
    let found: RunInfo | undefined;
    if (spec.kind === 'run') found = await store.run(spec.id);
    else if (spec.kind === 'last') found = (await store.runs({ ...same, limit: 1 }))[0];
    else found = (await store.runs({ ...same, since: sinceOf(spec.ms) })).at(-1);
    if (!found && firstRun && required) throw noEarlierRun(run, `none in ${location.shown} on ${same.origin}`);
    if (!found && firstRun) return startsHistory(ctx, run, location);
    if (!found) {
      const what = spec.kind === 'run' ? `no run ${spec.id} in the history` : `no earlier run of this job (${describeJob(run)}) on ${same.origin}`;
      throw new HistoryNotFoundError(`--baseline ${baselineName(spec)}: ${what}`, {
        hint:
          spec.kind === 'run'
            ? '`rsapi history runs` lists the runs'
            : "run the same command with --record: its first run starts the job's history, and the next one compares with it",
      });
    }
    const baseline = await readRunBaseline(store, found.id, { scores });
    // The pages the run found could not audit are compared with their last reading before it (not for run:ID: that run alone).
    if (spec.kind !== 'run') baseline.earlier = await readEarlierReadings(store, same, found, baseline);
    return baseline;
  } finally {
    await store.close();
  }
}

const START_HINT = "run the same command with --record: its first run starts the job's history, and the next one compares with it";

/**
 * The first run of a job that records: said on stderr (and as a workflow warning on GitHub Actions), with where the
 * history was looked for, and compared with nothing.
 */
function startsHistory(ctx: CommandContext, run: RunSpec, location: HistoryLocation): FirstRun {
  const firstRun: FirstRun = { job: jobText(run), history: location.shown };
  const line = `${firstRunLine(firstRun)}; this run starts its history in ${location.shown}`;
  ctx.note(`rsapi: ${line}`);
  if (ctx.io.env.GITHUB_ACTIONS === 'true') ctx.note(runWarning(line));
  return firstRun;
}

/** --require-baseline and no earlier run of the job: exit 4, naming the job and where its history was looked for. */
function noEarlierRun(run: RunSpec, where: string): HistoryNotFoundError {
  return new HistoryNotFoundError(`no earlier run of job ${jobText(run)} to compare with: ${where} (--require-baseline)`, {
    hint:
      'if the job ran before, its history was lost: restore it, or point --history (RSAPI_HISTORY) at it; ' +
      'for its very first run, run once without --require-baseline (rsapi audit: --no-require-baseline)',
  });
}

/** The job as a person names it: `weekly`, or the selection key as stored (`reports create` {"sitemap":"..."}). */
function jobText(run: RunSpec): string {
  const name = run.selection.job;
  return typeof name === 'string' ? name : `\`${run.command}\` ${selectionKey(run.selection)}`;
}

/** `--job weekly`, or the selection key as stored (`{"sitemap":"https://example.com/"}`). */
function describeJob(run: RunSpec): string {
  const name = run.selection.job;
  return typeof name === 'string' ? `--job ${name}` : `\`${run.command}\` ${selectionKey(run.selection)}`;
}

/** `last`, `run:12`, `since:7d`: the --baseline value as given. */
function baselineName(spec: HistoryBaselineSpec): string {
  return spec.kind === 'run' ? `run:${spec.id}` : spec.kind === 'last' ? 'last' : `since:${spec.text}`;
}
