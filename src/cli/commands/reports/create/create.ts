// `rsapi reports create`: its help, and the run that carries out its plan (plan.ts): the input read and checked, then one report per distinct URL.
import { proxyFromEnv } from '../../../../api/http/proxy.js';
import { takeOverLine } from '../../../../config/lock-file.js';
import { UsageError } from '../../../runtime/errors.js';
import { CiReporter } from '../../../report-files/reporter.js';
import { describeShare, selectShare } from '../../../bulk/shard.js';
import type { CommandContext } from '../../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../../runtime/handler.js';
import { resolvePassword } from '../../../flags/report-flags.js';
import { readUrlInput, rejectInvalid, type UrlInput } from './url-input.js';
import { plural } from '../../../../plural.js';
import { existingReports } from './existing.js';
import { selectUrls } from './select.js';
import { forStderr } from '../../../terminal/stderr.js';
import { createListWriter } from '../../../../output/index.js';
import { ExitCode, type ExitCodeValue } from '../../../runtime/exit-codes.js';
import { emptyLine } from '../../../verdicts/empty.js';
import { runAnnotation } from '../../../verdicts/named-failures.js';
import type { Baseline, BaselineComparison } from '../../../report-files/baseline.js';
import { createJob, openRun } from '../../../reading/recording.js';
import { preferSmallHeapWhileCreating } from '../../../runtime/heap.js';
import type { UrlOutcome } from './run-create.js';
import type { PartPlan, PartRun, PipelineSharePlan } from './part.js';
import type { PipelineRole, ShareEnd } from '../../../../history/types.js';
import { declareCreate, noUrlError, planReportsCreate, type ReportsCreatePlan } from './plan.js';

/** What a create run did, for a caller that says it in its own words (`rsapi audit`, MCP's create_reports). */
export interface CreateResult {
  code: ExitCodeValue;
  /** Reports read (created, refreshed or kept). */
  reports: number;
  /** What became of each URL of the input, in its order (none when nothing was sent: an empty input, --dry-run). */
  urls: readonly UrlOutcome[];
  /** Why URLs were left not started (`interrupted`, ...), when the run stopped early. */
  stoppedBy?: string;
  /** The history run it was compared with (--baseline last, run:ID, since:D). */
  baseline: number | undefined;
  comparison: BaselineComparison | undefined;
  /** The run as the history recorded it (undefined: not recorded, or the history failed). */
  run: number | undefined;
  /** A partial run's files written beside their names (--html, --junit): the path asked -> the path written. */
  besides?: ReadonlyMap<string, string>;
  /** Why the history's baseline could not be read (a full disk, say): nothing was compared, though there may be one. */
  baselineFailure?: string;
  /** The history failed part-way: the run is kept incomplete (never a baseline) with the pages written before. */
  kept?: { run: number; pages: number };
}

