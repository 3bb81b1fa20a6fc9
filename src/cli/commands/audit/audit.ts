// `rsapi audit`: the weekly job as one command, as `lhci autorun` is for Lighthouse CI. It reads the `audit` section
// of rsapi.config.json, runs `reports create` over the job's pages (refresh, record, compare with the job's last run),
// keeps the journal itself, and says what it did.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Option } from '@commander-js/extra-typings';
import { dataDir } from '../../../config/paths.js';
import { plural } from '../../../plural.js';
import { collectValues, integerParser, MAX_CONCURRENCY } from '../../flags/options.js';
import { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { ExitCode, type ExitCodeValue } from '../../runtime/exit-codes.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { DEFAULT_ASSERT_FILE } from '../../verdicts/assertions-file.js';
import { resolveHistoryLocation } from '../../reading/recording.js';
import { maxDropParser } from '../../report-files/reporter.js';
import { EXISTING_MODES } from '../reports/create/existing.js';
import type { CreateResult } from '../reports/create/create.js';
import { planReportsCreate, type ReportsCreateOptions, type ReportsCreatePlan } from '../reports/create/plan.js';
import { loadAuditFile, starterFile, type AuditConfig } from './config.js';

function declareAudit(program: ParentCommand) {
  return program
    .command('audit')
    .description("Audit a site's pages as a scheduled job: refresh each report, record the run, fail on what got worse since the job's last run")
    .option('--config <path>', `the file whose "audit" section says what to audit (default ${DEFAULT_ASSERT_FILE} in the working directory)`)
    .option('--init <url>', 'write a starter file for this site (its root or sitemap URL) and exit')
    .option('--job <name>', 'the job (default: the file\'s "job", else the first site\'s host)')
    .option('--history <path|url>', 'the history: a SQLite file or a postgres:// URL (env RSAPI_HISTORY)')
    .option('--include <glob>', "audit only URLs matching this glob (repeatable; replaces the file's)", collectValues)
    .option('--exclude <glob>', "leave out URLs matching this glob (repeatable; replaces the file's)", collectValues)
    .option('--max-urls <n>', 'audit at most the first N URLs', integerParser('--max-urls', 1))
    .addOption(new Option('--existing <mode>', 'for a page that has a report: refresh (the default), skip, or new').choices(EXISTING_MODES))
    .option('--fail-on-new-failures', 'exit 10 when a page fails a check it passed in the last run')
    .option('--no-fail-on-new-failures', 'do not fail on newly failing checks, whatever the file says')
    .option('--max-drop <points>', 'exit 10 when a score fell by more than this or a result got worse', maxDropParser)
    .option('--allow-empty', 'a run that audits no page passes (by default a gate over nothing fails)')
    .option('--require-baseline', 'exit 4 when the job has no earlier run in the history (a history lost), rather than pass as its first run')
    .option('--no-require-baseline', 'let a run with no earlier run pass as the first run, whatever the file says')
    .option('--html <path>', 'write the run as one HTML page')
    .option('--junit <path>', 'write a JUnit XML file')
    .option('--summary <path>', 'append a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)')
    .option('--codequality <path>', "write GitLab's Code Quality report")
    .option('--concurrency <n>', `requests in flight at once (1 to ${MAX_CONCURRENCY})`, integerParser('--concurrency', 1, MAX_CONCURRENCY), 4);
}

export type AuditOptions = OptionsOf<ReturnType<typeof declareAudit>>;

export function registerAudit(program: ParentCommand, invocation: Invocation): void {
  const command = declareAudit(program);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi audit --init https://example.com/     # writes rsapi.config.json for the site
  $ rsapi audit                                 # the weekly job: refresh, record, compare, fail on new failures
  $ rsapi audit --html weekly.html --summary "$GITHUB_STEP_SUMMARY"
  $ rsapi audit --config sites/shop.json --json

It always records the run (--record) and compares it with the last run of its job (--baseline last); the first run
starts the job's history. Its journal lives beside the history, one per job: an audit killed part-way resumes on the
next call and never creates a report twice; one that ended never makes the next skip a page. The "assert" rules of
the same file judge every page too. Flags override the file. Exit codes as for \`reports create\` (10: a gate failed).`,
  );
  handle(invocation, command, { plan: planAudit, run: (ctx, plan) => runAudit(ctx, plan, invocation) });
}

