import { proxyFromEnv } from '../../../../api/proxy.js';
import { UsageError } from '../../../errors.js';
import { addCiOptions, checkCiFlags, CiReporter } from '../../../ci/reporter.js';
import { describeShare, parseShard, selectShare } from '../../../ci/shard.js';
import type { CommandContext } from '../../../context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../../handler.js';
import { integerParser, MAX_CONCURRENCY } from '../../../options.js';
import { addGateOptions } from '../../../verb-options.js';
import { addPrivacyOptions, checkPasswordFlags, resolvePassword } from '../../../report-flags.js';
import { guardJournal } from './journal.js';
import { readUrlInput, rejectInvalid } from './url-input.js';
import { plural } from '../../../../plural.js';
import { addHistoryOptions, inputSelection, startRecording } from '../../../history-recording.js';

function declareCreate(reports: ParentCommand) {
  const command = reports
    .command('create')
    .description('Create a report for each URL (the service fetches and audits each page)')
    .argument('[urls...]', 'absolute http(s) URLs')
    .option('--from-file <path>', 'read URLs from a file, one a line (- for stdin); blank lines and # comments skipped')
    .option('--from-sitemap <url|path>', 'read page URLs from a sitemap or sitemap index (gzip or not): an http(s) URL, fetched without the API key, or a file')
    .option('--skip-invalid', 'skip input lines that are not URLs instead of stopping')
    .option('--concurrency <n>', `requests in flight at once (1 to ${MAX_CONCURRENCY})`, integerParser('--concurrency', 1, MAX_CONCURRENCY), 4)
    .option('--journal <path>', "record each URL's outcome in this file; a re-run skips the URLs it shows created")
    .option(
      '--dry-run',
      'print which URLs would be sent and which skipped, and why (duplicate, other shard, journal, --skip-invalid), ' +
        'after every input step; send nothing, write no journal',
    )
    .option('--shard <i/n>', 'create only the I-th of N shares of the input (by a stable hash of each URL), for N parallel CI jobs', parseShard);
  return addHistoryOptions(addCiOptions(addGateOptions(addPrivacyOptions(command))));
}

export type ReportsCreateOptions = OptionsOf<ReturnType<typeof declareCreate>> & { urls: string[] };

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

