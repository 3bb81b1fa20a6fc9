// Plan, then run: each bad input is refused alike by the CLI and by a direct call of the verb's plan and run, before stdin is read or anything is sent.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandContext, type GlobalOptions } from '../../src/cli/runtime/context.js';
import { createInvocation } from '../../src/cli/runtime/invocation.js';
import { exitCodeOf } from '../../src/cli/runtime/exit-codes.js';
import { run } from '../../src/cli/program.js';
import { planApi, runApi, type ApiOptions } from '../../src/cli/commands/api/api.js';
import { planAuthLogin, runAuthLogin, type AuthLoginOptions } from '../../src/cli/commands/auth/login.js';
import { planAuthLogout, runAuthLogout } from '../../src/cli/commands/auth/logout.js';
import { planAuthStatus, runAuthStatus, type AuthStatusOptions } from '../../src/cli/commands/auth/status.js';
import { planAuthSwitch, runAuthSwitch, type AuthSwitchOptions } from '../../src/cli/commands/auth/switch.js';
import { planConfigList, runConfigList } from '../../src/cli/commands/config/list.js';
import { planConfigSet, runConfigSet, type ConfigSetOptions } from '../../src/cli/commands/config/set.js';
import { planConfigUnset, runConfigUnset, type ConfigUnsetOptions } from '../../src/cli/commands/config/unset.js';
import { planMcp, runMcp, type McpOptions } from '../../src/cli/commands/mcp.js';
import { planProjectsDelete, runProjectsDelete, type ProjectsDeleteOptions } from '../../src/cli/commands/projects/delete.js';
import { planProjectsList, runProjectsList, type ProjectsListOptions } from '../../src/cli/commands/projects/list.js';
import { runReportsCreate } from '../../src/cli/commands/reports/create/create.js';
import { planReportsCreate, type ReportsCreateOptions } from '../../src/cli/commands/reports/create/plan.js';
import { planReportsDelete, runReportsDelete, type ReportsDeleteOptions } from '../../src/cli/commands/reports/delete.js';
import { planReportsList, runReportsList, type ReportsListOptions } from '../../src/cli/commands/reports/list.js';
import { planReportsShow, runReportsShow, type ReportsShowOptions } from '../../src/cli/commands/reports/show.js';
import { planReportsStats, runReportsStats, type ReportsStatsOptions } from '../../src/cli/commands/reports/stats.js';
import { planReportsUpdate, runReportsUpdate, type ReportsUpdateOptions } from '../../src/cli/commands/reports/update.js';
import { tempDir } from '../helpers/cli.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { testTerminal, type InProcessOptions } from '../helpers/run.js';

let mock: MockFixture;
const scratch = tempDir('rsapi-validate-');
const urlFile = join(scratch.path, 'urls.txt');
/** A journal another run holds: its lock names a live process that is not this one (vitest's own). */
const lockedJournal = join(scratch.path, 'locked.journal');

beforeAll(async () => {
  mock = await startMock({ seed: 3 });
  writeFileSync(urlFile, 'https://a.example/\n');
  writeFileSync(`${lockedJournal}.lock`, `${process.ppid}\n`);
});
afterAll(async () => {
  await mock.close();
  scratch.cleanup();
});

/** One bad input, given as argv to the CLI and as typed options to the verb's run. */
interface ValidateCase {
  name: string;
  argv: (mock: MockFixture) => string[];
  /** The same invocation, called directly: the options commander would give the run. */
  direct: (ctx: CommandContext, mock: MockFixture) => Promise<unknown>;
  /** The global flags of `argv`, for the direct call's context. */
  globals?: Partial<GlobalOptions>;
  tty?: InProcessOptions['tty'];
  /** Over the mock's environment (undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /** What stdin holds (it must not be read); some text by default. */
  stdin?: string;
  want: RegExp;
}