export function registerCreate(reports: ParentCommand, invocation: Invocation): void {
  const command = declareCreate(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports create https://example.com/
  $ rsapi reports create https://example.com/ https://example.com/pricing --json
  $ rsapi reports create --from-file urls.txt --concurrency 8 --journal urls.journal -o ndjson
  $ printf '%s\\n' "$PASS" | rsapi reports create https://example.com/ --privacy password --password-stdin
  $ rsapi reports create https://example.com/ --fail-on bad     # CI gate
  $ rsapi reports create --from-sitemap https://example.com/sitemap.xml --concurrency 8 --fail-on bad
  $ rsapi reports create --from-file urls.txt --shard 2/3 --junit rsapi.xml --summary "$GITHUB_STEP_SUMMARY"
  $ rsapi reports create --from-sitemap https://example.com/sitemap.xml --journal s.journal --dry-run
  $ rsapi reports create --from-sitemap https://example.com/ --existing refresh --exclude 'example.com/tag/**'

Results are printed as they complete (ndjson, csv, tsv stream; json is one array at the end).
Lists in, a list out: --from-file, --from-sitemap, --shard and several URL arguments always print a
JSON array (ndjson a line each), even of one report; a single URL argument prints one object.
Run again with the same --journal after failures or Ctrl-C: created URLs are skipped (those created
within --resume-within, a day by default), the rest retried.
--from-sitemap with a site root (https://example.com/) reads the sitemaps its robots.txt names (else /sitemap.xml).
--existing defaults to new: a second create of a URL makes a second report; refresh or skip for a weekly job.`,
  );
  handle(invocation, command, {
    plan: (ctx, opts, [urls]) => planReportsCreate(ctx, { ...opts, urls }),
    run: async (ctx, plan) => (await runReportsCreate(ctx, plan)).code,
  });
}

/** Reads and checks every URL, then creates one report per distinct URL, N at a time; the journal's lock released at the end. */
export async function runReportsCreate(ctx: CommandContext, plan: ReportsCreatePlan): Promise<CreateResult> {
  try {
    // Settings and key resolved first: a usage error there sends nothing, not even a sitemap fetch.
    ctx.client({ abortOnInterrupt: false });
    const tookOver = plan.journal?.lock?.tookOver;
    if (tookOver) ctx.note(takeOverLine(plan.journal?.lock?.path ?? '', tookOver));
    // A bad baseline file stops the run before the sitemap is fetched.
    const baseline = plan.ci && (await CiReporter.readBaselineFile(plan.ci));
    return await createWith(ctx, plan, baseline);
  } finally {
    plan.journal?.lock?.release();
  }
}

async function createWith(ctx: CommandContext, plan: ReportsCreatePlan, baseline: Baseline | undefined): Promise<CreateResult> {
  const { source, selection, shard, journal } = plan;
  // Many URLs (a sitemap of 50,000 pages) make garbage at a steady rate for minutes, from the sitemap's reading on:
  // collected often rather than grown into (heap.ts).
  if (source.fromSitemap !== undefined || source.fromFile !== undefined || source.urls.length > 1) await preferSmallHeapWhileCreating();
  const input = await readInput(ctx, source);
  const nothing = (why: string) => createNothing(ctx, plan, baseline, why);
  if (input.entries.length === 0 && plan.emptyIsNoOp) return nothing(`${source.fromFile === '-' ? 'stdin' : source.fromFile} holds no URL`);
  rejectInvalid(input, source.skipInvalid, (line) => ctx.note(line));
  // A gate over nothing fails whatever the input was (an empty sitemap, a selection that left nothing), in one way.
  if (input.urls.length === 0 && plan.judged) return nothing(emptyInput(source));
  if (input.urls.length === 0) throw noUrlError();
  refuseUrlsHoldingTheKey(ctx, input.urls);
  for (const duplicate of new Set(input.duplicates)) ctx.note(`rsapi: ${duplicate} given more than once; creating it once`);
  const chosen = selectUrls(input.urls, selection);
  if (chosen.note !== undefined) ctx.note(chosen.note);
  if (chosen.urls.length === 0 && plan.judged) return nothing('no URL left after --include/--exclude');
  if (chosen.urls.length === 0)
    throw new UsageError('no URL left to send after --include/--exclude', { hint: 'check the globs: they match the URL as stored, e.g. example.com/blog/**' });
  input.urls = chosen.urls;
  const selected = shard === undefined ? undefined : selectShare(input.urls, shard);
  if (selected) ctx.note(`rsapi: ${describeShare(selected.share)}`);
  const password = await resolvePassword(ctx.io, plan.privacy, { secrets: ctx.secrets, signal: ctx.signal });
  if (plan.dryRun) {
    const { createDryRunRows, printCreateDryRun } = await import('./dry-run.js');
    // --existing: the reports there are read as the real run reads them (reads only), so each row says what it would do.
    const mode = plan.existing;
    const existing = mode === 'skip' || mode === 'refresh' ? { mode, reports: await existingReports(ctx.client(), input.urls) } : undefined;
    const createdSince = journal?.resumeWithinMs === undefined ? undefined : Date.now() - journal.resumeWithinMs;
    return ranNothing(await printCreateDryRun(ctx, createDryRunRows({ input, shard, journalPath: journal?.path, createdSince, existing })));
  }
  // From here the run needs the URLs alone: where each came from (a sitemap's 50,000 entries) is not held to its end.
  input.entries = [];
  const { runBulkCreate } = await import('./run-create.js');
  const urls = selected ? selected.urls : input.urls;
  const run = {
    command: plan.command,
    selection: createJob(plan.record.job, input.urls),
    shard: plan.record.job.shard,
    pipeline: plan.pipelineShare && (await shareOf(ctx, plan.pipelineShare, input.urls)),
  };
  const started = new Date();
  const { history, ci } = await openRun(ctx, { history: plan.record.history, run }, plan.ci, { baseline, share: selected?.share, inputOrder: urls });
  let outcomes: readonly UrlOutcome[] = [];
  let stoppedBy: string | undefined;
  const ending = await shareEnding(ctx, plan, input.urls, () => outcomes);
  const code = await history.finishing(async () => {
    const ran = await runBulkCreate(ctx, {
      input: { ...input, urls },
      alwaysList: plan.alwaysList,
      wholeReports: plan.part !== undefined || plan.pipelineShare !== undefined,
      concurrency: plan.concurrency,
      privacy: plan.privacy.privacy,
      password,
      journalPath: journal?.path,
      journalStore: journal?.store,
      journalLock: journal?.lock,
      journalEnds: journal?.ends,
      resumeWithinMs: journal?.resumeWithinMs,
      gate: plan.gate,
      ci,
      recorder: history.recorder,
      knownUrls: input.urls,
      existing: plan.existing,
      resumeCommand: plan.command === 'audit' ? 'rsapi audit' : undefined,
    });
    outcomes = ran.urls;
    stoppedBy = ran.stoppedBy;
    return ran.code;
  }, ending);
  if (plan.part) await finishPart(ctx, plan.part, { run, history: plan.record.history, input: input.urls, started }, outcomes, code);
  if (plan.pipelineShare && history.runId !== undefined && !ctx.signal.aborted) {
    const { pipeline, shard } = plan.pipelineShare;
    ctx.note(
      `rsapi: recorded shard ${shard.index}/${shard.count} into run ${history.runId} of pipeline ${pipeline}: close it with \`rsapi history merge --pipeline ${pipeline}\``,
    );
  }
  const { baselineRun: baselineOf, comparison, besides } = ci ?? {};
  const reports = ci?.reportCount ?? outcomes.filter((outcome) => 'report' in outcome && outcome.report !== undefined).length;
  const { baselineFailure, kept } = history;
  return { code, urls: outcomes, stoppedBy, reports, baseline: baselineOf, comparison, run: history.runId, besides, baselineFailure, kept };
}

