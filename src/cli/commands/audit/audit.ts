// `rsapi audit`: the weekly job as one command, as `lhci autorun` is for Lighthouse CI. It reads the `audit` section
// of rsapi.config.json, runs `reports create` over the job's pages (refresh, record, compare with the job's last run),
// keeps the journal itself, and says what it did.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Option } from '@commander-js/extra-typings';
import { normaliseBaseUrl } from '../../../api/http/base-url.js';
import { describeOwner, type HeldLock, type LockAttempt } from '../../../config/lock-file.js';
import { HistoryError } from '../../../history/errors.js';
import { plural } from '../../../plural.js';
import { collectValues, durationParser, integerParser } from '../../flags/options.js';
import { historyOption } from '../../flags/history-values.js';
import { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { fileError } from '../../runtime/files.js';
import { ExitCode, type ExitCodeValue } from '../../runtime/exit-codes.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { DEFAULT_ASSERT_FILE } from '../../verdicts/assertions-file.js';
import { resolveHistoryLocation, selectionKey } from '../../reading/history-place.js';
import { parseShard } from '../../bulk/shard.js';
import { linesAtWords } from '../../terminal/stderr.js';
import { terminalWidth } from '../../terminal/terminal.js';
import { planHistoryMerge, runHistoryMerge, type HistoryMergePlan, type MergeResult } from '../history/merge.js';
import { CI_OPTIONS } from '../../report-files/ci-options.js';
import { VERDICT_OPTIONS } from '../../verdicts/options.js';
import { EXISTING_MODES } from '../reports/create/existing.js';
import type { CreateResult } from '../reports/create/create.js';
import {
  addSitemapOptions,
  DEFAULT_RESUME_WITHIN,
  PARTIAL_FILES_HELP,
  planReportsCreate,
  type ReportsCreateOptions,
  type ReportsCreatePlan,
  concurrencyOption,
} from '../reports/create/plan.js';
import { fileReason } from '../../runtime/files.js';
import { loadAuditFile, type AuditConfig } from './config.js';
import { planStarter, writeStarter, type StarterPlan } from './init.js';
import { HistoryJournalStore, historyJournalName, type JobInHistory, lockJobInHistory } from './job-lock.js';
import type { JournalStore } from '../reports/create/journal.js';
import { durationMs } from '../../flags/history-values.js';

function declareAudit(program: ParentCommand) {
  return program
    .command('audit')
    .description("Audit a site's pages as a scheduled job: refresh each report, record the run, fail on what got worse since the job's last run")
    .option('--config <path>', `the file whose "audit" section says what to audit (default ${DEFAULT_ASSERT_FILE} in the working directory)`)
    .option('--init <url>', 'write a starter file for this site (its root or sitemap URL) and exit')
    .option('--job <name>', 'the job (default: the file\'s "job", else the first site\'s host)')
    .addOption(historyOption())
    .option(
      '--lock-wait <duration>',
      'with a PostgreSQL history, wait up to this long (e.g. 30m) for another runner of the job to end (default: refuse at once)',
      durationParser('--lock-wait'),
    )
    .option('--include <glob>', "audit only URLs matching this glob (repeatable; replaces the file's)", collectValues)
    .option('--exclude <glob>', "leave out URLs matching this glob (repeatable; replaces the file's)", collectValues)
    .option('--max-urls <n>', 'audit at most the first N URLs', integerParser('--max-urls', 1))
    .addOption(new Option('--existing <mode>', 'for a page that has a report: refresh (the default), skip, or new').choices(EXISTING_MODES))
    .option(
      '--resume-within <duration>',
      `a killed audit's next call skips the pages it audited within this time (default ${DEFAULT_RESUME_WITHIN}); older ones are audited again`,
      durationParser('--resume-within'),
    )
    .addOption(CI_OPTIONS.failOnNewFailures())
    .option('--no-fail-on-new-failures', 'do not fail on newly failing checks, whatever the file says')
    .addOption(CI_OPTIONS.maxDrop())
    .addOption(VERDICT_OPTIONS.allowEmpty())
    .addOption(CI_OPTIONS.requireBaseline())
    .option('--no-require-baseline', 'let a run with no earlier run pass as the first run, whatever the file says')
    .addOption(CI_OPTIONS.html())
    .addOption(CI_OPTIONS.junit())
    .addOption(CI_OPTIONS.summary())
    .addOption(VERDICT_OPTIONS.codequality())
    .option('--partial-files', PARTIAL_FILES_HELP)
    .addOption(concurrencyOption())
    .option('--shard <i/n>', 'audit only the I-th of N shares of the pages (by a stable hash of each URL), with --part', parseShard)
    .option('--part <file>', 'write the share to this run part instead of the history, for `rsapi audit --merge`')
    .option(
      '--pipeline <key>',
      "the pipeline a --part belongs to (env RSAPI_PIPELINE; default: the CI's run, GitHub's or GitLab's); without --part, on a PostgreSQL history, the share records into the pipeline's one run",
    )
    .option('--merge <parts...>', "join these run parts of one pipeline into one run of the job, and judge it with the file's settings")
    .option('--allow-partial', 'with --merge and shares missing: record the run incomplete and judge what is there, rather than exit 12');
}

/** The audit's own flags, and what a sitemap may lead to and its budget, as `reports create` takes them. */
function declareAuditWithSitemaps(program: ParentCommand) {
  return addSitemapOptions(declareAudit(program));
}

export type AuditOptions = OptionsOf<ReturnType<typeof declareAuditWithSitemaps>>;

export function registerAudit(program: ParentCommand, invocation: Invocation): void {
  const command = declareAuditWithSitemaps(program);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi audit --init https://example.com/     # writes rsapi.config.json for the site
  $ rsapi audit                                 # the weekly job: refresh, record, compare, fail on new failures
  $ rsapi audit --html weekly.html --summary "$GITHUB_STEP_SUMMARY"
  $ rsapi audit --config sites/shop.json --json

It always records the run (--record) and compares it with the last run of its job (--baseline last); the first run
starts the job's history. It keeps a journal and a lock for each job, service and history: beside a SQLite history
(HISTORY.audit-JOB-KEY.journal), or in a PostgreSQL history itself, where every runner of the job meets them (a second
runner is refused, or waits with --lock-wait). An audit killed part-way resumes on the next call, on this machine or
another, and never creates a report twice; one that ended never makes the next skip a page. The "assert" rules of the
same file judge every page too. Flags override the file. -q prints the run id alone. Exit codes as for
\`reports create\` (10: a gate failed, 130: interrupted).`,
  );
  handle(invocation, command, { plan: planAudit, run: (ctx, plan) => runAudit(ctx, plan, invocation) });
}