/** The options a bare `reports create` gets from commander (--concurrency's default). */
const create = (opts: Partial<ReportsCreateOptions>): ReportsCreateOptions => ({ urls: [], concurrency: 4, ...opts });
// A verb called as its handler calls it: the plan, then the run (a plan's refusal is this call's rejection).
const reportsCreateRun = async (ctx: CommandContext, opts: ReportsCreateOptions) => runReportsCreate(ctx, planReportsCreate(ctx, opts));
const reportsListRun = async (ctx: CommandContext, opts: ReportsListOptions) => runReportsList(ctx, planReportsList(ctx, opts));
const reportsDeleteRun = async (ctx: CommandContext, opts: ReportsDeleteOptions) => runReportsDelete(ctx, planReportsDelete(ctx, opts));
const projectsDeleteRun = async (ctx: CommandContext, opts: ProjectsDeleteOptions) => runProjectsDelete(ctx, planProjectsDelete(ctx, opts));
const projectsListRun = async (ctx: CommandContext, opts: ProjectsListOptions) => runProjectsList(ctx, planProjectsList(ctx, opts));
const reportsShowRun = async (ctx: CommandContext, opts: ReportsShowOptions) => runReportsShow(ctx, planReportsShow(ctx, opts));
const reportsStatsRun = async (ctx: CommandContext, opts: ReportsStatsOptions) => runReportsStats(ctx, planReportsStats(ctx, opts));
const reportsUpdateRun = async (ctx: CommandContext, opts: ReportsUpdateOptions) => runReportsUpdate(ctx, planReportsUpdate(ctx, opts));
const mcpRun = async (ctx: CommandContext, opts: McpOptions) => runMcp(ctx, planMcp(ctx, opts));
const apiRun = async (ctx: CommandContext, opts: ApiOptions) => runApi(ctx, planApi(ctx, opts));
const authLoginRun = async (ctx: CommandContext, opts: AuthLoginOptions) => runAuthLogin(ctx, planAuthLogin(ctx, opts));
const authLogoutRun = async (ctx: CommandContext) => runAuthLogout(ctx, planAuthLogout(ctx));
const authStatusRun = async (ctx: CommandContext, opts: AuthStatusOptions) => runAuthStatus(ctx, planAuthStatus(ctx, opts));
const authSwitchRun = async (ctx: CommandContext, opts: AuthSwitchOptions) => runAuthSwitch(ctx, planAuthSwitch(ctx, opts));
const configSetRun = async (ctx: CommandContext, opts: ConfigSetOptions) => runConfigSet(ctx, planConfigSet(ctx, opts));
const configUnsetRun = async (ctx: CommandContext, opts: ConfigUnsetOptions) => runConfigUnset(ctx, planConfigUnset(ctx, opts));
const configListRun = async (ctx: CommandContext) => runConfigList(ctx, planConfigList(ctx));

