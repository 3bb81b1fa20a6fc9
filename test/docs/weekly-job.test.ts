// docs/weekly-job.md, run as written: every command line of its recipes (the `rsapi audit` file, the one-line
// `reports create`, cron, systemd) is read out of the Markdown and run over simulated weeks against the phpRank mock
// with --drift, on a loopback site whose sitemap gains a page, loses one, is empty one week and comes back, and with a
// week killed part-way and resumed. Each week's exit code, baseline, new and vanished pages are asserted against what
// the service holds; so are the recorded runs, and one report per page. The passing week the doc shows is what a
// passing week prints, line for line. The CI recipes run as their runners would: the GitHub workflow's action step
// (node action/dist/index.cjs) and the GitLab job's script (bash, rsapi in-process) each week in a fresh clone and
// HOME (a hosted runner keeps nothing), a local bare repository standing in for the remote. Each recipe keeps its
// history through that eviction, or fails loudly (exit 4) when the history is gone: cron's machine losing its folder,
// a branch that lost the job's history.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { git, Repository, ROOT, runAction, type StepResult } from '../helpers/action.js';
import { startDocShell } from '../helpers/doc-shell.js';
import { postgresPerFile } from '../helpers/postgres.js';
import { mockPerTest, type MockFixture } from '../helpers/mock.js';
import { startRawServer, type RawServer } from '../helpers/raw-server.js';
import { runInProcess, type InProcessResult } from '../helpers/run.js';
import { scratchMaker } from '../helpers/scratch.js';

const DOC = readFileSync(new URL('../../docs/weekly-job.md', import.meta.url), 'utf8');
const SITE_IN_DOC = 'https://example.com/';
const scratch = scratchMaker('rsapi-weekly-');
const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, drift: 0.03 });

/** A recipe's command: where in the doc, and its words after `rsapi`. */
interface DocCommand {
  where: string;
  words: string[];
}

/**
 * The rsapi command lines of the doc's code blocks, as a shell would split them: a `sh` block's lines, cron's command
 * after `cd ... &&`, systemd's ExecStart.
 */
function docCommands(markdown: string): DocCommand[] {
  const commands: DocCommand[] = [];
  let fence: string | undefined;
  for (const [index, line] of markdown.split('\n').entries()) {
    const opened = /^```(\w*)/.exec(line);
    if (opened) {
      fence = fence === undefined ? opened[1] || 'text' : undefined;
      continue;
    }
    // The CI recipes (yaml) run as their runners run them: see the tests below.
    if (fence === undefined || !['sh', 'cron', 'ini'].includes(fence)) continue;
    const command = /(?:^|&&\s*|ExecStart=\S*?|run:\s*|^\s*-\s*)\brsapi\s+(.*?)(?:\s*>>.*)?$/.exec(line.trim());
    if (command) commands.push({ where: `docs/weekly-job.md:${index + 1} (${fence})`, words: shellWords(command[1] as string) });
  }
  return commands;
}

/** Words as a POSIX shell splits them (quotes, no expansion beyond $VAR), enough for the doc's lines. */
function shellWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? (match[3] as string));
}

/** The yaml block of the doc's section `heading` (its first), as written. */
function yamlBlock(heading: string): string {
  const section = DOC.indexOf(`\n${heading}`);
  const from = DOC.indexOf('```yaml\n', section) + '```yaml\n'.length;
  return DOC.slice(from, DOC.indexOf('```', from));
}

const COMMANDS = docCommands(DOC);
const SHARDS_DOC = readFileSync(join(ROOT, 'docs', 'shards.md'), 'utf8');
const pg = postgresPerFile();
const INIT = COMMANDS.find((command) => command.words[0] === 'audit' && command.words.includes('--init'));
const WEEKLY = COMMANDS.filter((command) => command !== INIT);

/** The site: a robots.txt naming its sitemap, and a sitemap listing this week's pages. */
interface Site {
  server: RawServer;
  pages: string[];
}

let site: Site;

beforeAll(async () => {
  site = { pages: [] } as unknown as Site;
  site.server = await startRawServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`User-agent: *\nSitemap: ${site.server.url}/sitemap.xml\n`);
    } else if (request.url === '/sitemap.xml') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      const urls = site.pages.map((page) => `<url><loc>${site.server.url}/${page}</loc></url>`).join('');
      response.end(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
});

