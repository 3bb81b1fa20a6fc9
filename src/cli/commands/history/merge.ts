// `rsapi history merge PART...`: the run parts of one pipeline's shards (`--shard I/N --part FILE`) joined into ONE run
// of the job's history, then judged as any recorded run (--baseline last, the gates, --assert) and written out
// (--html, --junit, --summary, --codequality, the output formats) over every page. Parts of another pipeline, job,
// service or input, or files that are no whole part, are refused (exit 2); a missing share is exit 12.
import { plural } from '../../../plural.js';
import type { ApiRecord } from '../../../api/model/record.js';
import { IncompleteRunError } from '../../../history/errors.js';
import type { Part, PartEntry, PartProblem } from '../../../history/parts/part.js';
import { shareOfText } from '../../../history/parts/part.js';
import { createListWriter } from '../../../output/index.js';
import type { Shard } from '../../bulk/shard.js';
import { addGateOptions } from '../../flags/verb-options.js';
import { openRun } from '../../reading/recording.js';
import { jobName, openExistingHistory, resolveHistoryLocation } from '../../reading/history-place.js';
import { HistoryNotFoundError } from '../../../history/errors.js';
import type { PipelineRole, StoredPipeline } from '../../../history/types.js';
import { PIPELINE_NEEDS_POSTGRES } from '../reports/create/part.js';
import type { BaselineComparison } from '../../report-files/baseline.js';
import { addCiOptions, planCiFiles, type CiPlan } from '../../report-files/reporter.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { ExitCode, type ExitCodeValue } from '../../runtime/exit-codes.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import type { RunFile } from '../../runtime/run-files.js';
import type { GateSetup } from '../../verdicts/gates.js';
import { addVerdictOptions, checkVerdictFlags, verdictFiles } from '../../verdicts/options.js';
import { addHistoryLocationOption } from './shared.js';

export function declareMerge(history: ParentCommand) {
  const command = history
    .command('merge')
    .description("Join the run parts of one pipeline's shards (--part) into one recorded run, and judge it as any run")
    .argument('[parts...]', 'the run parts written by `--shard I/N --part FILE`')
    .option(
      '--pipeline <key>',
      'no parts: close the run that the shards of this pipeline recorded into (`--record --pipeline KEY`, a PostgreSQL history; env RSAPI_PIPELINE)',
    )
    .option('--allow-partial', 'with shares missing, record the run incomplete (never a baseline) and judge the pages there, rather than exit 12');
  return addHistoryLocationOption(addVerdictOptions(addCiOptions(addGateOptions(command))));
}

export type HistoryMergeOptions = OptionsOf<ReturnType<typeof declareMerge>> & { parts: string[] };