/** What the audit did, as its output says it (json with --json, the run id with -q, lines otherwise). */
export interface AuditResult {
  job: string;
  exitCode: number;
  /** Pages audited: a report read (created, refreshed, kept, or created by the run this one resumed). */
  pages: number;
  /** Pages of the input (after include, exclude and maxUrls). */
  input: number;
  /** The pages of the input not audited, and why: never a silent shortfall. */
  notAudited: NotAudited[];
  /** Stopped by Ctrl-C or SIGTERM (exit 130): the next call resumes it. */
  interrupted: boolean;
  run: number | undefined;
  /** The history failed part-way: the run kept incomplete (never a baseline), with the pages written before. */
  recordedIncomplete?: { run: number; pages: number };
  baseline: number | undefined;
  /** Why the job's last run could not be read from the history, when it could not: nothing was compared. */
  baselineFailure?: string;
  new: string[];
  vanished: string[];
  /** Pages the baseline run could not audit, compared with their reading in an earlier run (`run`) instead. */
  comparedEarlier: { url: string; run: number }[];
  /** Pages failing checks they passed in the baseline, with those checks. */
  newlyFailing: { url: string; checks: string[] }[];
  /** Pages whose score fell or result got worse since the baseline, worst first. */
  regressions: { url: string; before: Reading; now: Reading; drop?: number }[];
  files: string[];
  /** `rsapi audit --merge --allow-partial`: the shares missing from the merged run (`2/3`), which is recorded incomplete. */
  missingShares?: string[];
}