const CASES: ValidateCase[] = [
  {
    name: 'reports delete - without --yes, nobody to ask',
    argv: () => ['reports', 'delete', '-'],
    direct: (ctx) => reportsDeleteRun(ctx, { ids: ['-'] }),
    want: /^refusing to delete without confirmation: no terminal to ask on$/,
  },
  {
    name: 'reports delete: an id argument that is none, beside -',
    argv: () => ['reports', 'delete', 'abc', '-', '--yes'],
    direct: (ctx) => reportsDeleteRun(ctx, { ids: ['abc', '-'], yes: true }),
    want: /^"abc" is not a report id/,
  },
  {
    name: 'reports delete with --json and -o csv',
    argv: () => ['reports', 'delete', '7', '--yes', '--json', '-o', 'csv'],
    direct: (ctx) => reportsDeleteRun(ctx, { ids: ['7'], yes: true }),
    globals: { json: true, output: 'csv' },
    want: /^--json and -o csv ask for different formats$/,
  },
  {
    name: 'projects delete - without --yes, nobody to ask',
    argv: () => ['projects', 'delete', '-'],
    direct: (ctx) => projectsDeleteRun(ctx, { names: ['-'] }),
    want: /^refusing to delete without confirmation/,
  },
  {
    name: 'projects delete: a path step for a name, beside -',
    argv: () => ['projects', 'delete', '..', '-', '--yes'],
    direct: (ctx) => projectsDeleteRun(ctx, { names: ['..', '-'], yes: true }),
    want: /^"\.\." is not a project name$/,
  },
  {
    name: 'projects list with -q and --json',
    argv: () => ['projects', 'list', '-q', '--json'],
    direct: (ctx) => projectsListRun(ctx, {}),
    globals: { quiet: true, json: true },
    want: /^-q prints only ids, one a line; it cannot be combined with --json$/,
  },
  {
    name: 'mcp with an output flag: its stdout carries the protocol',
    argv: () => ['mcp', '-o', 'csv'],
    direct: (ctx) => mcpRun(ctx, {}),
    globals: { output: 'csv' },
    want: /^output flags \(-o, --json, --fields, -q, --jq\) do not apply to rsapi mcp: its stdout carries the protocol$/,
  },
  {
    name: 'reports update with nothing to change',
    argv: () => ['reports', 'update', '7'],
    direct: (ctx) => reportsUpdateRun(ctx, { id: '7' }),
    want: /^nothing to update$/,
  },
  {
    name: 'reports update: a password from stdin without --privacy password',
    argv: () => ['reports', 'update', '7', '--privacy', 'private', '--password-stdin'],
    direct: (ctx) => reportsUpdateRun(ctx, { id: '7', privacy: 1, passwordStdin: true }),
    want: /^a password goes only with --privacy password \(2\)$/,
  },
  {
    name: 'reports create with no URL at all',
    argv: () => ['reports', 'create'],
    direct: (ctx) => reportsCreateRun(ctx, create({})),
    want: /^no URL to create a report for$/,
  },
  {
    name: 'reports create: --password-stdin and --from-file - both want stdin',
    argv: () => ['reports', 'create', '--from-file', '-', '--privacy', 'password', '--password-stdin'],
    direct: (ctx) => reportsCreateRun(ctx, create({ fromFile: '-', privacy: 2, passwordStdin: true })),
    want: /^--password-stdin and --from-file - both want standard input$/,
  },
  {
    name: 'reports create: --privacy password with no password and nobody to ask, before the sitemap is fetched',
    argv: (mock) => ['reports', 'create', '--from-sitemap', `${mock.server.url}/sitemap.xml`, '--privacy', 'password'],
    direct: (ctx, mock) => reportsCreateRun(ctx, create({ fromSitemap: [`${mock.server.url}/sitemap.xml`], privacy: 2 })),
    want: /^--privacy password needs a password$/,
  },
  {
    name: 'reports create: --password-stdin from a terminal with no screen for a prompt, before the sitemap is fetched',
    argv: (mock) => ['reports', 'create', '--from-sitemap', `${mock.server.url}/sitemap.xml`, '--privacy', 'password', '--password-stdin'],
    direct: (ctx, mock) => reportsCreateRun(ctx, create({ fromSitemap: [`${mock.server.url}/sitemap.xml`], privacy: 2, passwordStdin: true })),
    tty: { stdin: true },
    want: /^standard input is a terminal: the password would show as it is typed$/,
  },
  {
    name: 'reports create: the journal is the URL file',
    argv: () => ['reports', 'create', '--from-file', urlFile, '--journal', urlFile],
    direct: (ctx) => reportsCreateRun(ctx, create({ fromFile: urlFile, journal: urlFile })),
    want: /^--journal .* is the input file of --from-file/,
  },
  {
    name: 'reports create: a journal in a folder that does not exist, before the sitemap is fetched',
    argv: (mock) => ['reports', 'create', '--from-sitemap', `${mock.server.url}/sitemap.xml`, '--journal', join(scratch.path, 'none', 'run.journal')],
    direct: (ctx, mock) =>
      reportsCreateRun(ctx, create({ fromSitemap: [`${mock.server.url}/sitemap.xml`], journal: join(scratch.path, 'none', 'run.journal') })),
    want: /^cannot write --journal to .*run\.journal: no such file$/,
  },
  {
    name: 'reports create: a journal in use by another run, before stdin is read or the sitemap fetched',
    argv: (mock) => ['reports', 'create', '--from-file', '-', '--from-sitemap', `${mock.server.url}/sitemap.xml`, '--journal', lockedJournal],
    direct: (ctx, mock) => reportsCreateRun(ctx, create({ fromFile: '-', fromSitemap: [`${mock.server.url}/sitemap.xml`], journal: lockedJournal })),
    want: /^the journal .*locked\.journal is in use by another run \(pid \d+, lock file .*locked\.journal\.lock\)$/,
  },
  {
    name: 'reports create: --html in a folder that does not exist, before stdin is read',
    argv: () => ['reports', 'create', '--from-file', '-', '--html', join(scratch.path, 'none', 'run.html')],
    direct: (ctx) => reportsCreateRun(ctx, create({ fromFile: '-', html: join(scratch.path, 'none', 'run.html') })),
    want: /^cannot write --html to .*run\.html: no such file$/,
  },
  {
    name: 'reports create: --max-drop without --baseline, before stdin is read',
    argv: () => ['reports', 'create', '--from-file', '-', '--max-drop', '5'],
    direct: (ctx) => reportsCreateRun(ctx, create({ fromFile: '-', maxDrop: 5 })),
    want: /^--max-drop needs --baseline FILE to compare with$/,
  },
  {
    name: 'reports create with --json and -o ndjson, before stdin is read',
    argv: () => ['reports', 'create', '--from-file', '-', '--json', '-o', 'ndjson'],
    direct: (ctx) => reportsCreateRun(ctx, create({ fromFile: '-' })),
    globals: { json: true, output: 'ndjson' },
    want: /^--json and -o ndjson ask for different formats$/,
  },
  {
    name: 'reports list: --fail-on-new-failures without --baseline',
    argv: () => ['reports', 'list', '--fail-on-new-failures'],
    direct: (ctx) => reportsListRun(ctx, { failOnNewFailures: true }),
    want: /^--fail-on-new-failures needs --baseline FILE to compare with$/,
  },
  {
    name: 'reports list with -q and --fields',
    argv: () => ['reports', 'list', '-q', '--fields', 'id'],
    direct: (ctx) => reportsListRun(ctx, {}),
    globals: { quiet: true, fields: ['id'] },
    want: /^-q prints only ids, one a line; it cannot be combined with --fields$/,
  },
  {
    name: 'reports show with neither an id nor --url',
    argv: () => ['reports', 'show'],
    direct: (ctx) => reportsShowRun(ctx, {}),
    want: /^give a report id or --url URL$/,
  },
  {
    name: 'reports show with an id and --url',
    argv: () => ['reports', 'show', '7', '--url', 'https://a.example/'],
    direct: (ctx) => reportsShowRun(ctx, { id: '7', url: 'https://a.example/' }),
    want: /^give a report id or --url URL, not both$/,
  },
  {
    name: 'reports show: --junit in a folder that does not exist',
    argv: () => ['reports', 'show', '7', '--junit', join(scratch.path, 'none', 'junit.xml')],
    direct: (ctx) => reportsShowRun(ctx, { id: '7', junit: join(scratch.path, 'none', 'junit.xml') }),
    want: /^cannot write --junit to .*junit\.xml: no such file$/,
  },
  {
    name: 'reports stats with -q',
    argv: () => ['reports', 'stats', '-q'],
    direct: (ctx) => reportsStatsRun(ctx, {}),
    globals: { quiet: true },
    want: /^-q prints identifiers, and stats has none$/,
  },
  {
    name: 'reports stats with --fields',
    argv: () => ['reports', 'stats', '--fields', 'id'],
    direct: (ctx) => reportsStatsRun(ctx, {}),
    globals: { fields: ['id'] },
    want: /^--fields does not apply to reports stats$/,
  },
  {
    name: 'api: --paginate with POST',
    argv: () => ['api', 'POST', '/reports', '--paginate'],
    direct: (ctx) => apiRun(ctx, { method: 'POST', path: '/reports', paginate: true }),
    want: /^--paginate follows the pages of a list: only with GET$/,
  },
  {
    name: 'api: --input - with --paginate, before stdin is read',
    argv: () => ['api', 'GET', '/reports', '--input', '-', '--paginate'],
    direct: (ctx) => apiRun(ctx, { method: 'GET', path: '/reports', input: '-', paginate: true }),
    want: /^--input sends a body; --paginate follows the pages of a GET list$/,
  },
  {
    name: 'api: -i with --jq',
    argv: () => ['api', 'GET', '/reports', '-i', '--jq', '.'],
    direct: (ctx) => apiRun(ctx, { method: 'GET', path: '/reports', include: true }),
    globals: { jq: '.' },
    want: /^--jq reads the JSON body; -i puts the status line and headers before it$/,
  },
  {
    name: 'api: a field given twice, before stdin is read',
    argv: () => ['api', 'POST', '/reports', '-f', 'url=a', '-f', 'url=b', '--input', '-'],
    direct: (ctx) => apiRun(ctx, { method: 'POST', path: '/reports', field: ['url=a', 'url=b'], input: '-' }),
    want: /^field "url" given twice$/,
  },
  {
    name: 'auth login with --api-key, before stdin is read',
    argv: () => ['auth', 'login', '--with-token', '--api-key', 'k-on-the-command-line'],
    direct: (ctx) => authLoginRun(ctx, { withToken: true, verify: true }),
    globals: { apiKey: 'k-on-the-command-line' },
    want: /^auth login does not take the key from --api-key$/,
  },
  {
    name: 'auth login without --with-token and nobody to ask',
    argv: () => ['auth', 'login'],
    direct: (ctx) => authLoginRun(ctx, { verify: true }),
    want: /^no terminal to ask for the key on$/,
  },
  {
    name: 'auth login --with-token with no base URL, before stdin is read',
    argv: () => ['auth', 'login', '--with-token'],
    direct: (ctx) => authLoginRun(ctx, { withToken: true, verify: true }),
    env: { RSAPI_BASE_URL: undefined },
    want: /^no base URL to log in to$/,
  },
  {
    name: 'auth login --with-token from a terminal with no screen for a prompt',
    argv: () => ['auth', 'login', '--with-token'],
    direct: (ctx) => authLoginRun(ctx, { withToken: true, verify: true }),
    tty: { stdin: true },
    want: /^standard input is a terminal: the API key would show as it is typed$/,
  },
  {
    name: 'auth logout of a profile that is not stored',
    argv: () => ['auth', 'logout', '--profile', 'nope'],
    direct: (ctx) => authLogoutRun(ctx),
    globals: { profile: 'nope' },
    want: /^no profile "nope"; no profile is stored yet$/,
  },
  {
    name: 'auth status of a profile that is not stored, with no key',
    argv: () => ['auth', 'status', '--profile', 'nope'],
    direct: (ctx) => authStatusRun(ctx, {}),
    globals: { profile: 'nope' },
    env: { RSAPI_API_KEY: undefined },
    want: /^no profile "nope"/,
  },
  {
    name: 'auth status with --json and -o csv',
    argv: () => ['auth', 'status', '--json', '-o', 'csv'],
    direct: (ctx) => authStatusRun(ctx, {}),
    globals: { json: true, output: 'csv' },
    want: /^--json and -o csv ask for different formats$/,
  },
  {
    name: 'auth switch with no name, nothing stored',
    argv: () => ['auth', 'switch'],
    direct: (ctx) => authSwitchRun(ctx, {}),
    want: /^no profile is stored yet$/,
  },
  {
    name: 'auth switch to a profile that is not stored',
    argv: () => ['auth', 'switch', 'nope'],
    direct: (ctx) => authSwitchRun(ctx, { name: 'nope' }),
    want: /^no profile "nope"; no profile is stored yet$/,
  },
  {
    name: 'config set: a timeout that is no number',
    argv: () => ['config', 'set', 'timeout', 'soon'],
    direct: (ctx) => configSetRun(ctx, { key: 'timeout', value: 'soon' }),
    want: /^timeout must be a number of seconds/,
  },
  {
    name: 'config unset of a profile that is not stored',
    argv: () => ['config', 'unset', 'output', '--profile', 'nope'],
    direct: (ctx) => configUnsetRun(ctx, { key: 'output' }),
    globals: { profile: 'nope' },
    want: /^no profile "nope"/,
  },
  {
    name: 'config list with -q and -o csv',
    argv: () => ['config', 'list', '-q', '-o', 'csv'],
    direct: (ctx) => configListRun(ctx),
    globals: { quiet: true, output: 'csv' },
    want: /^-q prints only ids, one a line; it cannot be combined with -o csv$/,
  },
];