afterAll(async () => {
  await site.server.close();
});

/** The weeks: the pages the sitemap lists each week. */
const WEEKS = [
  { pages: ['a', 'b', 'c'], what: 'the first week' },
  { pages: ['a', 'b', 'c', 'd'], what: 'a page published' },
  { pages: ['a', 'b', 'd'], what: 'a page removed' },
  { pages: [], what: 'an empty sitemap' },
  { pages: ['a', 'b', 'c', 'd'], what: 'the pages back' },
  { pages: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], what: 'four pages published; the run killed part-way, then resumed', killed: true },
];

/** Each page's checks as the service holds them now: what a week's run read. */
function checksNow(fixture: MockFixture): Map<string, Map<string, boolean>> {
  return new Map(
    fixture.server.reports().map((report) => [report.url, new Map(Object.entries(report.checks ?? {}).map(([id, check]) => [id, check.passed]))] as const),
  );
}

/** Whether some page of both readings fails a check now that it passed then. */
function newlyFailing(then: Map<string, Map<string, boolean>>, now: Map<string, Map<string, boolean>>, pages: readonly string[]): boolean {
  return pages.some((page) => [...(now.get(page) ?? [])].some(([id, passed]) => !passed && then.get(page)?.get(id) === true));
}

/** The pages a run names as new or vanished, on stdout or stderr, as identities. */
function named(result: InProcessResult, kind: 'new' | 'vanished'): string[] {
  const text = `${result.stdout}\n${result.stderr}`;
  return [...new Set([...text.matchAll(new RegExp(`\\b${kind}: (\\S+)`, 'g'))].map((match) => match[1] as string))].sort();
}

/** The history run a week was compared with, as it says: `compared with run 3` (audit) or `run 3 of the history`. */
function baselineOf(result: InProcessResult): number | undefined {
  const said = /compared with run (\d+)|(?:than in|since) run (\d+) of the history/.exec(`${result.stdout}\n${result.stderr}`);
  return said ? Number(said[1] ?? said[2]) : undefined;
}

/** The lines of the doc's console block that follows `after`, without its `$ rsapi audit` line. */
function consoleBlock(after: string): string[] {
  const from = DOC.indexOf('```console', DOC.indexOf(after));
  return DOC.slice(from, DOC.indexOf('\n```', from + 1))
    .split('\n')
    .slice(2);
}

/**
 * A line of the doc as a pattern: any number stands for any number, the doc's site for the test's loopback site, and
 * its host (the job, a page) for the loopback host, with or without its port.
 */
function shapeOf(line: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = literal(line)
    .replace(/\d+/g, '\\d+')
    .replaceAll(literal(SITE_IN_DOC), 'http://127\\.0\\.0\\.1:\\d+/')
    .replaceAll(literal('example.com'), '127\\.0\\.0\\.1(?::\\d+)?');
  return new RegExp(`^${pattern}$`);
}

