// docs/weekly-job.md, run as written: every command line of its recipes (the `rsapi audit` file, the one-line
// `reports create`, cron, systemd, GitHub Actions, GitLab CI) is read out of the Markdown and run over simulated weeks
// against the phpRank mock with --drift, on a loopback site whose sitemap gains a page, loses one, is empty one week
// and comes back, and with a week killed part-way and resumed. Each week's exit code, baseline, new and vanished
// pages are asserted against what the service holds; so are the recorded runs, and one report per page. The passing
// week the doc shows is what a passing week prints, line for line.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * after `cd ... &&`, systemd's ExecStart, a workflow's `run:` and a GitLab script's `- ` lines.
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
    if (fence === undefined || fence === 'json' || fence === 'console') continue;
    const command = /(?:^|&&\s*|ExecStart=\S*?|run:\s*|^\s*-\s*)\brsapi\s+(.*?)(?:\s*>>.*)?$/.exec(line.trim());
    if (command) commands.push({ where: `docs/weekly-job.md:${index + 1} (${fence})`, words: shellWords(command[1] as string) });
  }
  return commands;
}

/** Words as a POSIX shell splits them (quotes, no expansion beyond $VAR), enough for the doc's lines. */
function shellWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? (match[3] as string));
}

const COMMANDS = docCommands(DOC);
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
    // `rsapi audit`, the one-line create, cron, systemd, GitHub Actions, GitLab CI.
    expect(WEEKLY.map((command) => command.where.replace(/:\d+/, ''))).toEqual([
      'docs/weekly-job.md (sh)',
      'docs/weekly-job.md (sh)',
      'docs/weekly-job.md (cron)',
      'docs/weekly-job.md (ini)',
      'docs/weekly-job.md (yaml)',
      'docs/weekly-job.md (yaml)',
    ]);
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