/** A page not audited: it failed, may exist (unsettled), was never sent, or an earlier run's report is gone. */
export interface NotAudited {
  url: string;
  status: 'failed' | 'unsettled' | 'not started' | 'gone';
  why: string;
}

/** A page's score and result, as the comparison read them. */
interface Reading {
  score?: number;
  result?: string;
}

/** What `rsapi audit` will do: write a starter file, run the job's create, or merge its shares' parts; and say what it did. */
export type AuditPlan =
  | { init: StarterPlan }
  | { job: string; merge: HistoryMergePlan; files: string[]; print: 'lines' | 'json' | 'id' }
  | {
      job: string;
      /** The `reports create` this audit is (a SQLite history: its journal's lock held from here until the run ends). */
      create: ReportsCreatePlan;
      /** A PostgreSQL history keeps the job's lock and journal: the run takes the lock before anything is sent. */
      inHistory: JobInHistory | undefined;
      /** The files it writes, as the result names them. */
      files: string[];
      /** What it prints: lines, one JSON object, or the run id alone (-q). */
      print: 'lines' | 'json' | 'id';
    };

/**
 * Every check of `rsapi audit` that needs no network: its output flags, the file read, the job's journal locked (no
 * other audit of the job, service and history runs), the create planned.
 */
export function planAudit(ctx: CommandContext, opts: AuditOptions): AuditPlan {
  const { json, output, quiet, fields, jq } = ctx.globals;
  const asJson = json === true || output === 'json';
  if ((output !== undefined && output !== 'json') || (quiet && asJson) || fields || jq !== undefined) {
    throw new UsageError('rsapi audit prints what it did, as lines, as one JSON object (--json) or as its run id (-q); other output flags do not apply', {
      hint: 'leave out -o, --fields and --jq; give --json or -q, not both',
    });
  }
  const configPath = opts.config ?? DEFAULT_ASSERT_FILE;
  if (opts.init !== undefined) return { init: planStarter(configPath, opts.init) };
  const file = loadAuditFile(configPath);
  const audit = file.audit;
  const job = opts.job ?? audit.job ?? defaultJob(audit);
  const options = createOptionsOf(opts, audit, job, file.hasAssertions ? configPath : undefined);
  const files = [options.html, options.junit, options.summary, options.codequality].filter((path) => path !== undefined);
  const print = quiet ? 'id' : asJson ? 'json' : 'lines';
  if (opts.merge !== undefined) return { job, files, print, merge: planAuditMerge(ctx, opts, options, job) };
  // The shares of one pipeline run side by side (on one machine, or on one PostgreSQL history): each keeps a journal and
  // a lock of its own.
  const shard = opts.part === undefined && opts.pipeline === undefined ? undefined : opts.shard;
  const keyed = shard === undefined ? job : `${job} shard ${shard.index}/${shard.count}`;
  const location = resolveHistoryLocation(ctx, { history: options.history });
  if (opts.lockWait !== undefined && location.kind !== 'postgres') {
    throw new UsageError("--lock-wait waits for a job's lock in a PostgreSQL history; a SQLite history's lock refuses a second audit at once", {
      hint: 'leave out --lock-wait, or give a postgres:// history',
    });
  }
  if (location.kind === 'postgres') {
    // The lock and the journal are the history's: taken by the run (they need the network), before anything is sent.
    const create = { ...planReportsCreate(ctx, options), judged: true };
    const key = jobKey(keyed, serviceOf(ctx), undefined);
    const resumeWithinMs = options.resumeWithin ?? durationMs(DEFAULT_RESUME_WITHIN);
    create.journal = { path: historyJournalName(keyed, location.shown), lock: undefined, ends: true, resumeWithinMs };
    return { job, files, print, create, inHistory: { location, key, waitMs: opts.lockWait ?? 0 } };
  }
  const journal = journalPath(location.path, jobKey(keyed, serviceOf(ctx), 'sqlite'));
  const lock = lockJournal(ctx, journal, job);
  try {
    // An audit is a gate, whatever the file sets: a week with no page (an empty sitemap) fails unless --allow-empty.
    const create = { ...planReportsCreate(ctx, { ...options, journal, journalLock: lock }), judged: true };
    return { job, files, print, create, inHistory: undefined };
  } catch (error) {
    lock.release();
    throw error;
  }
}

