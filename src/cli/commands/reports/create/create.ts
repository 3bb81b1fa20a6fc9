import { proxyFromEnv } from '../../../../api/http/proxy.js';
import { UsageError } from '../../../runtime/errors.js';
import { addCiOptions, checkCiFlags, CiReporter } from '../../../report-files/reporter.js';
import { describeShare, parseShard, selectShare } from '../../../bulk/shard.js';
import type { CommandContext } from '../../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../../runtime/handler.js';
import { collectValues, integerParser, MAX_CONCURRENCY } from '../../../flags/options.js';
import { addGateOptions } from '../../../flags/verb-options.js';
import { addPrivacyOptions, checkPasswordFlags, resolvePassword } from '../../../flags/report-flags.js';
import { claimJournal } from './journal.js';
import type { HeldLock } from '../../../../config/lock-file.js';
import { readUrlInput, rejectInvalid } from './url-input.js';
import type { RunFile } from '../../../runtime/run-files.js';
import { plural } from '../../../../plural.js';
import { Option } from '@commander-js/extra-typings';
import { EXISTING_MODES, existingReports } from './existing.js';
import { compileSelection, selectUrls } from './select.js';
import { forStderr } from '../../../terminal/stderr.js';
import { createListWriter } from '../../../../output/index.js';
import { ExitCode, type ExitCodeValue } from '../../../runtime/exit-codes.js';
import { emptyLine } from '../../../verdicts/empty.js';
import { addVerdictOptions, checkVerdictFlags, refuseUrlForAssert, verdictFiles } from '../../../verdicts/options.js';
import type { AssertionSet } from '../../../verdicts/rules.js';
import type { GateSetup } from '../../../verdicts/gates.js';
import type { BaselineComparison } from '../../../report-files/baseline.js';
import { addHistoryOptions, createJob, startRecording } from '../../../reading/recording.js';
import type { BulkCreateRunResult, UrlOutcome } from './run-create.js';

function declareCreate(reports: ParentCommand) {
  const command = reports
    .command('create')
    .description('Create a report for each URL (the service fetches and audits each page)')
    .argument('[urls...]', 'absolute http(s) URLs')
    .option('--from-file <path>', 'read URLs from a file, one a line (- for stdin); blank lines and # comments skipped')
    .option(
      '--from-sitemap <url|path>',
      'read page URLs from a sitemap or sitemap index (gzip or not): an http(s) URL, fetched without the API key, or a file (repeatable)',
      collectValues,
    )
    .option('--skip-invalid', "skip input lines that are not URLs, and an index's sitemaps that are missing, instead of stopping")
    .option('--concurrency <n>', `requests in flight at once (1 to ${MAX_CONCURRENCY})`, integerParser('--concurrency', 1, MAX_CONCURRENCY), 4)
    .option('--journal <path>', "record each URL's outcome in this file; a re-run skips the URLs it shows created")
    .option(
      '--dry-run',
      'print which URLs would be sent and which skipped, and why (duplicate, other shard, journal, --skip-invalid), ' +
        'after every input step; send nothing, write no journal',
    )
    .option('--shard <i/n>', 'create only the I-th of N shares of the input (by a stable hash of each URL), for N parallel CI jobs', parseShard)
    .addOption(
      new Option(
        '--existing <mode>',
        'for a URL that already has a report (same URL as the service stores it): new creates another (the default), ' +
          'refresh re-audits it, skip keeps it as it is',
      ).choices(EXISTING_MODES),
    )
    .option('--include <glob>', 'send only URLs matching this glob over the stored URL (example.com/blog/**; repeatable)', collectValues)
    .option('--exclude <glob>', 'leave out URLs matching this glob (repeatable)', collectValues)
    .option('--max-urls <n>', 'send at most the first N URLs of the input (after --include/--exclude, before --shard)', integerParser('--max-urls', 1));
  return addHistoryOptions(addVerdictOptions(addCiOptions(addGateOptions(addPrivacyOptions(command)))));
}

export type ReportsCreateOptions = OptionsOf<ReturnType<typeof declareCreate>> & {
  urls: string[];
  /** The journal outlives the run (MCP's create_reports, keyed by its URL set): a later call skips what it created. */
  keepJournal?: boolean;
  /** Told what the run did once it ended without an error (`rsapi audit` says it). */
  onDone?: (done: CreateDone) => void;
  /** The command the run is, as the history and the CI files name it (`audit`); `reports create` by default. */
  command?: string;
};