/** A run that sent nothing: its exit code alone. */
function ranNothing(code: ExitCodeValue, ci?: CiReporter, run?: number): CreateResult {
  return { code, urls: [], reports: 0, baseline: ci?.baselineRun, comparison: ci?.comparison, run };
}

/**
 * Nothing to create: why, said once (`the sitemap listed no page`), the empty list in the chosen format (`[]` in json),
 * the run recorded (it reads nothing, so it is never a baseline), and the gates: any gate over nothing fails (exit 10)
 * with one line naming why, in every file too, unless --allow-empty.
 */
async function createNothing(ctx: CommandContext, plan: ReportsCreatePlan, baseline: Baseline | undefined, why: string): Promise<CreateResult> {
  const fails = plan.judged && plan.gate.allowEmpty !== true;
  // A failing gate's line names why; a run that passes says it here.
  if (!fails) ctx.note(`rsapi: ${why}; nothing to create`);
  const run = {
    command: plan.command,
    selection: createJob(plan.record.job, []),
    pipeline: plan.pipelineShare && (await shareOf(ctx, plan.pipelineShare, [])),
  };
  const started = new Date();
  const { history, ci } = await openRun(ctx, { history: plan.record.history, run }, plan.ci, { baseline, empty: why });
  const ending = await shareEnding(ctx, plan, [], () => []);
  const code = await history.finishing(async () => {
    const writer = createListWriter(ctx.io.stdout, ctx.outputOptions('report'));
    await writer.end();
    const [{ Gate }, { finishGate }] = await Promise.all([import('../../../verdicts/gates.js'), import('../../../report-files/finish-gate.js')]);
    const gate = new Gate({ ...plan.gate, selection: { ...plan.gate.selection, nothing: why } });
    // Only a baseline gate asked (--max-drop, --fail-on-new-failures), or an audit: the same line as the other gates give.
    const overNothing = !gate.active && fails;
    if (overNothing) {
      ctx.note(emptyLine(gate.selection));
      if (ctx.io.env.GITHUB_ACTIONS === 'true') ctx.note(runAnnotation(emptyLine(gate.selection)));
    }
    return finishGate(ctx, gate, ci, overNothing ? ExitCode.gate : ExitCode.ok);
  }, ending);
  // An empty input is a share like any other: the merge counts it.
  if (plan.part) await finishPart(ctx, plan.part, { run, history: plan.record.history, input: [], started }, [], code);
  return ranNothing(code, ci, history.runId);
}

/** A share's part in its pipeline's one run (--record --pipeline). */
async function shareOf(ctx: CommandContext, share: PipelineSharePlan, input: readonly string[]): Promise<PipelineRole> {
  const { shareRole } = await import('./part.js');
  return shareRole(ctx, share, input);
}

/** --record --pipeline: the share's URLs, kept in the history with its end for `history merge --pipeline`. */
async function shareEnding(
  ctx: CommandContext,
  plan: ReportsCreatePlan,
  input: readonly string[],
  outcomes: () => readonly UrlOutcome[],
): Promise<{ share?: () => ShareEnd }> {
  if (plan.pipelineShare === undefined) return {};
  const { shareEnd } = await import('./part.js');
  return { share: () => shareEnd(ctx, input, outcomes()) };
}

/**
 * --part: the share written for the merge, once the run went to its end; a shard interrupted (Ctrl-C, SIGTERM) writes
 * none (run it again: its journal resumes it), so that no merge takes a share cut short for a whole one.
 */