export async function runAudit(ctx: CommandContext, plan: AuditPlan, invocation: Invocation): Promise<ExitCodeValue> {
  if ('init' in plan) {
    await writeStarter(ctx, plan.init);
    return ExitCode.ok;
  }
  if ('merge' in plan) {
    const merged = mergedResultOf(plan.job, await runQuietly(ctx, invocation, (inner) => runHistoryMerge(inner, plan.merge)), plan.files);
    return printResult(ctx, merged, plan.print);
  }
  const held = plan.inHistory && (await lockJobInHistory(ctx, plan.job, plan.inHistory));
  if (plan.inHistory && held === undefined) {
    ctx.note(`rsapi: interrupted while waiting for the lock of job ${plan.job}; nothing was sent`);
    return ExitCode.interrupted;
  }
  let done: CreateResult;
  try {
    const create = held && plan.inHistory ? journalIn(plan.create, new HistoryJournalStore(held, plan.job, plan.inHistory.location.shown)) : plan.create;
    done = await runQuietly(ctx, invocation, (inner) => runCreate(inner, create));
  } finally {
    await held?.release();
  }
  return printResult(ctx, resultOf(plan.job, done, plan.files), plan.print);
}

/** What the audit did, printed as asked (lines, one JSON object, or the run id alone), and its exit code. */
function printResult(ctx: CommandContext, result: AuditResult, print: 'lines' | 'json' | 'id'): ExitCodeValue {
  const text = {
    lines: () => describe(result),
    json: () => `${JSON.stringify(result, null, 2)}\n`,
    id: () => (result.run === undefined ? '' : `${result.run}\n`),
  };
  // On a terminal the lines break at words, as stderr's do: its edge cut `recorded` / ` as run 2` at 40 columns.
  const shown = text[print]();
  ctx.io.stdout.write(print === 'lines' && ctx.io.stdoutIsTTY ? linesAtWords(shown, terminalWidth(ctx.io)) : shown);
  return result.exitCode as ExitCodeValue;
}

async function runCreate(ctx: CommandContext, plan: ReportsCreatePlan): Promise<CreateResult> {
  const { runReportsCreate } = await import('../reports/create/create.js');
  return runReportsCreate(ctx, plan);
}

/**
 * `rsapi audit --merge PART...`: `history merge` with the file's settings (its history, its gates and files, the
 * baseline last), the parts being of this audit's job.
 */
function planAuditMerge(ctx: CommandContext, opts: AuditOptions, options: ReportsCreateOptions, job: string): HistoryMergePlan {
  if (opts.part !== undefined || opts.shard !== undefined) throw new UsageError('--merge joins the parts the shards wrote: leave out --part and --shard');
  const { history, failOnNewFailures, maxDrop, requireBaseline, allowEmpty, assert, html, junit, summary, codequality } = options;
  const merge = planHistoryMerge(ctx, {
    parts: opts.merge ?? [],
    allowPartial: opts.allowPartial,
    history,
    baseline: 'last',
    failOnNewFailures,
    maxDrop,
    requireBaseline,
    allowEmpty,
    assert,
    html,
    junit,
    summary,
    codequality,
  });
  // An audit is a gate, whatever the file sets: a week with no page fails unless --allow-empty.
  return { ...merge, judged: true, expect: { command: 'audit', job: selectionKey({ job }) } };
}

/** What the merge did, as the audit says it. */
function mergedResultOf(job: string, done: MergeResult, files: string[]): AuditResult {
  const result = resultOf(job, { ...done, urls: [], stoppedBy: undefined }, files);
  const notAudited: NotAudited[] = done.entries.flatMap((entry) =>
    entry.status === 'failed' || entry.status === 'unsettled' || entry.status === 'not started' || entry.status === 'gone'
      ? [{ url: entry.url, status: entry.status, why: entry.message ?? `${entry.status} in its shard` }]
      : [],
  );
  return { ...result, input: done.entries.length, notAudited, missingShares: done.missing };
}

