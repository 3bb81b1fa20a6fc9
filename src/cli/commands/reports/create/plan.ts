// `reports create`'s flags and what they plan: what the run will do, decided before stdin, a URL file or a password is
// read, a sitemap fetched or anything sent (every check that needs no network, once). The run (create.ts) takes the
// plan, never the commander options.
import { InvalidArgumentError, Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { reportUrlProblem } from '../../../../api/model/report-url.js';
import type { HeldLock } from '../../../../config/lock-file.js';
import { parseShard, shardText } from '../../../bulk/shard.js';
import { collectValues, durationParser, integerParser, MAX_CONCURRENCY } from '../../../flags/options.js';
import { durationMs } from '../../../flags/history-values.js';
import { addGateOptions } from '../../../flags/verb-options.js';
import { addPrivacyOptions } from '../../../flags/report-flags.js';
import { addCiOptions } from '../../../report-files/reporter.js';
import { addHistoryOptions, planHistory } from '../../../reading/recording.js';
import { addVerdictOptions } from '../../../verdicts/options.js';
import type { OptionsOf, ParentCommand } from '../../../runtime/handler.js';
import type { Shard } from '../../../bulk/shard.js';
import type { PrivacyFlags } from '../../../flags/report-flags.js';
import { checkPasswordFlags } from '../../../flags/report-flags.js';
import type { CreateSource } from '../../../reading/recording.js';
import type { HistoryFlags } from '../../../reading/history-place.js';
import { planCiFiles, type CiPlan } from '../../../report-files/reporter.js';
import type { CommandContext } from '../../../runtime/context.js';
import { UsageError } from '../../../runtime/errors.js';
import { checkRegularFile } from '../../../runtime/files.js';
import type { RunFile } from '../../../runtime/run-files.js';
import type { GateSetup } from '../../../verdicts/gates.js';
import { checkVerdictFlags, refuseUrlForAssert, verdictFiles } from '../../../verdicts/options.js';
import { EXISTING_MODES, type ExistingMode } from './existing.js';
import { claimJournal, type JournalStore } from './journal.js';
import { planPart, planPipelineShare, type PartPlan, type PipelineSharePlan } from './part.js';
import { compileSelection, type CompiledSelection } from './select.js';
import { DEFAULT_MAX_SITEMAP_TIME_MS, DEFAULT_MAX_SITEMAP_URLS, DEFAULT_MAX_SITEMAPS, type SitemapLimits } from './sitemap/budget.js';
import { allowedHost } from './sitemap/site.js';

/** How long a journal's `created` entries are resumed by default: a day (a run killed on Monday resumes on Monday, not a week later). */
export const DEFAULT_RESUME_WITHIN = '1d';
import { URL_FILE_HINT } from './url-input.js';

export function declareCreate(reports: ParentCommand) {
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
    .option(
      '--skip-invalid',
      "skip input lines that are not URLs, and an index's sitemaps that are missing, instead of stopping " +
        '(a sitemap more than 10% of whose entries are invalid still stops the run)',
    )
    .addOption(concurrencyOption())
    .option('--journal <path>', "record each URL's outcome in this file; a re-run skips the URLs it shows created")
    .option(
      '--resume-within <duration>',
      `a re-run skips the URLs the journal shows created within this time (default ${DEFAULT_RESUME_WITHIN}); older ones are audited again`,
      durationParser('--resume-within'),
    )
    .option(
      '--dry-run',
      'print which URLs would be sent and which skipped, and why (duplicate, other shard, journal, --skip-invalid), ' +
        'after every input step; send nothing, write no journal',
    )
    .option('--shard <i/n>', 'create only the I-th of N shares of the input (by a stable hash of each URL), for N parallel CI jobs', parseShard)
    .option('--part <file>', 'write the share to this run part (not to the history), for `rsapi history merge` to record with the other shares')
    .option(
      '--pipeline <key>',
      "the pipeline a --part belongs to (env RSAPI_PIPELINE; default: the CI's run, GitHub's or GitLab's); with --record on a PostgreSQL history, the share records into the pipeline's one run",
    )
    .addOption(
      new Option(
        '--existing <mode>',
        'for a URL that already has a report (same URL as the service stores it): new creates another (the default), ' +
          'refresh re-audits it, skip keeps it as it is',
      ).choices(EXISTING_MODES),
    )
    .option('--include <glob>', 'send only URLs matching this glob over the stored URL (example.com/blog/**; repeatable)', collectValues)
    .option('--exclude <glob>', 'leave out URLs matching this glob (repeatable)', collectValues)
    .option('--max-urls <n>', 'send at most the first N URLs of the input (after --include/--exclude, before --shard)', integerParser('--max-urls', 1))
    .option('--partial-files', PARTIAL_FILES_HELP);
  return addHistoryOptions(addVerdictOptions(addCiOptions(addGateOptions(addPrivacyOptions(addSitemapOptions(command))))));
}

/** --concurrency of a bulk create, declared once for `reports create` and `rsapi audit`. */
export function concurrencyOption() {
  return new Option('--concurrency <n>', `requests in flight at once (1 to ${MAX_CONCURRENCY})`)
    .argParser(integerParser('--concurrency', 1, MAX_CONCURRENCY))
    .default(4);
}

/** --partial-files, as `reports create` and `rsapi audit` explain it. */
export const PARTIAL_FILES_HELP =
  'a run stopped early (Ctrl-C, SIGTERM, a failing service) writes its --html and --junit files under their names; ' +
  "by default it writes NAME.partial.EXT beside them, leaving an earlier run's in place";

/** What a sitemap may lead to and the run's budget for reading sitemaps: `reports create`'s flags and `rsapi audit`'s. */
export function addSitemapOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return command
    .option('--allow-host <host>', "let a sitemap list pages and sitemaps on this host too, beyond its own site's (repeatable)", collectValues)
    .option(
      '--max-sitemaps <n>',
      `read at most N sitemaps in one run, robots.txt's and an index's included (default ${DEFAULT_MAX_SITEMAPS})`,
      integerParser('--max-sitemaps', 1),
    )
    .option(
      '--max-sitemap-urls <n>',
      `keep at most N page URLs from sitemaps in one run (default ${DEFAULT_MAX_SITEMAP_URLS})`,
      integerParser('--max-sitemap-urls', 1),
    )
    .option(
      '--max-sitemap-time <duration>',
      `spend at most this long reading sitemaps, e.g. 30m or 2h (default ${DEFAULT_MAX_SITEMAP_TIME_MS / 60_000}m)`,
      sitemapTimeParser,
    );
}