describe('docs/weekly-job.md, run over simulated weeks', () => {
  it('a passing week prints the lines the doc shows, and only those', async () => {
    const fixture = await mock({ drift: 0 });
    const home = scratch();
    const env = { ...fixture.env, HOME: home, XDG_DATA_HOME: join(home, 'data') };
    const cwd = process.cwd();
    process.chdir(home);
    try {
      site.pages = ['a', 'b', 'c'];
      expect((await runInProcess({ argv: ['audit', '--init', `${site.server.url}/`], env })).code).toBe(0);
      expect((await runInProcess({ argv: ['audit'], env })).code).toBe(0);
      const week = await runInProcess({ argv: ['audit'], env });
      expect(week.code, week.stderr).toBe(0);
      const printed = `${week.stderr}${week.stdout}`.trimEnd().split('\n');
      const doc = consoleBlock('A passing week');
      expect(printed).toHaveLength(doc.length);
      for (const [index, line] of doc.entries()) expect(printed[index]).toMatch(shapeOf(line));
    } finally {
      process.chdir(cwd);
    }
  });

  it('has the recipes the doc promises, each a command this test runs', () => {
    expect(INIT?.words).toEqual(['audit', '--init', SITE_IN_DOC]);
    // `rsapi audit`, the one-line create, cron, systemd; GitHub Actions and GitLab CI are the two yaml recipes.
    expect(WEEKLY.map((command) => command.where.replace(/:\d+/, ''))).toEqual([
      'docs/weekly-job.md (sh)',
      'docs/weekly-job.md (sh)',
      'docs/weekly-job.md (cron)',
      'docs/weekly-job.md (ini)',
    ]);
    expect(yamlBlock('### GitHub Actions')).toBe(readFileSync(join(ROOT, 'docs', 'workflows', 'weekly.yml'), 'utf8'));
    expect(yamlBlock('### GitLab CI')).toContain('weekly-audit:');
    // The sharded recipes are linked, not repeated: their own pages' tests run them.
    expect(DOC).toContain('(github-action.md#shards-a-matrix-one-run)');
    expect(DOC).toContain('(shards.md#gitlab-ci)');
    // The Actions cache loses a weekly job's history (an entry unused for 7 days is deleted): no recipe keeps it there.
    expect(DOC).not.toContain('actions/cache');
    expect(DOC).not.toMatch(/^\s*cache:/m);
    expect(DOC).not.toMatch(/npm install (-g )?rsapi\b/);
  });

  it.each(WEEKLY.map((command) => [command.where, command] as const))('%s', async (_where, command) => {
    const fixture = await mock();
    const home = scratch();
    const work = join(home, 'work');
    mkdirSync(work);
    const summary = join(home, 'step-summary.md');
    const env = { ...fixture.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), GITHUB_STEP_SUMMARY: summary };
    const siteUrl = `${site.server.url}/`;
    const words = (doc: DocCommand) => doc.words.map((word) => word.replaceAll(SITE_IN_DOC, siteUrl).replace('$GITHUB_STEP_SUMMARY', summary));
    const cwd = process.cwd();
    process.chdir(work);
    try {
      const rsapi = (argv: string[], signal?: AbortSignal) => runInProcess({ argv, env, signal });
      if (command.words[0] === 'audit') {
        const init = await rsapi(words(INIT as DocCommand));
        expect(init.code, init.stderr).toBe(0);
      }
      const identity = (page: string) => `127.0.0.1:${site.server.port}/${page}`;
      let baselineState = new Map<string, Map<string, boolean>>();
      let lastRun: number | undefined;
      let lastRunPages: string[] = [];
      let runs = 0;
      for (const [index, week] of WEEKS.entries()) {
        site.pages = week.pages;
        const pages = week.pages.map(identity);
        let result: InProcessResult;
        if (week.killed) {
          // Slow audits; Ctrl-C once the first page is under way: the run stops, is kept incomplete, and resumes.
          fixture.server.options.storeDelayMs = 150;
          const stop = new AbortController();
          const sent = fixture.server.requests.length;
          const watcher = setInterval(() => {
            if (fixture.server.requests.slice(sent).some((request) => request.method !== 'GET')) stop.abort();
          }, 5);
          const killed = await rsapi(words(command), stop.signal).finally(() => clearInterval(watcher));
          expect(killed.code, `${week.what}: ${killed.stderr}`).toBe(130);
          runs++;
          fixture.server.options.storeDelayMs = 0;
          result = await rsapi(words(command));
          expect(result.stderr).toMatch(/skipping \d+ URLs? already created|resum/);
        } else if (lastRun === undefined && command.words.includes('--require-baseline')) {
          // The first week, by hand, as the doc says: `rsapi audit --no-require-baseline` starts the history.
          expect(DOC).toContain('`rsapi audit --no-require-baseline`');
          result = await rsapi([...words(command), '--no-require-baseline']);
        } else {
          result = await rsapi(words(command));
        }
        runs++;
        const now = checksNow(fixture);
        const context = `week ${index + 1} (${week.what}) of ${command.where}:\n${result.stdout}\n${result.stderr}`;
        if (pages.length === 0) {
          expect(result.code, context).toBe(10);
          expect(result.stderr, context).toContain('the sitemap listed no page: a gate over nothing proves nothing');
        } else if (lastRun === undefined) {
          expect(result.code, context).toBe(0);
          expect(result.stderr, context).toMatch(/first run of job \S+: nothing compared; this run starts its history in /);
          expect(baselineOf(result), context).toBeUndefined();
        } else {
          // Compared: the pages of both this week and the baseline run (a page back after a gap is new, not compared).
          const compared = pages.filter((page) => lastRunPages.includes(page));
          expect(result.code, context).toBe(newlyFailing(baselineState, now, compared) ? 10 : 0);
          // Last means the last run that read reports: never the empty week, never the killed run.
          expect(baselineOf(result), context).toBe(lastRun);
          expect(named(result, 'new'), context).toEqual(pages.filter((page) => !lastRunPages.includes(page)).sort());
          expect(named(result, 'vanished'), context).toEqual(lastRunPages.filter((page) => !pages.includes(page)).sort());
        }
        if (pages.length > 0) {
          lastRun = runs;
          lastRunPages = pages;
          baselineState = now;
        }
        // One report per page, whatever was refreshed, resumed or killed.
        const stored = fixture.server.reports().map((report) => report.url);
        expect(new Set(stored).size, context).toBe(stored.length);
      }
      const at = command.words.indexOf('--history');
      const history = at >= 0 ? command.words.slice(at, at + 2) : [];
      const listed = await rsapi(['history', 'runs', ...history, '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const recorded = (JSON.parse(listed.stdout) as { id: number; complete: boolean; reports: number }[]).sort((a, b) => a.id - b.id);
      expect(recorded.map((run) => run.id)).toEqual(Array.from({ length: runs }, (_, index) => index + 1));
      expect(recorded.map((run) => run.reports).slice(0, 5)).toEqual([3, 4, 3, 0, 4]);
      expect(recorded.map((run) => run.complete)).toEqual([true, true, true, true, true, false, true]);
      expect(recorded.at(-1)?.reports).toBe(8);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("docs/weekly-job.md's recipes keep the history when the runner's folders are gone", () => {
  /** The site's repository: its rsapi.config.json (as `rsapi audit --init` writes it) on main. */
  function repositoryOf(siteUrl: string): Repository {
    const config = { audit: { job: 'site', sitemaps: [siteUrl], failOnNewFailures: true } };
    return new Repository(scratch(), { 'rsapi.config.json': `${JSON.stringify(config, null, 2)}\n` });
  }

  it.each(WEEKLY.filter((command) => /\((cron|ini)\)$/.test(command.where)).map((command) => [command.where, command] as const))(
    '%s: the machine keeps its folder week after week; a machine that lost it fails the next week (exit 4), naming where it looked',
    async (_where, command) => {
      expect(command.words).toContain('--require-baseline');
      const fixture = await mock({ drift: 0 });
      const home = scratch();
      const work = join(home, 'work');
      mkdirSync(work);
      const env = { ...fixture.env, HOME: home, XDG_DATA_HOME: join(home, 'data') };
      const words = command.words.map((word) => word.replaceAll(SITE_IN_DOC, `${site.server.url}/`));
      const cwd = process.cwd();
      process.chdir(work);
      try {
        site.pages = ['a', 'b'];
        expect((await runInProcess({ argv: ['audit', '--init', `${site.server.url}/`], env })).code).toBe(0);
        const first = await runInProcess({ argv: [...words, '--no-require-baseline'], env });
        expect(first.code, first.stderr).toBe(0);
        const second = await runInProcess({ argv: words, env });
        expect(second.code, second.stderr).toBe(0);
        expect(baselineOf(second)).toBe(1);
        // The machine's data folder is gone (a rebuilt server): the history with it. The week fails, it does not pass.
        rmSync(join(home, 'data'), { recursive: true, force: true });
        const lost = await runInProcess({ argv: words, env });
        expect(lost.code, lost.stderr).toBe(4);
        expect(lost.stderr).toContain(join(home, 'data', 'rsapi', 'history.db'));
        expect(lost.stderr).toMatch(/job \S+/);
      } finally {
        process.chdir(cwd);
      }
    },
    60_000,
  );

  it("GitHub Actions: the weekly workflow's action step, each week on a fresh runner, compares with the week before", async () => {
    const fixture = await mock({ drift: 0 });
    site.pages = ['a', 'b', 'c'];
    const flow = parse(yamlBlock('### GitHub Actions')) as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }> };
    const step = Object.values(flow.jobs)
      .flatMap((job) => job.steps)
      .find((candidate) => /\/rsapi@/.test(candidate.uses ?? ''));
    // The workflow's inputs, its expressions as GitHub fills them in: the service's URL (a variable) and key (a secret).
    const inputs = Object.fromEntries(
      Object.entries(step?.with ?? {}).map(([name, value]) => [
        name,
        String(value).replace('${{ vars.RSAPI_BASE_URL }}', fixture.server.url).replace('${{ secrets.RSAPI_API_KEY }}', fixture.server.apiKey),
      ]),
    );
    expect(inputs['base-url']).toBe(fixture.server.url);
    const repo = repositoryOf(`${site.server.url}/`);
    const weeks: StepResult[] = [];
    for (let week = 1; week <= 3; week++) {
      // runAction: a fresh clone, HOME and temp folder each week; nothing of the week before but origin.
      const ran = await runAction(repo, inputs);
      expect(ran.code, `week ${week}: ${ran.stdout}\n${ran.stderr}`).toBe(0);
      weeks.push(ran);
    }
    expect(weeks.map((ran) => [ran.outputs['run-id'], ran.outputs['baseline-id']])).toEqual([
      ['1', ''],
      ['2', '1'],
      ['3', '2'],
    ]);
    expect((await repo.runs()).map((run) => run.id)).toEqual([3, 2, 1]);
  }, 180_000);

  it("GitLab CI: the job's script, each week on a fresh runner, keeps the history on its branch; a branch that lost it fails (exit 4)", async () => {
    const fixture = await mock({ drift: 0 });
    site.pages = ['a', 'b', 'c'];
    const job = (parse(yamlBlock('### GitLab CI')) as Record<string, { variables: Record<string, string>; script: string[] }>)['weekly-audit']!;
    const repo = repositoryOf(`${site.server.url}/`);
    // The project's remote, as the token's URL names it, is the local origin (git's url.<base>.insteadOf).
    const remote = 'https://rsapi:glpat-history-token@gitlab.example.com/acme/site.git';
    let pipeline = 100;
    /** One pipeline: a fresh clone and HOME, the job's variables and script lines in one shell, as the runner runs them. */
    const week = async () => {
      const workspace = repo.clone();
      const home = scratch();
      const shell = await startDocShell({
        dir: join(home, 'shell'),
        cwd: workspace,
        env: {
          ...fixture.env,
          HOME: home,
          XDG_DATA_HOME: join(home, 'data'),
          CI_SERVER_HOST: 'gitlab.example.com',
          CI_PROJECT_PATH: 'acme/site',
          CI_PIPELINE_ID: String(++pipeline),
          RSAPI_HISTORY_TOKEN: 'glpat-history-token',
          GIT_CONFIG_COUNT: '1',
          GIT_CONFIG_KEY_0: `url.${repo.origin}.insteadOf`,
          GIT_CONFIG_VALUE_0: remote,
        },
      });
      try {
        const variables = Object.entries(job.variables).map(([name, value]) => `export ${name}="${value}"`);
        const script = job.script.filter((line) => !line.startsWith('npm install'));
        return await shell.run(['set -e', ...variables, ...script].join('\n'), 'bash');
      } finally {
        await shell.close();
      }
    };
    const first = await week();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/first run of job site: nothing compared/);
    const second = await week();
    expect(second.code, second.stderr).toBe(0);
    expect(baselineOf(second as InProcessResult)).toBe(1);
    // A failing week (every check flips) fails the job with the audit's exit code, and is kept: the next compares with it.
    fixture.server.options.drift = 1;
    const failing = await week();
    expect(failing.code, failing.stderr).toBe(10);
    expect(repo.commits()).toEqual(['rsapi audit: pipeline 103 (exit 10)', 'rsapi audit: pipeline 102 (exit 0)', 'rsapi audit: pipeline 101 (exit 0)']);
    expect((await repo.runs()).map((run) => [run.id, run.exit])).toEqual([
      [3, 10],
      [2, 0],
      [1, 0],
    ]);
    // Someone deleted the history from the branch: the next week fails loudly rather than starting again, and pushes nothing.
    const work = join(repo.dir, 'edit');
    git(repo.dir, 'clone', '--quiet', '--branch', 'rsapi-history', repo.origin, work);
    git(work, 'rm', '--quiet', 'history.db');
    git(work, '-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '--quiet', '-m', 'history deleted');
    git(work, 'push', '--quiet', 'origin', 'rsapi-history');
    fixture.server.options.drift = 0;
    const lost = await week();
    expect(lost.code, lost.stderr).toBe(4);
    expect(lost.stderr).toContain('.rsapi/history.db');
    expect(repo.commits()[0]).toBe('history deleted');
  }, 180_000);
});

describe('the sharded GitLab recipe weekly-job.md links to (docs/shards.md), on fresh runners each week', () => {
  /** A GitLab job's script as its runner runs it: one bash, stopping at the first failing line; the install left out. */
  async function runJob(job: { variables?: Record<string, string>; script: string[] }, cwd: string, env: Record<string, string>) {
    const home = scratch();
    const shell = await startDocShell({ dir: join(home, 'shell'), cwd, env: { ...env, HOME: home, XDG_DATA_HOME: join(home, 'data') } });
    try {
      const variables = Object.entries(job.variables ?? {}).map(([name, value]) => `export ${name}="${value}"`);
      const script = job.script.filter((line) => !line.startsWith('npm install'));
      return await shell.run(['set -e', ...variables, ...script].join('\n'), 'bash');
    } finally {
      await shell.close();
    }
  }

  it.skipIf(pg.missing)(
    'three shard jobs and the merge job record one run a week in PostgreSQL; a missing shard fails the merge (exit 12)',
    async () => {
      const fixture = await mock({ drift: 0 });
      site.pages = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
      const from = SHARDS_DOC.indexOf('```yaml\n', SHARDS_DOC.indexOf('\n## GitLab CI')) + '```yaml\n'.length;
      const text = SHARDS_DOC.slice(from, SHARDS_DOC.indexOf('```', from)).replaceAll('https://www.example.com/sitemap.xml', `${site.server.url}/sitemap.xml`);
      const jobs = parse(text) as Record<string, { parallel?: number; variables?: Record<string, string>; script: string[] }>;
      const count = jobs.audit!.parallel!;
      // The first week has no baseline to require: the merge runs without --require-baseline, as the page says.
      expect(SHARDS_DOC).toContain('give `--require-baseline` once the job\nhas run once');
      const firstMerge = { ...jobs.merge!, script: jobs.merge!.script.map((line) => line.replace(' --require-baseline', '')) };
      const env = { ...fixture.env, RSAPI_HISTORY_URL: pg.url() };
      /** One pipeline: the shards (those in `shards`) each in a fresh folder, their parts to the merge job's, the merge. */
      const pipeline = async (id: number, merge: typeof firstMerge, shards: number[]) => {
        const mergeFolder = scratch();
        for (const index of shards) {
          const folder = scratch();
          const shard = await runJob(jobs.audit!, folder, { ...env, CI_PIPELINE_ID: String(id), CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(count) });
          expect(shard.code, shard.stderr).toBe(0);
          expect(existsSync(join(folder, `part-${index}.gz`))).toBe(true);
          copyFileSync(join(folder, `part-${index}.gz`), join(mergeFolder, `part-${index}.gz`));
        }
        return runJob(merge, mergeFolder, { ...env, CI_PIPELINE_ID: String(id) });
      };
      const all = Array.from({ length: count }, (_, index) => index + 1);
      const first = await pipeline(201, firstMerge, all);
      expect(first.code, first.stderr).toBe(0);
      const second = await pipeline(202, jobs.merge!, all);
      expect(second.code, second.stderr).toBe(0);
      const missing = await pipeline(
        203,
        jobs.merge!,
        all.filter((index) => index !== 2),
      );
      expect(missing.code, missing.stderr).toBe(12);
      expect(missing.stderr).toContain(`shard 2/${count} missing`);
      const listed = await runInProcess({ argv: ['history', 'runs', '--json', '--history', pg.url()], env: fixture.env });
      const runs = (JSON.parse(listed.stdout) as { id: number; shard: string; reports: number; complete: boolean }[]).sort((a, b) => a.id - b.id);
      expect(runs.map((run) => [run.shard, run.reports, run.complete])).toEqual([
        [`merged ${count}/${count}`, 9, true],
        [`merged ${count}/${count}`, 9, true],
      ]);
    },
    240_000,
  );
});