/** What the create did, as the audit says it: pages audited of the input, those not and why, and what got worse. */
function resultOf(job: string, done: CreateResult, files: string[]): AuditResult {
  const comparison = done.comparison;
  return {
    job,
    exitCode: done.code,
    pages: done.reports,
    input: done.urls.length,
    notAudited: notAudited(done),
    interrupted: done.code === ExitCode.interrupted,
    run: done.run,
    ...(done.kept !== undefined && { recordedIncomplete: done.kept }),
    baseline: done.baseline,
    ...(done.baselineFailure !== undefined && { baselineFailure: done.baselineFailure }),
    new: comparison?.newUrls ?? [],
    vanished: comparison?.vanished ?? [],
    comparedEarlier: (comparison?.comparedEarlier ?? []).map(({ url, run }) => ({ url, run })),
    newlyFailing: (comparison?.checkChanges ?? [])
      .filter((change) => change.newFailures.length > 0)
      .map(({ url, newFailures }) => ({ url, checks: newFailures })),
    regressions: (comparison?.regressions ?? []).map(({ url, before, now, drop }) => ({
      url,
      before: { score: before.score, result: before.result },
      now: { score: now.score, result: now.result },
      ...(drop !== undefined && { drop }),
    })),
    files: files.map((path) => done.besides?.get(path) ?? path),
  };
}

/** Each page of the input that the run read no report for, with why. */
function notAudited(done: CreateResult): NotAudited[] {
  const pages: NotAudited[] = [];
  for (const outcome of done.urls) {
    const { url } = outcome;
    if (outcome.status === 'failed' || outcome.status === 'unsettled') pages.push({ url, status: outcome.status, why: outcome.message });
    else if (outcome.status === 'not started') pages.push({ url, status: 'not started', why: done.stoppedBy ?? 'the run stopped' });
    else if (outcome.status === 'created earlier' && outcome.report === undefined)
      pages.push({ url, status: 'gone', why: 'created by the run this one resumed; not found on the service now' });
  }
  return pages;
}

/** The `reports create` this audit is: the file's keys, the flags over them, and what an audit always does. */
function createOptionsOf(opts: AuditOptions, audit: AuditConfig, job: string, assertPath: string | undefined): ReportsCreateOptions {
  const nonEmpty = (list: string[] | undefined) => (list && list.length > 0 ? list : undefined);
  const history = opts.history ?? audit.history;
  const maxDrop = opts.maxDrop ?? audit.maxDrop;
  // A shard of a pipeline (a part, or the pipeline's one run in a PostgreSQL history) compares with no baseline.
  const shard = opts.part !== undefined || opts.pipeline !== undefined;
  return {
    urls: audit.urls ?? [],
    fromSitemap: nonEmpty(audit.sitemaps),
    fromFile: audit.urlFile,
    skipInvalid: (audit.skipInvalid ?? true) ? true : undefined,
    allowHost: nonEmpty([...(audit.allowHosts ?? []), ...(opts.allowHost ?? [])]),
    maxSitemaps: opts.maxSitemaps,
    maxSitemapUrls: opts.maxSitemapUrls,
    maxSitemapTime: opts.maxSitemapTime,
    include: nonEmpty(opts.include ?? audit.include),
    exclude: nonEmpty(opts.exclude ?? audit.exclude),
    maxUrls: opts.maxUrls ?? audit.maxUrls,
    existing: opts.existing ?? audit.existing ?? 'refresh',
    resumeWithin: opts.resumeWithin ?? audit.resumeWithin,
    concurrency: opts.concurrency,
    // A shard writing a part records nothing and compares with no baseline: the merge does both, once. One of a
    // pipeline in a PostgreSQL history records into the pipeline's one run.
    record: opts.part !== undefined ? undefined : true,
    history,
    job,
    baseline: shard ? undefined : 'last',
    failOnNewFailures: !shard && (opts.failOnNewFailures ?? audit.failOnNewFailures) === true ? true : undefined,
    requireBaseline: !shard && (opts.requireBaseline ?? audit.requireBaseline) === true ? true : undefined,
    maxDrop: shard ? undefined : maxDrop,
    shard: opts.shard,
    part: opts.part,
    pipeline: opts.pipeline,
    allowEmpty: opts.allowEmpty,
    assert: assertPath,
    html: opts.html ?? audit.html,
    junit: opts.junit ?? audit.junit,
    summary: opts.summary ?? audit.summary,
    codequality: opts.codequality ?? audit.codequality,
    partialFiles: opts.partialFiles,
    command: 'audit',
  };
}