async function finishPart(ctx: CommandContext, part: PartPlan, ran: PartRun, outcomes: readonly UrlOutcome[], code: ExitCodeValue): Promise<void> {
  if (ctx.signal.aborted) {
    ctx.note(`rsapi: interrupted: no part written to ${part.path}; run the shard again`);
    return;
  }
  const { writeCreatePart } = await import('./part.js');
  await writeCreatePart(ctx, part, ran, outcomes, code);
}

/** Why an input that gave no URL gave none, in the words of its source: `the sitemap listed no page`. */
function emptyInput(source: ReportsCreatePlan['source']): string {
  if (source.urls.length > 0 || (source.fromFile !== undefined && source.fromSitemap !== undefined)) return 'the input holds no URL';
  if (source.fromSitemap !== undefined) return source.fromSitemap.length === 1 ? 'the sitemap listed no page' : 'the sitemaps listed no page';
  return `${source.fromFile === '-' ? 'stdin' : source.fromFile} holds no URL`;
}

/** The run's URLs, from its arguments, --from-file and --from-sitemap. */
async function readInput(ctx: CommandContext, source: ReportsCreatePlan['source']): Promise<UrlInput> {
  const sitemap = source.fromSitemap === undefined ? undefined : await sitemapEntries(ctx, { ...source, fromSitemap: source.fromSitemap });
  const input = await readUrlInput(ctx.io, source.urls, source.fromFile, ctx.signal, sitemap?.entries);
  if (sitemap && sitemap.skipped > 0) input.skippedSitemaps = sitemap.skipped;
  return input;
}

/**
 * The page URLs of --from-sitemap: each sitemap (or index) given, or a site root's sitemaps as its robots.txt names them,
 * all within one budget. Pages and sitemaps off each one's site are left out, in one line. With --skip-invalid, a
 * sitemap of an index that is missing (or no sitemap) is skipped with a warning naming it. saxes loads only here.
 */
async function sitemapEntries(
  ctx: CommandContext,
  source: ReportsCreatePlan['source'] & { fromSitemap: string[] },
): Promise<{ entries: { where: string; value: string }[]; skipped: number }> {
  const [{ readSitemap }, { isSiteRoot, sitemapsOfSite }, { SitemapBudget }, site] = await Promise.all([
    import('./sitemap/read.js'),
    import('./sitemap/robots.js'),
    import('./sitemap/budget.js'),
    import('./sitemap/site.js'),
  ]);
  const budget = new SitemapBudget(source.sitemapLimits);
  const options = {
    proxy: proxyFromEnv(ctx.io.env),
    timeoutMs: (ctx.globals.timeout ?? DEFAULT_SITEMAP_TIMEOUT_S) * 1000,
    signal: ctx.signal,
    skipInvalid: source.skipInvalid,
    budget,
  };
  const entries: { where: string; value: string }[] = [];
  const offSite = site.noOffSite();
  let read = 0;
  let skipped = 0;
  for (const given of source.fromSitemap) {
    const rule = /^https?:\/\//i.test(given) ? site.siteRuleOf(given, source.allowHosts) : undefined;
    let sitemaps = [given];
    if (rule && isSiteRoot(given)) {
      const named = await sitemapsOfSite(given, { ...options, site: rule });
      ctx.note(`rsapi: ${named.from}`);
      site.addOffSite(offSite, named.offSite);
      sitemaps = named.sitemaps;
    }
    for (const sitemap of sitemaps) {
      const one = await readSitemap(sitemap, { ...options, site: rule });
      // One at a time: a spread into push of 150,000 entries overflowed the stack.
      for (const entry of one.entries) entries.push(entry);
      read += one.sitemaps;
      skipped += one.skipped.length;
      site.addOffSite(offSite, one.offSite);
      for (const { url, problem } of one.skipped) ctx.note(forStderr(`rsapi: warning: skipping the sitemap ${url} (--skip-invalid): ${problem}`));
    }
  }
  const offSiteLine = site.offSiteLine(offSite);
  if (offSiteLine !== undefined) ctx.note(forStderr(offSiteLine));
  const skippedPart = skipped > 0 ? ` (${plural(skipped, 'sitemap')} skipped)` : '';
  ctx.note(`rsapi: ${plural(entries.length, 'URL')} from ${plural(read, 'sitemap')}${skippedPart}`);
  return { entries, skipped };
}

const DEFAULT_SITEMAP_TIMEOUT_S = 30;

/**
 * A URL holding the API key would be stored by the service (where others may read it) and written to the journal
 * masked, where a resume cannot match it: each run made another report of it. Refused before anything is sent.
 */
function refuseUrlsHoldingTheKey(ctx: CommandContext, urls: readonly string[]): void {
  ctx.settings();
  const holding = urls.find((url) => ctx.secrets.heldIn(url));
  if (holding !== undefined) {
    throw new UsageError(`${ctx.secrets.redact(holding)} holds the API key; it is not sent, so that the service does not store it`, {
      hint: 'take the key out of the URL',
    });
  }
}