export function registerMerge(history: ParentCommand, invocation: Invocation): void {
  const command = declareMerge(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports create --from-sitemap https://example.com/ --existing refresh --shard 2/3 --part part-2.gz --pipeline weekly-12
  $ rsapi history merge part-*.gz --fail-on-new-failures --html site.html --summary "$GITHUB_STEP_SUMMARY"
  $ rsapi history merge parts/*.gz --history postgres://ci@db.example.com/rsapi --junit rsapi.xml
  $ rsapi reports create --from-sitemap https://example.com/ --shard 2/3 --record --pipeline weekly-12 --history postgres://ci@db.example.com/rsapi
  $ rsapi history merge --pipeline weekly-12 --history postgres://ci@db.example.com/rsapi --fail-on-new-failures

Compares with the job's last run (--baseline last) unless told otherwise. A share missing is exit 12, each named
("shard 2/3 missing"), and nothing is recorded; --allow-partial records what is there as an incomplete run. A share
given twice: the part written later stands. Parts of other pipelines, jobs, services or inputs: exit 2.
On a PostgreSQL history, the shards may record into the pipeline's one run instead (--record --pipeline KEY), and
\`history merge --pipeline KEY\` closes that run: the same checks, the same run, the same verdict.`,
  );
  handle(invocation, command, {
    plan: (ctx, opts, [parts]) => planHistoryMerge(ctx, { ...opts, parts }),
    run: async (ctx, plan) => (await runHistoryMerge(ctx, plan)).code,
  });
}

/** What `history merge` will do: which files it joins, where it records, what judges the run and what it writes. */
export interface HistoryMergePlan {
  parts: string[];
  /** --pipeline KEY (no parts): the pipeline whose one run, recorded into by its shards, the merge closes. */
  pipeline?: string;
  allowPartial: boolean;
  history: { history?: string };
  gate: GateSetup;
  /** The CI files and the baseline (`last` unless --baseline says otherwise). */
  ci: CiPlan;
  /** Whether the run judges anything beyond the history's baseline: over no page, it fails (unless --allow-empty). */
  judged: boolean;
  /** `rsapi audit --merge`: the parts must be of this command and job. */
  expect?: { command: string; job: string };
}

/** Every check of the merge that needs no file read: its flags, the paths it writes, the assertions file. */
export function planHistoryMerge(ctx: CommandContext, opts: HistoryMergeOptions): HistoryMergePlan {
  ctx.checkOutputFlags();
  const files: RunFile[] = opts.parts.map((path) => ({ flag: 'a part', path, reads: true }));
  const { allowEmpty, failOn, minScore, failOnCheck, failOnImportance, codequality } = opts;
  const ci = planCiFiles({ ...opts, baseline: opts.baseline ?? 'last' }, { allowEmpty }, [...files, ...verdictFiles(opts, ctx.io.env)]) as CiPlan;
  const { assertions } = checkVerdictFlags(ctx, opts);
  const judged = [failOn, minScore, failOnCheck, failOnImportance, opts.maxDrop, opts.failOnNewFailures, assertions].some((value) => value !== undefined);
  return {
    parts: opts.parts,
    pipeline: planPipelineMerge(ctx, opts),
    allowPartial: opts.allowPartial === true,
    history: { history: opts.history },
    gate: { failOn, minScore, failOnCheck, failOnImportance, assertions, allowEmpty, codequality, selection: { what: "the merged run's pages" } },
    ci,
    judged,
  };
}

/**
 * --pipeline KEY (or RSAPI_PIPELINE) and no parts: the pipeline whose one run the merge closes, which only a PostgreSQL
 * history keeps (exit 2 otherwise); parts and --pipeline both, or neither: exit 2.
 */
function planPipelineMerge(ctx: CommandContext, opts: HistoryMergeOptions): string | undefined {
  if (opts.parts.length > 0) {
    if (opts.pipeline !== undefined) {
      throw new UsageError('give the parts to merge, or --pipeline KEY to close the run its shards recorded into, not both');
    }
    return undefined;
  }
  const pipeline = opts.pipeline ?? (ctx.io.env.RSAPI_PIPELINE?.trim() || undefined);
  if (pipeline === undefined) {
    throw new UsageError('nothing to merge: give the run parts (`--shard I/N --part FILE`), or --pipeline KEY', {
      hint: 'rsapi history merge part-*.gz; on a PostgreSQL history whose shards recorded with --record --pipeline KEY: rsapi history merge --pipeline KEY',
    });
  }
  if (resolveHistoryLocation(ctx, { history: opts.history }).kind !== 'postgres') {
    throw new UsageError(PIPELINE_NEEDS_POSTGRES, { hint: 'merge the run parts the shards wrote: rsapi history merge PART...' });
  }
  return pipeline;
}

/** What the merge did: its exit code, the pages it joined, the run recorded and what it was compared with. */
export interface MergeResult {
  code: ExitCodeValue;
  /** Every URL of the shares joined, in input order, with its outcome. */
  entries: PartEntry[];
  /** Pages read (a report in the parts). */
  reports: number;
  run: number | undefined;
  baseline: number | undefined;
  comparison: BaselineComparison | undefined;
  /** The shares missing (--allow-partial), as `2/3`. */
  missing: string[];
  /** The job's name, when it has one. */
  job: string | undefined;
}

/** Reads and checks every part, joins them, records the run and judges it. */
export async function runHistoryMerge(ctx: CommandContext, plan: HistoryMergePlan): Promise<MergeResult> {
  const { parts, close } = plan.pipeline === undefined ? { parts: await readParts(ctx, plan.parts), close: undefined } : await readPipeline(ctx, plan);
  const first = parts[0] as Part;
  refuseStrangers(ctx, parts, plan.expect);
  const { kept, count } = keepLatest(ctx, parts);
  const missing = missingShares(kept, count);
  for (const shard of missing)
    ctx.note(`rsapi: shard ${shard.index}/${count} missing${plan.allowPartial ? ': the run is recorded incomplete (--allow-partial)' : ''}`);
  if (missing.length > 0 && !plan.allowPartial) {
    throw new IncompleteRunError(
      `the run is incomplete: ${missing.length} of ${plural(count, 'share')} missing (pipeline ${first.header.pipeline}); nothing recorded`,
      { hint: 'run the missing shards again and merge every part, or give --allow-partial to record what is there as an incomplete run' },
    );
  }
  const entries = kept.flatMap((part) => part.entries).sort((a, b) => a.at - b.at);
  return recordAndJudge(ctx, plan, { header: first.header, entries, shares: kept.length, count, missing, codes: kept.map((part) => part.end.code), close });
}

/**
 * --pipeline KEY: the shares its shards recorded into the history, each read as the part it would have written (a share
 * that failed, or never ended, is not there: missing), and the run to close. A pipeline the history holds no run of
 * is exit 4; one merged already, exit 2.
 */
async function readPipeline(ctx: CommandContext, plan: HistoryMergePlan): Promise<{ parts: Part[]; close: PipelineRole | undefined }> {
  const key = plan.pipeline as string;
  const store = await openExistingHistory(ctx, plan.history);
  let runs: StoredPipeline[];
  try {
    runs = await store.pipelineRuns(key);
  } finally {
    await store.close();
  }
  if (runs.length === 0) {
    throw new HistoryNotFoundError(`no shard of pipeline ${key} recorded into ${store.where}`, {
      hint: 'record the shards with --record --pipeline KEY --shard I/N into this history first, or merge the run parts they wrote',
    });
  }
  const closed = runs.find((run) => run.closed);
  if (closed !== undefined) {
    throw new UsageError(`pipeline ${key} was merged already, into run ${closed.run}`, { hint: `\`rsapi history show ${closed.run}\` shows it` });
  }
  const { partOfShare } = await import('../../../history/parts/part.js');
  const parts = runs.flatMap((run) => run.started.filter((share) => share.state === 'done').map((share) => partOfShare(run, share)));
  const first = runs[0] as StoredPipeline;
  if (parts.length === 0) {
    for (let index = 1; index <= first.shares; index++) ctx.note(`rsapi: shard ${index}/${first.shares} missing`);
    throw new IncompleteRunError(`the run is incomplete: no share of ${plural(first.shares, 'share')} recorded (pipeline ${key}); nothing recorded`, {
      hint: "run the shards again: each records into the pipeline's run when it ends",
    });
  }
  return { parts, close: { role: 'close', run: first.run, pipeline: first.id } };
}

/** Every file read as a part; a file that is none (cut short, a newer format, another file) is named, and nothing recorded. */
async function readParts(ctx: CommandContext, paths: readonly string[]): Promise<Part[]> {
  const { readPart } = await import('../../../history/parts/part.js');
  const read = await Promise.all([...new Set(paths)].map((path) => readPart(path)));
  const refused = read.filter((part): part is PartProblem => 'problem' in part);
  for (const { path, problem } of refused) ctx.note(`rsapi: ${path}: ${problem}`);
  if (refused.length > 0) {
    throw new UsageError(`${plural(refused.length, 'file')} of ${read.length} cannot be merged (named above); nothing recorded`, {
      hint: 'merge the parts that `--shard I/N --part FILE` wrote whole, with this version of rsapi or an older one',
    });
  }
  return read as Part[];
}

/**
 * Parts of one run only: the same pipeline, command, job, service, input and number of shares as the first (the
 * audit's command and job too, for `rsapi audit --merge`); each other part named with what differs.
 */
function refuseStrangers(ctx: CommandContext, parts: readonly Part[], expect: HistoryMergePlan['expect']): void {
  const first = parts[0] as Part;
  const facts = (part: Part): [string, string][] => [
    ['pipeline', part.header.pipeline],
    ['command', part.header.command],
    ['job', part.header.job],
    ['service', part.header.origin],
    ['input', `${part.header.input.digest.slice(0, 12)} (${plural(part.header.input.urls, 'URL')})`],
    ['shares', String(shareOfText(part.header.shard)?.count)],
  ];
  const lines: string[] = [];
  if (expect && (first.header.command !== expect.command || first.header.job !== expect.job)) {
    lines.push(`${first.path}: of \`${first.header.command}\` job ${first.header.job}, not this audit's job ${expect.job}`);
  }
  const reference = facts(first);
  for (const part of parts.slice(1)) {
    const differs = facts(part).flatMap(([name, value], index) =>
      value === reference[index]?.[1] ? [] : [`${name} ${value}, where ${first.path} has ${reference[index]?.[1]}`],
    );
    if (differs.length > 0) lines.push(`${part.path}: ${differs.join('; ')}`);
  }
  if (lines.length === 0) return;
  for (const line of lines) ctx.note(`rsapi: ${line}`);
  throw new UsageError(`the parts are not of one run (named above); nothing recorded`, {
    hint: 'merge the parts of one pipeline, of the same job, service and input (the --pipeline, RSAPI_PIPELINE or CI run they were written under)',
  });
}

/** Of a share given twice, the part written later stands; the other is said dropped. */
function keepLatest(ctx: CommandContext, parts: readonly Part[]): { kept: Part[]; count: number } {
  const byIndex = new Map<number, Part>();
  const count = shareOfText((parts[0] as Part).header.shard)?.count ?? 1;
  for (const part of parts) {
    const index = shareOfText(part.header.shard)?.index ?? 1;
    const other = byIndex.get(index);
    if (other === undefined) {
      byIndex.set(index, part);
      continue;
    }
    const [earlier, later] = other.header.written <= part.header.written ? [other, part] : [part, other];
    ctx.note(
      `rsapi: shard ${index}/${count} given twice: dropped ${earlier.path} (written ${earlier.header.written}), ` +
        `kept ${later.path} (written ${later.header.written})`,
    );
    byIndex.set(index, later);
  }
  return { kept: [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, part]) => part), count };
}