/** The job's name when the file gives none: the first site's host, else the URL file's name. */
function defaultJob(audit: AuditConfig): string {
  const first = audit.sitemaps?.[0] ?? audit.urls?.[0];
  return first !== undefined ? new URL(first).hostname.replace(/^www\./, '') : (audit.urlFile as string);
}

/**
 * The key of the job on this service in this history, a short hash: an audit killed part-way resumes on the next call,
 * one that ended starts afresh (journal.ts), and an audit of the same job on another service (staging after
 * production) never takes the other's pages for done. A SQLite history is named by where the journal is (`sqlite`): its
 * path in the key would lose the journal when moved; a PostgreSQL history holds the journal itself (`undefined`).
 */
function jobKey(job: string, service: string, where: string | undefined): string {
  const slug = job.replace(/[^a-z0-9.-]+/gi, '-').slice(0, 60);
  const hash = createHash('sha256')
    .update(JSON.stringify(where === undefined ? [job, service] : [job, service, where]))
    .digest('hex')
    .slice(0, 12);
  return `${slug}-${hash}`;
}

/**
 * The journal of a job beside its SQLite history (`HISTORY.audit-JOB-KEY.journal`), so that a history carried between CI
 * runners carries its journal and lock.
 */
function journalPath(history: string, key: string): string {
  const path = join(dirname(history), `${basename(history)}.audit-${key}.journal`);
  // A folder the journal cannot be written in is the history's fault (exit 11), said before anything is sent.
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // A file made and removed: what the journal needs, where a mode check says yes to root on a read-only file system.
    const probe = join(dirname(path), `.rsapi-probe-${process.pid}`);
    closeSync(openSync(probe, 'wx', 0o600));
    rmSync(probe);
  } catch (error) {
    throw new HistoryError(`cannot write the audit's journal beside the history in ${dirname(path)}: ${fileReason(error)}; nothing was sent`, 'unwritable', {
      cause: error,
      hint: 'give a history in a folder you can write: --history PATH (or "history" in the file)',
    });
  }
  return path;
}

/** The service audited: its base URL as rsapi uses it (origin and path), or as given when that is no URL (the run refuses it). */
function serviceOf(ctx: CommandContext): string {
  const given = ctx.settings().baseUrl ?? '';
  try {
    return normaliseBaseUrl(given);
  } catch {
    return given;
  }
}

/**
 * The journal's lock (`JOURNAL.lock`), taken before the create is planned: a second audit of the job (a cron
 * overlap) is refused at once, told who runs it in audit's words; a lock whose process is gone or was another is taken
 * over (the run says so).
 */
function lockJournal(ctx: CommandContext, journal: string, job: string): HeldLock {
  const lockPath = `${journal}.lock`;
  let attempt: LockAttempt;
  try {
    attempt = ctx.locks.tryLock(lockPath);
  } catch (error) {
    throw fileError('open the journal', journal, error);
  }
  if ('held' in attempt) return attempt.held;
  const holder = attempt.owner ? describeOwner(attempt.owner) : attempt.holder > 0 ? `pid ${attempt.holder}` : 'a process starting';
  throw new UsageError(`another \`rsapi audit\` of job ${job} is running (${holder}; lock file ${lockPath})`, {
    hint: 'wait for it, or give this one another job with --job',
  });
}

/** The create with its journal kept in `store` (a PostgreSQL history's), named as the store names it. */
function journalIn(create: ReportsCreatePlan, store: JournalStore): ReportsCreatePlan {
  if (create.journal === undefined) return create;
  return { ...create, journal: { ...create.journal, path: store.name, store } };
}