/** What the audit did, as its output says it (json with --json, lines otherwise). */
export interface AuditResult {
  job: string;
  exitCode: number;
  pages: number;
  run: number | undefined;
  baseline: number | undefined;
  new: string[];
  vanished: string[];
  files: string[];
}

/** What `rsapi audit` will do: write a starter file, or run the job's create and say what it did. */
export type AuditPlan =
  | { init: { path: string; site: string } }
  | {
      job: string;
      /** The `reports create` this audit is (its journal's lock held from here until the run ends). */
      create: ReportsCreatePlan;
      /** The files it writes, as the result names them. */
      files: string[];
      json: boolean;
    };

/** Every check of `rsapi audit` that needs no network: its output flags, the file read, the create planned. */
export function planAudit(ctx: CommandContext, opts: AuditOptions): AuditPlan {
  const { json, output, quiet, fields, jq } = ctx.globals;
  if ((output !== undefined && output !== 'json') || quiet || fields || jq !== undefined) {
    throw new UsageError('rsapi audit prints what it did, as lines or as one JSON object (--json); other output flags do not apply', {
      hint: 'leave out -o, -q, --fields and --jq, or give --json',
    });
  }
  const configPath = opts.config ?? DEFAULT_ASSERT_FILE;
  if (opts.init !== undefined) return { init: { path: configPath, site: opts.init } };
  const file = loadAuditFile(configPath);
  const audit = file.audit;
  const job = opts.job ?? audit.job ?? defaultJob(audit);
  const options = createOptionsOf(ctx, opts, audit, job, file.hasAssertions ? configPath : undefined);
  const files = [options.html, options.junit, options.summary, options.codequality].filter((path) => path !== undefined);
  // An audit is a gate, whatever the file sets: a week with no page (an empty sitemap) fails unless --allow-empty.
  return { job, files, json: json === true || output === 'json', create: { ...planReportsCreate(ctx, options), judged: true } };
}

export async function runAudit(ctx: CommandContext, plan: AuditPlan, invocation: Invocation): Promise<ExitCodeValue> {
  if ('init' in plan) return writeStarter(ctx, plan.init.path, plan.init.site);
  const done = await runQuietly(ctx, invocation, plan.create);
  const result: AuditResult = {
    job: plan.job,
    exitCode: done.code,
    pages: done.reports,
    run: done.run,
    baseline: done.baseline,
    new: done.comparison?.newUrls ?? [],
    vanished: done.comparison?.vanished ?? [],
    files: plan.files,
  };
  ctx.io.stdout.write(plan.json ? `${JSON.stringify(result, null, 2)}\n` : describe(result));
  return done.code;
}

/** The `reports create` this audit is: the file's keys, the flags over them, and what an audit always does. */
function createOptionsOf(ctx: CommandContext, opts: AuditOptions, audit: AuditConfig, job: string, assertPath: string | undefined): ReportsCreateOptions {
  const nonEmpty = (list: string[] | undefined) => (list && list.length > 0 ? list : undefined);
  const history = opts.history ?? audit.history;
  const maxDrop = opts.maxDrop ?? audit.maxDrop;
  return {
    urls: audit.urls ?? [],
    fromSitemap: nonEmpty(audit.sitemaps),
    fromFile: audit.urlFile,
    include: nonEmpty(opts.include ?? audit.include),
    exclude: nonEmpty(opts.exclude ?? audit.exclude),
    maxUrls: opts.maxUrls ?? audit.maxUrls,
    existing: opts.existing ?? audit.existing ?? 'refresh',
    concurrency: opts.concurrency,
    record: true,
    history,
    job,
    baseline: 'last',
    failOnNewFailures: (opts.failOnNewFailures ?? audit.failOnNewFailures) === true ? true : undefined,
    requireBaseline: (opts.requireBaseline ?? audit.requireBaseline) === true ? true : undefined,
    maxDrop,
    allowEmpty: opts.allowEmpty,
    assert: assertPath,
    html: opts.html ?? audit.html,
    junit: opts.junit ?? audit.junit,
    summary: opts.summary ?? audit.summary,
    codequality: opts.codequality ?? audit.codequality,
    journal: journalPath(ctx, history, job),
    command: 'audit',
  };
}