/** One invocation's terminal, with stdin watched: whether anything was read from it. */
function terminalFor(row: ValidateCase) {
  const made = testTerminal({ env: { ...mock.env, ...row.env }, tty: row.tty, stdin: row.stdin ?? 'https://stdin.example/\n42\n' });
  const stdin = made.terminal.stdin as NodeJS.ReadableStream & { readableDidRead: boolean };
  return { ...made, stdinRead: () => stdin.readableDidRead };
}

async function throughCli(row: ValidateCase) {
  const { terminal, stderr, stdinRead, cleanup } = terminalFor(row);
  const before = mock.server.requests.length;
  try {
    const code = await run(row.argv(mock), createInvocation({ terminal, signal: new AbortController().signal }));
    return { code, message: stderr.text.split('\n')[0]?.replace(/^rsapi: /, ''), stdinRead: stdinRead(), requests: mock.server.requests.slice(before) };
  } finally {
    cleanup();
  }
}

async function direct(row: ValidateCase) {
  const { terminal, stdinRead, cleanup } = terminalFor(row);
  const ctx = new CommandContext(createInvocation({ terminal, signal: new AbortController().signal }), { color: true, ...row.globals });
  const before = mock.server.requests.length;
  try {
    const error = await row.direct(ctx, mock).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    return {
      code: error === undefined ? 0 : exitCodeOf(error),
      message: error instanceof Error ? error.message : undefined,
      stdinRead: stdinRead(),
      requests: mock.server.requests.slice(before),
    };
  } finally {
    await ctx.close();
    cleanup();
  }
}