/**
 * Runs the create with its records kept off stdout (the audit prints what it did instead), in a context of its own:
 * what it did, with the run as the history recorded it.
 */
async function runQuietly<T>(ctx: CommandContext, invocation: Invocation, work: (inner: CommandContext) => Promise<T>): Promise<T> {
  const io = Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(ctx.io),
      stdout: { value: { write: () => true }, enumerable: true },
      stdoutIsTTY: { value: false, enumerable: true },
    },
  ) as typeof ctx.io;
  const inner = new CommandContext({ ...invocation, io }, { ...ctx.globals, json: undefined, output: undefined, quiet: true });
  try {
    return await work(inner);
  } finally {
    await inner.close();
  }
}

/** `, recorded as run 5`; or kept incomplete when the history failed part-way, or not recorded at all. */
function recordedAs({ run, recordedIncomplete: kept }: AuditResult): string {
  if (run !== undefined) return `, recorded as run ${run}`;
  return kept ? ` (recorded incomplete as run ${kept.run}: ${plural(kept.pages, 'page')} kept)` : ' (not recorded)';
}

/** `, compared with run 4`; or why not: the job's first run, or a history that could not be read (say what failed). */
function comparedWith(result: AuditResult): string {
  if (result.baseline !== undefined) return `, compared with run ${result.baseline}`;
  if (result.baselineFailure !== undefined) return `; not compared with the job's last run: ${result.baselineFailure}`;
  // Kept short: `audit example.com: 5 pages audited, recorded as run 1, the job's first` fits 80 columns.
  return ", the job's first";
}

/** What the audit did, in lines a person reads in a log; the last one says why pages were not audited, if any were not. */
function describe(result: AuditResult): string {
  const of = result.pages < result.input ? `${result.pages} of ${plural(result.input, 'page')}` : plural(result.pages, 'page');
  const lines = [`audit ${result.job}: ${of} audited${recordedAs(result)}${comparedWith(result)}`];
  // The pages themselves are named on stderr with the comparison (20 of each), and --json gives them all.
  if (result.new.length + result.vanished.length > 0)
    lines.push(`pages: ${result.new.length} new, ${result.vanished.length} vanished since run ${result.baseline}`);
  if (result.missingShares && result.missingShares.length > 0) {
    lines.push(`${result.missingShares.map((share) => `shard ${share} missing`).join(', ')}: the run is recorded incomplete (--allow-partial)`);
  }
  if (result.files.length > 0) lines.push(`wrote: ${result.files.join(', ')}`);
  const shortfall = shortfallLine(result);
  if (shortfall !== undefined) lines.push(shortfall);
  return `${lines.join('\n')}\n`;
}

/**
 * `interrupted: 23 of 30 pages audited; 7 not: 7 not started (interrupted); run \`rsapi audit\` again to finish: its
 * journal resumes the run`: a run that audited fewer pages than its input never ends without saying why.
 */
function shortfallLine(result: AuditResult): string | undefined {
  const missing = result.notAudited;
  if (missing.length === 0 && !result.interrupted) return undefined;
  const counts = new Map<NotAudited['status'], number>();
  for (const page of missing) counts.set(page.status, (counts.get(page.status) ?? 0) + 1);
  const stopped = missing.find((page) => page.status === 'not started')?.why;
  const words: Record<NotAudited['status'], string> = {
    failed: 'failed',
    unsettled: 'unsettled (may have a report: looked up first next time)',
    'not started': `not started (${stopped ?? ''})`,
    gone: 'gone from the service (created by the run this one resumed)',
  };
  const why = [...counts].map(([status, count]) => `${count} ${words[status]}`).join(', ');
  const resumable = missing.some((page) => page.status !== 'gone') || result.interrupted;
  return (
    `${result.interrupted ? 'interrupted: ' : ''}${result.pages} of ${plural(result.input, 'page')} audited` +
    (missing.length > 0 ? `; ${missing.length} not: ${why}` : '') +
    (resumable ? '; run `rsapi audit` again to finish: its journal resumes the run' : '')
  );
}