export type ReportsCreateOptions = OptionsOf<ReturnType<typeof declareCreate>> & {
  urls: string[];
  /** The journal outlives the run (MCP's create_reports, keyed by its URL set): a later call skips what it created. */
  keepJournal?: boolean;
  /** The command the run is, as the history and the CI files name it (`audit`); `reports create` by default. */
  command?: string;
  /** The journal's lock (`PATH.lock`), taken by the caller (`rsapi audit`): the plan checks the journal and holds it. */
  journalLock?: HeldLock;
};

export interface ReportsCreatePlan {
  /** The command the run is, as the history and the CI files name it: `reports create`, or `audit`. */
  command: string;
  /** Where the URLs come from: the arguments, a file (`-`: stdin), sitemaps or site roots. */
  source: {
    urls: string[];
    fromFile: string | undefined;
    fromSitemap: string[] | undefined;
    skipInvalid: boolean;
    /** --allow-host: hosts a sitemap may lead to beyond its own site's, as the rule compares them. */
    allowHosts: string[];
    /** The run's budget for its sitemaps (--max-sitemaps, --max-sitemap-urls, --max-sitemap-time). */
    sitemapLimits: SitemapLimits;
  };
  /**
   * An empty file or pipe given to --from-file is a list with nothing to do (a scheduled job's "changed pages only"),
   * not a mistake; nothing typed at a terminal, or no input named at all, still is one.
   */
  emptyIsNoOp: boolean;
  /**
   * Lists in, a list out: a file, a sitemap, a share or several arguments give an array whatever their size (one URL
   * in a file is still a list); only a single URL argument gives one object.
   */
  alwaysList: boolean;
  /** --include, --exclude and --max-urls, the globs compiled. */
  selection: CompiledSelection;
  shard: Shard | undefined;
  /** The privacy asked, and where its password comes from: read once the input is. */
  privacy: PrivacyFlags;
  concurrency: number;
  existing: ExistingMode | undefined;
  dryRun: boolean;
  /**
   * --journal: its lock, held from the plan until the run ends (none for --dry-run), and whether the run that does
   * every URL ends it (MCP's create_reports keeps it: a later call skips what it created), and how long its `created`
   * entries are resumed (ms; undefined for a kept journal: as long as the reports are there). `store`: the journal is
   * kept there, not in a file at `path` (`rsapi audit` on a PostgreSQL history: in the history; `path` names it).
   */
  journal: { path: string; lock: HeldLock | undefined; ends: boolean; resumeWithinMs: number | undefined; store?: JournalStore } | undefined;
  gate: GateSetup;
  /** Whether the run judges anything (a gate flag, an assertions file, a baseline gate): over nothing, it fails. */
  judged: boolean;
  /** The CI files and the baseline (undefined: none asked). */
  ci: CiPlan | undefined;
  /** Where the run is recorded, and the source that names its job when --job does not (createJob). */
  record: { history: HistoryFlags; job: CreateSource };
  /** --part: the share is written to this run part (for `history merge`), not recorded; undefined without it. */
  part: PartPlan | undefined;
  /** --record --pipeline KEY: the share records into its pipeline's one run (PostgreSQL); undefined without it. */
  pipelineShare: PipelineSharePlan | undefined;
}

/**
 * Every check of `reports create` that needs no network. An output that is an input or another output, and a journal
 * that is another file of the user's, are refused untouched; a journal in a missing folder or in use by another run
 * too. The journal's lock is taken last: the run releases it, whatever happens.
 */