describe('plan, then run: the CLI and a direct call refuse alike', () => {
  it.each(CASES)('$name', async (row) => {
    const cli = await throughCli(row);
    const called = await direct(row);
    expect(cli.message, 'through the CLI').toMatch(row.want);
    expect(cli.code).toBe(2);
    expect(called, 'called directly').toEqual(cli);
    expect(cli.stdinRead, 'stdin read').toBe(false);
    expect(cli.requests, 'requests sent').toEqual([]);
  });
});

describe('the shape of a verb', () => {
  const COMMANDS = join(import.meta.dirname, '../../src/cli/commands');
  const modules = readdirSync(COMMANDS, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => ({ path, text: readFileSync(join(COMMANDS, path), 'utf8') }));

  it('a verb is a plan and a run (the run takes the plan, never the options); no validate step is left', () => {
    const planned = modules.flatMap(({ path, text }) =>
      [...text.matchAll(/^export function plan(\w+)\(ctx: CommandContext, opts: \w+\)/gm)].map((m) => ({ path, verb: m[1]! })),
    );
    expect(planned.length).toBeGreaterThan(12);
    for (const { path, verb } of planned) {
      // Its run (beside it, or in the verb's folder) takes the plan: a direct call goes through the plan as the handler's does.
      const run = new RegExp(`export async function run${verb}\\(ctx: CommandContext, plan: `);
      expect(
        modules.some(({ text }) => run.test(text)),
        `${path}: run${verb} takes a plan`,
      ).toBe(true);
    }
    for (const { path, text } of modules) expect(text, path).not.toMatch(/^export function validate\w*\(/m);
  });

  it('every handler is { plan, run }, but completion: its handler reads the command tree it describes', () => {
    const handlers = modules.flatMap(({ path, text }) => [...text.matchAll(/handle\(invocation, command, (\S+)/g)].map((m) => ({ path, given: m[1]! })));
    expect(handlers.length).toBeGreaterThan(25);
    expect(handlers.filter(({ given }) => given !== '{').map(({ path }) => path)).toEqual(['completion.ts']);
  });

  it('no handler closure checks anything: it maps arguments to options and calls the run', () => {
    for (const { path, text } of modules) {
      for (const closure of text.matchAll(/handle\(invocation, command, [^\n]*\n?(?: {4}[^\n]*\n)*/g)) expect(closure[0], path).not.toMatch(/throw|Error\(/);
    }
  });
});