function missingShares(kept: readonly Part[], count: number): Shard[] {
  const present = new Set(kept.map((part) => shareOfText(part.header.shard)?.index));
  return Array.from({ length: count }, (_, i) => ({ index: i + 1, count })).filter((shard) => !present.has(shard.index));
}

/** What the parts joined give: the run's facts (the first part's header), its URLs in input order, its shares. */
interface Joined {
  header: Part['header'];
  entries: PartEntry[];
  shares: number;
  count: number;
  missing: Shard[];
  /** Each share's own exit code. */
  codes: number[];
  /** --pipeline: the pipeline's run the merge closes, rather than a run of its own. */
  close: PipelineRole | undefined;
}

/**
 * The joined run recorded as one run of its job (its pages in input order), judged by the gates and the baseline, its
 * files written and its pages printed. With shares missing, recorded incomplete.
 */
async function recordAndJudge(ctx: CommandContext, plan: HistoryMergePlan, joined: Joined): Promise<MergeResult> {
  const { header, entries, missing } = joined;
  const selection = JSON.parse(header.job) as Record<string, unknown>;
  const named = typeof selection.job === 'string' ? selection.job : undefined;
  const fromEnv = jobName(ctx, {});
  if (fromEnv !== undefined && fromEnv !== named) {
    throw new UsageError(`RSAPI_JOB is ${fromEnv}, but the parts are of ${named === undefined ? `the job ${header.job}` : `job ${named}`}`, {
      hint: 'unset RSAPI_JOB for the merge, or merge the parts of that job',
    });
  }
  const run = { command: header.command, selection, origin: header.origin, merged: `${joined.shares}/${joined.count}`, pipeline: joined.close };
  const history = { record: true as const, history: plan.history.history, job: named };
  const reports = entries.filter((entry) => entry.report !== undefined).length;
  const { history: runHistory, ci } = await openRun(ctx, { history, run }, plan.ci, {
    inputOrder: entries.map((entry) => entry.url),
    service: header.service,
    missingShares: missing,
    empty: entries.length === 0 ? 'the parts hold no URL' : undefined,
  });
  const code = await runHistory.finishing(
    async () => {
      const [{ Gate }, { finishGate }] = await Promise.all([import('../../verdicts/gates.js'), import('../../report-files/finish-gate.js')]);
      const gate = new Gate(plan.gate);
      const writer = createListWriter(ctx.io.stdout, ctx.outputOptions('report'));
      for (const entry of entries) {
        const report = entry.report as ApiRecord | undefined;
        if (report !== undefined) {
          ci?.addReport(report, gate.check(report), undefined, entry.url);
          runHistory.recorder?.add(report);
          await writer.write(report);
        } else if (entry.status === 'failed' || entry.status === 'unsettled') {
          ci?.addFailed(entry.url, entry.message ?? entry.status, entry.code ?? ExitCode.unexpected);
        } else {
          ci?.addSkipped(entry.url, entry.message ?? `${entry.status} in its shard`);
        }
      }
      runHistory.recorder?.flush();
      await writer.end();
      ci?.pagesHadReports(entries.filter((entry) => entry.status === 'refreshed' || entry.status === 'kept').length);
      const overNothing = entries.length === 0 && !gate.active && plan.judged && plan.gate.allowEmpty !== true;
      return finishGate(ctx, gate, ci, overNothing ? ExitCode.gate : ownCode(entries, joined.codes));
    },
    { incomplete: missing.length > 0 },
  );
  return {
    code,
    entries,
    reports,
    run: runHistory.runId,
    baseline: ci?.baselineRun,
    comparison: ci?.comparison,
    missing: missing.map((shard) => `${shard.index}/${shard.count}`),
    job: named,
  };
}

/**
 * The joined run's own code before its gates, as one bulk run's would be: the first failure's class (in input order), else
 * a share's code for URLs it never started (its service gone, its stdout closed), else 0.
 */
function ownCode(entries: readonly PartEntry[], codes: readonly number[]): ExitCodeValue {
  const failed = entries.find((entry) => entry.status === 'failed' || entry.status === 'unsettled');
  if (failed?.code !== undefined) return failed.code as ExitCodeValue;
  if (entries.some((entry) => entry.status === 'not started')) {
    const stopped = codes.find((code) => code !== ExitCode.ok && code !== ExitCode.gate);
    return (stopped ?? ExitCode.server) as ExitCodeValue;
  }
  return ExitCode.ok;
}