export function planReportsCreate(ctx: CommandContext, opts: ReportsCreateOptions): ReportsCreatePlan {
  refuseUrlForAssert(opts);
  const { urls, fromFile, fromSitemap, passwordStdin, passwordFile, privacy, journal, dryRun } = opts;
  if (passwordStdin && fromFile === '-') {
    throw new UsageError('--password-stdin and --from-file - both want standard input', { hint: 'use --password-file PATH' });
  }
  if (urls.length === 0 && fromFile === undefined && fromSitemap === undefined) throw noUrlError();
  if (fromFile !== undefined && fromFile !== '-') checkRegularFile(fromFile, 'URL file', URL_FILE_HINT);
  for (const source of fromSitemap ?? []) {
    const problem = /^https?:\/\//i.test(source) ? reportUrlProblem(source) : undefined;
    if (problem !== undefined) throw new UsageError(`--from-sitemap ${JSON.stringify(source)} ${problem}`);
  }
  ctx.checkOutputFlags();
  checkPasswordFlags(ctx.io, opts, { required: true });
  const files: RunFile[] = [
    { flag: '--from-file', path: fromFile === '-' ? undefined : fromFile, reads: true },
    ...(fromSitemap ?? []).map((source) => ({ flag: '--from-sitemap', path: /^https?:\/\//i.test(source) ? undefined : source, reads: true })),
    { flag: '--password-file', path: passwordFile, reads: true },
    { flag: '--journal', path: journal, reads: true, writes: true },
  ];
  const { allowEmpty, shard, include, exclude, maxUrls, failOn, minScore, failOnCheck, failOnImportance, codequality } = opts;
  const part = planPart(ctx, opts);
  const history = planHistory(ctx, opts);
  const pipelineShare = planPipelineShare(ctx, opts, history.record === true);
  files.push({ flag: '--part', path: opts.part, writes: true });
  const ci = planCiFiles(opts, { allowEmpty, fromFile, fromSitemap }, [...files, ...verdictFiles(opts, ctx.io.env)]);
  const selection = compileSelection(opts);
  const { assertions } = checkVerdictFlags(ctx, opts);
  const gate = { failOn, minScore, failOnCheck, failOnImportance, assertions, allowEmpty, codequality, selection: { what: 'the input URLs' } };
  const judged = [failOn, minScore, failOnCheck, failOnImportance, opts.maxDrop, opts.failOnNewFailures, assertions].some((value) => value !== undefined);
  return {
    command: opts.command ?? 'reports create',
    source: {
      urls,
      fromFile,
      fromSitemap,
      skipInvalid: opts.skipInvalid === true,
      allowHosts: (opts.allowHost ?? []).map((host) => allowedHost(host)),
      sitemapLimits: {
        sitemaps: opts.maxSitemaps ?? DEFAULT_MAX_SITEMAPS,
        urls: opts.maxSitemapUrls ?? DEFAULT_MAX_SITEMAP_URLS,
        timeMs: opts.maxSitemapTime ?? DEFAULT_MAX_SITEMAP_TIME_MS,
      },
    },
    emptyIsNoOp: urls.length === 0 && fromSitemap === undefined && fromFile !== undefined && (fromFile !== '-' || !ctx.io.stdinIsTTY),
    alwaysList: fromFile !== undefined || fromSitemap !== undefined || shard !== undefined || urls.length > 1,
    selection,
    shard,
    privacy: { privacy, passwordStdin, passwordFile },
    concurrency: opts.concurrency,
    existing: opts.existing,
    dryRun: dryRun === true,
    gate,
    judged,
    ci,
    // With --part or --pipeline, the share is no part of the job: every share of the pipeline is of the one job the
    // merge records.
    record: {
      history: part ? { ...history, record: undefined } : history,
      job: { urls, fromFile, fromSitemap, include, exclude, maxUrls, shard: shard && !part && !pipelineShare ? shardText(shard) : undefined },
    },
    part,
    pipelineShare,
    // Last: the lock is held from here, and released by the run whatever happens next.
    journal:
      journal === undefined
        ? undefined
        : {
            path: journal,
            lock: claimJournal(journal, ctx.locks, { dryRun: dryRun === true, held: opts.journalLock }),
            ends: opts.keepJournal !== true,
            resumeWithinMs: opts.resumeWithin ?? (opts.keepJournal === true ? undefined : durationMs(DEFAULT_RESUME_WITHIN)),
          },
  };
}

/** --max-sitemap-time: a duration in minutes, hours, days or weeks (`30m`, `2h`), as the history's flags take them. */
function sitemapTimeParser(value: string): number {
  const ms = durationMs(value);
  if (ms === undefined || ms === 0) throw new InvalidArgumentError('--max-sitemap-time must be a duration such as 30m or 2h.');
  return ms;
}

export function noUrlError(): UsageError {
  return new UsageError('no URL to create a report for', { hint: 'give URLs as arguments, with --from-file or --from-sitemap' });
}