Results are printed as they complete (ndjson, csv, tsv stream; json is one array at the end).
Lists in, a list out: --from-file, --from-sitemap, --shard and several URL arguments always print a
JSON array (ndjson a line each), even of one report; a single URL argument prints one object.
Run again with the same --journal after failures or Ctrl-C: created URLs are skipped, the rest retried.`,
  );
  handle(invocation, command, (ctx, opts, [urls]) => reportsCreateRun(ctx, { ...opts, urls }));
}

/**
 * Every check of `reports create` that needs no network: before stdin, a URL file or a password is read, the
 * sitemap fetched or anything sent. A journal that is the input, or another file of the user's, is refused untouched.
 */
export function validateReportsCreate(ctx: CommandContext, opts: ReportsCreateOptions): void {
  if (opts.passwordStdin && opts.fromFile === '-') {
    throw new UsageError('--password-stdin and --from-file - both want standard input', { hint: 'use --password-file PATH' });
  }
  if (opts.urls.length === 0 && opts.fromFile === undefined && opts.fromSitemap === undefined) throw noUrlError();
  ctx.checkOutputFlags();
  checkPasswordFlags(ctx.io, opts, { required: true });
  if (opts.journal !== undefined) guardJournal(opts.journal, inputFiles(opts));
  checkCiFlags(opts);
}

/** Reads and checks every URL, then creates one report per distinct URL, N at a time. */
export async function reportsCreateRun(ctx: CommandContext, opts: ReportsCreateOptions) {
  validateReportsCreate(ctx, opts);
  // Settings and key resolved first: a usage error there sends nothing, not even a sitemap fetch.
  ctx.client({ abortOnInterrupt: false });
  // A bad baseline stops the run before the sitemap is fetched.
  const ci = await CiReporter.prepare('reports create', opts);
  const fromSitemap = opts.fromSitemap === undefined ? [] : await sitemapEntries(ctx, opts.fromSitemap);
  const input = await readUrlInput(ctx.io, opts.urls, opts.fromFile, ctx.signal, fromSitemap);
  rejectInvalid(input, opts.skipInvalid === true, (line) => ctx.note(line));
  if (input.urls.length === 0) throw noUrlError();
  for (const duplicate of new Set(input.duplicates)) ctx.note(`rsapi: ${duplicate} given more than once; creating it once`);
  const selected = opts.shard === undefined ? undefined : selectShare(input.urls, opts.shard);
  if (selected) {
    ctx.note(`rsapi: ${describeShare(selected.share)}`);
    if (ci) ci.share = selected.share;
  }
  const password = await resolvePassword(ctx.io, opts, { secrets: ctx.secrets, signal: ctx.signal });
  if (opts.dryRun) {
    const { createDryRunRows, printCreateDryRun } = await import('./dry-run.js');
    return printCreateDryRun(ctx, createDryRunRows({ input, shard: opts.shard, journalPath: opts.journal }));
  }
  const { runBulkCreate } = await import('./run-create.js');
  const shard = opts.shard && `${opts.shard.index}/${opts.shard.count}`;
  await startRecording(ctx, opts, { command: 'reports create', selection: inputSelection(input.urls, opts.shard), shard }, ci);
  return runBulkCreate(ctx, {
    input: selected ? { ...input, urls: selected.urls } : input,
    // Lists in, a list out: a file, a sitemap, a share or several arguments give an array whatever their size
    // (one URL in a file is still a list); only a single URL argument gives one object.
    alwaysList: listInput(opts),
    concurrency: opts.concurrency,
    privacy: opts.privacy,
    password,
    journalPath: opts.journal,
    gate: { failOn: opts.failOn, minScore: opts.minScore, failOnCheck: opts.failOnCheck, failOnImportance: opts.failOnImportance },
    ci,
    knownUrls: input.urls,
  });
}

function noUrlError(): UsageError {
  return new UsageError('no URL to create a report for', { hint: 'give URLs as arguments, with --from-file or --from-sitemap' });
}

/** The files the run reads its URLs from (stdin and an http(s) sitemap are none). */
function inputFiles(opts: ReportsCreateOptions): { flag: string; path: string }[] {
  const files: { flag: string; path: string }[] = [];
  if (opts.fromFile !== undefined && opts.fromFile !== '-') files.push({ flag: '--from-file', path: opts.fromFile });
  if (opts.fromSitemap !== undefined && !/^https?:\/\//i.test(opts.fromSitemap)) files.push({ flag: '--from-sitemap', path: opts.fromSitemap });
  return files;
}

/** Whether the input is a list (its output an array even of one): anything but a single URL argument. */
function listInput(opts: ReportsCreateOptions): boolean {
  return opts.fromFile !== undefined || opts.fromSitemap !== undefined || opts.shard !== undefined || opts.urls.length > 1;
}

/** The sitemap's page URLs, read with a plain client of its own (never the API key); saxes loads only here. */
async function sitemapEntries(ctx: CommandContext, source: string): Promise<{ where: string; value: string }[]> {
  const { readSitemap } = await import('./sitemap/read.js');
  const { entries, sitemaps } = await readSitemap(source, {
    proxy: proxyFromEnv(ctx.io.env),
    timeoutMs: (ctx.globals.timeout ?? DEFAULT_SITEMAP_TIMEOUT_S) * 1000,
    signal: ctx.signal,
  });
  ctx.note(`rsapi: ${plural(entries.length, 'URL')} from ${plural(sitemaps, 'sitemap')}`);
  return entries;
}

const DEFAULT_SITEMAP_TIMEOUT_S = 30;