/** The job's name when the file gives none: the first site's host, else the URL file's name. */
function defaultJob(audit: AuditConfig): string {
  const first = audit.sitemaps?.[0] ?? audit.urls?.[0];
  return first !== undefined ? new URL(first).hostname.replace(/^www\./, '') : (audit.urlFile as string);
}

/**
 * The job's journal, beside the history (its SQLite file's folder, else the data folder): one per job, so an audit
 * killed part-way resumes on the next call, and one that ended starts afresh (journal.ts).
 */
function journalPath(ctx: CommandContext, history: string | undefined, job: string): string {
  const location = resolveHistoryLocation(ctx, { history });
  const folder = join(location.kind === 'sqlite' ? dirname(location.path) : dataDir(ctx.io.env), 'audit');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const slug = job.replace(/[^a-z0-9.-]+/gi, '-').slice(0, 60);
  const key = createHash('sha256').update(job).digest('hex').slice(0, 12);
  return join(folder, `${slug}-${key}.journal`);
}

/**
 * Runs the create with its records kept off stdout (the audit prints what it did instead), in a context of its own:
 * what it did, with the run as the history recorded it.
 */
async function runQuietly(ctx: CommandContext, invocation: Invocation, plan: ReportsCreatePlan): Promise<CreateResult> {
  const { runReportsCreate } = await import('../reports/create/create.js');
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
    return await runReportsCreate(inner, plan);
  } finally {
    await inner.close();
  }
}

/** What the audit did, in lines a person reads in a log. */
function describe(result: AuditResult): string {
  const lines = [
    `audit ${result.job}: ${plural(result.pages, 'page')} audited` +
      (result.run === undefined ? ' (not recorded)' : `, recorded as run ${result.run}`) +
      (result.baseline === undefined ? '; no earlier run to compare with' : `, compared with run ${result.baseline}`),
  ];
  // The pages themselves are named on stderr with the comparison (20 of each), and --json gives them all.
  if (result.new.length + result.vanished.length > 0)
    lines.push(`pages: ${result.new.length} new, ${result.vanished.length} vanished since run ${result.baseline}`);
  if (result.files.length > 0) lines.push(`wrote: ${result.files.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** `--init URL`: the starter file, never over an existing one. */
function writeStarter(ctx: CommandContext, path: string, site: string): ExitCodeValue {
  if (!/^https?:\/\/[^/]/i.test(site)) throw new UsageError(`--init ${site}: give the site's root or sitemap as an http(s) URL`);
  if (existsSync(path))
    throw new UsageError(`${path} exists; rsapi audit --init writes a new file only`, {
      hint: 'add an "audit" section to it by hand, or give --config NEW.json',
    });
  // As docs/assertions.md: the schema the package ships, where a project's install puts it.
  writeFileSync(path, starterFile(site, './node_modules/rsapi/schema/rsapi.config.schema.json'), { flag: 'wx' });
  ctx.note(`rsapi: wrote ${path}: edit it, then run \`rsapi audit${path === DEFAULT_ASSERT_FILE ? '' : ` --config ${path}`}\``);
  return ExitCode.ok;
}