function commandName(opts: ReportsCreateOptions): string {
  return opts.command ?? 'reports create';
}

/** What a create run did, for a caller that says it in its own words. */
export interface CreateDone {
  /** Reports read (created, refreshed or kept). */
  reports: number;
  /** What became of each URL of the input, in its order (none when nothing was sent: an empty input, --dry-run). */
  urls: readonly UrlOutcome[];
  /** The history run it was compared with (--baseline last, run:ID, since:D). */
  baseline: number | undefined;
  comparison: BaselineComparison | undefined;
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
Run again with the same --journal after failures or Ctrl-C: created URLs are skipped, the rest retried.
--from-sitemap with a site root (https://example.com/) reads the sitemaps its robots.txt names (else /sitemap.xml).
--existing defaults to new: a second create of a URL makes a second report; refresh or skip for a weekly job.`,
  );
  handle(invocation, command, (ctx, opts, [urls]) => reportsCreateRun(ctx, { ...opts, urls }));
}

/**
 * Every check of `reports create` that needs no network: before stdin, a URL file or a password is read, the
 * sitemap fetched or anything sent. An output that is an input or another output, and a journal that is another file
 * of the user's, are refused untouched; a journal in a missing folder or in use by another run too. Returns the
 * journal's lock, held from here until the run ends.
 */
export function validateReportsCreate(ctx: CommandContext, opts: ReportsCreateOptions): { journalLock?: HeldLock; assertions?: AssertionSet } {
  refuseUrlForAssert(opts);
  if (opts.passwordStdin && opts.fromFile === '-') {
    throw new UsageError('--password-stdin and --from-file - both want standard input', { hint: 'use --password-file PATH' });
  }
  if (opts.urls.length === 0 && opts.fromFile === undefined && opts.fromSitemap === undefined) throw noUrlError();
  ctx.checkOutputFlags();
  checkPasswordFlags(ctx.io, opts, { required: true });
  checkCiFlags(opts, [...createRunFiles(opts), ...verdictFiles(opts, ctx.io.env)]);
  compileSelection(opts);
  const { assertions } = checkVerdictFlags(ctx, opts);
  // Last: the lock is held from here, and released by reportsCreateRun whatever happens next.
  const journalLock = opts.journal === undefined ? undefined : claimJournal(opts.journal, ctx.locks, { dryRun: opts.dryRun === true });
  return { journalLock, assertions };
}

/** Reads and checks every URL, then creates one report per distinct URL, N at a time. */
export async function reportsCreateRun(ctx: CommandContext, opts: ReportsCreateOptions) {
  const { journalLock, assertions } = validateReportsCreate(ctx, opts);
  try {
    return await createRun(ctx, opts, journalLock, assertions);
  } finally {
    journalLock?.release();
  }
}

async function createRun(ctx: CommandContext, opts: ReportsCreateOptions, journalLock: HeldLock | undefined, assertions: AssertionSet | undefined) {
  // Settings and key resolved first: a usage error there sends nothing, not even a sitemap fetch.
  ctx.client({ abortOnInterrupt: false });
  // A bad baseline stops the run before the sitemap is fetched.
  const ci = await CiReporter.prepare(commandName(opts), opts);
  const ran = await createWith(ctx, opts, journalLock, assertions, ci);
  // Only a run that sent something has outcomes per URL; one with nothing to send gives its exit code alone.
  const { code, urls } = typeof ran === 'object' ? ran : { code: ran, urls: [] };
  opts.onDone?.({ reports: ci?.reportCount ?? 0, urls, baseline: ci?.baselineRun, comparison: ci?.comparison });
  return code;
}

async function createWith(
  ctx: CommandContext,
  opts: ReportsCreateOptions,
  journalLock: HeldLock | undefined,
  assertions: AssertionSet | undefined,
  ci: CiReporter | undefined,
): Promise<ExitCodeValue | BulkCreateRunResult> {
  const sitemap = opts.fromSitemap === undefined ? undefined : await sitemapEntries(ctx, opts.fromSitemap, opts.skipInvalid === true);
  const input = await readUrlInput(ctx.io, opts.urls, opts.fromFile, ctx.signal, sitemap?.entries);
  if (sitemap && sitemap.skipped > 0) input.skippedSitemaps = sitemap.skipped;
  if (input.entries.length === 0 && emptyListIsNoOp(ctx, opts))
    return createNothing(ctx, opts, ci, assertions, `${opts.fromFile === '-' ? 'stdin' : opts.fromFile} holds no URL`);
  rejectInvalid(input, opts.skipInvalid === true, (line) => ctx.note(line));
  // A gate over nothing fails whatever the input was (an empty sitemap, a selection that left nothing), in one way.
  if (input.urls.length === 0 && gateAsked(opts, assertions)) return createNothing(ctx, opts, ci, assertions, 'the input holds no URL');
  if (input.urls.length === 0) throw noUrlError();
  refuseUrlsHoldingTheKey(ctx, input.urls);
  for (const duplicate of new Set(input.duplicates)) ctx.note(`rsapi: ${duplicate} given more than once; creating it once`);
  const chosen = selectUrls(input.urls, opts);
  if (chosen.note !== undefined) ctx.note(chosen.note);
  if (chosen.urls.length === 0 && gateAsked(opts, assertions)) return createNothing(ctx, opts, ci, assertions, 'no URL left after --include/--exclude');
  if (chosen.urls.length === 0)
    throw new UsageError('no URL left to send after --include/--exclude', { hint: 'check the globs: they match the URL as stored, e.g. example.com/blog/**' });
  input.urls = chosen.urls;
  const selected = opts.shard === undefined ? undefined : selectShare(input.urls, opts.shard);
  if (selected) {
    ctx.note(`rsapi: ${describeShare(selected.share)}`);
    if (ci) ci.share = selected.share;
  }
  const password = await resolvePassword(ctx.io, opts, { secrets: ctx.secrets, signal: ctx.signal });
  if (opts.dryRun) {
    const { createDryRunRows, printCreateDryRun } = await import('./dry-run.js');
    // --existing: the reports there are read as the real run reads them (reads only), so each row says what it would do.
    const mode = opts.existing;
    const existing = mode === 'skip' || mode === 'refresh' ? { mode, reports: await existingReports(ctx.client(), input.urls) } : undefined;
    return printCreateDryRun(ctx, createDryRunRows({ input, shard: opts.shard, journalPath: opts.journal, existing }));
  }
  const { runBulkCreate } = await import('./run-create.js');
  const shard = opts.shard && `${opts.shard.index}/${opts.shard.count}`;
  await startRecording(ctx, opts, { command: commandName(opts), selection: createJob(opts, input.urls), shard }, ci);
  return runBulkCreate(ctx, {
    input: selected ? { ...input, urls: selected.urls } : input,
    // Lists in, a list out: a file, a sitemap, a share or several arguments give an array whatever their size
    // (one URL in a file is still a list); only a single URL argument gives one object.
    alwaysList: listInput(opts),
    concurrency: opts.concurrency,
    privacy: opts.privacy,
    password,
    journalPath: opts.journal,
    journalLock,
    journalEnds: opts.keepJournal !== true,
    gate: gateOf(opts, assertions),
    ci,
    knownUrls: input.urls,
    existing: opts.existing,
  });
}

/**
 * An empty file or pipe given to --from-file is a list with nothing to do (a scheduled job's "changed pages only"),
 * not a mistake; nothing typed at a terminal, or no input named at all, still is one (noUrlError).
 */
function emptyListIsNoOp(ctx: CommandContext, opts: ReportsCreateOptions): boolean {
  if (opts.urls.length > 0 || opts.fromSitemap !== undefined || opts.fromFile === undefined) return false;
  return opts.fromFile !== '-' || !ctx.io.stdinIsTTY;
}

/** The gate of a create: its flags, the assertions file read, and what chose the reports (named when none matched). */
function gateOf(opts: ReportsCreateOptions, assertions: AssertionSet | undefined): GateSetup {
  const { failOn, minScore, failOnCheck, failOnImportance, allowEmpty, codequality } = opts;
  return { failOn, minScore, failOnCheck, failOnImportance, assertions, allowEmpty, codequality, selection: { what: 'the input URLs' } };
}

/** Whether the run judges anything (a gate flag, an assertions file, a baseline gate): over nothing, it fails. */
function gateAsked(opts: ReportsCreateOptions, assertions: AssertionSet | undefined): boolean {
  const { failOn, minScore, failOnCheck, failOnImportance, maxDrop, failOnNewFailures } = opts;
  return [failOn, minScore, failOnCheck, failOnImportance, maxDrop, failOnNewFailures, assertions].some((value) => value !== undefined);
}

/**
 * Nothing to create: one note saying why, the empty list in the chosen format (`[]` in json), the run recorded (it
 * reads nothing, so it is never a baseline), and the gates: any gate over nothing fails (exit 10) with the same line,
 * unless --allow-empty.
 */
async function createNothing(
  ctx: CommandContext,
  opts: ReportsCreateOptions,
  ci: CiReporter | undefined,
  assertions: AssertionSet | undefined,
  why: string,
): Promise<ExitCodeValue> {
  ctx.note(`rsapi: ${why}; nothing to create`);
  await startRecording(ctx, opts, { command: commandName(opts), selection: createJob(opts, []) }, ci);
  const writer = createListWriter(ctx.io.stdout, ctx.outputOptions('report'));
  await writer.end();
  const { Gate, finishGate } = await import('../../../verdicts/gates.js');
  const setup = gateOf(opts, assertions);
  const gate = new Gate(setup);
  // Only a baseline gate asked (--max-drop, --fail-on-new-failures): the same line as the other gates give.
  const overNothing = !gate.active && gateAsked(opts, assertions) && opts.allowEmpty !== true;
  if (overNothing) ctx.note(emptyLine(setup.selection));
  return finishGate(ctx, gate, ci, overNothing ? ExitCode.gate : ExitCode.ok);
}

function noUrlError(): UsageError {
  return new UsageError('no URL to create a report for', { hint: 'give URLs as arguments, with --from-file or --from-sitemap' });
}

/** The files of a create beside the CI files: what it reads (stdin and an http(s) sitemap are none), and the journal it reads and appends to. */
function createRunFiles(opts: ReportsCreateOptions): RunFile[] {
  return [
    { flag: '--from-file', path: opts.fromFile === '-' ? undefined : opts.fromFile, reads: true },
    ...(opts.fromSitemap ?? []).map((source) => ({ flag: '--from-sitemap', path: /^https?:\/\//i.test(source) ? undefined : source, reads: true })),
    { flag: '--password-file', path: opts.passwordFile, reads: true },
    { flag: '--journal', path: opts.journal, reads: true, writes: true },
  ];
}

/** Whether the input is a list (its output an array even of one): anything but a single URL argument. */
function listInput(opts: ReportsCreateOptions): boolean {
  return opts.fromFile !== undefined || opts.fromSitemap !== undefined || opts.shard !== undefined || opts.urls.length > 1;
}

/**
 * The page URLs of --from-sitemap: each sitemap (or index) given, or a site root's sitemaps as its robots.txt names them.
 * With --skip-invalid, a sitemap of an index that is missing (or no sitemap) is skipped with a warning naming it.
 * saxes loads only here.
 */
async function sitemapEntries(
  ctx: CommandContext,
  given: readonly string[],
  skipInvalid: boolean,
): Promise<{ entries: { where: string; value: string }[]; skipped: number }> {
  const [{ readSitemap }, { isSiteRoot, sitemapsOfSite }] = await Promise.all([import('./sitemap/read.js'), import('./sitemap/robots.js')]);
  const options = { proxy: proxyFromEnv(ctx.io.env), timeoutMs: (ctx.globals.timeout ?? DEFAULT_SITEMAP_TIMEOUT_S) * 1000, signal: ctx.signal, skipInvalid };
  const entries: { where: string; value: string }[] = [];
  let read = 0;
  let skipped = 0;
  for (const source of given) {
    const sources: { sitemaps: string[]; from?: string } = isSiteRoot(source) ? await sitemapsOfSite(source, options) : { sitemaps: [source] };
    if (sources.from !== undefined) ctx.note(`rsapi: ${sources.from}`);
    for (const sitemap of sources.sitemaps) {
      const one = await readSitemap(sitemap, options);
      entries.push(...one.entries);
      read += one.sitemaps;
      skipped += one.skipped.length;
      for (const { url, problem } of one.skipped) ctx.note(forStderr(`rsapi: warning: skipping the sitemap ${url} (--skip-invalid): ${problem}`));
    }
  }
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
