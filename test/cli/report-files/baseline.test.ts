// Per-check results in CI against the phpRank mock: baselines (new failures, fixed), JUnit failures and the Markdown summary.
import { judgeComparison } from '../../../src/judge/verdict.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { baselineVerdict, type BaselineComparison } from '../../../src/cli/report-files/baseline.js';
import { CheckStatsCollector } from '../../../src/output/stats/check-stats.js';
import { tempDir } from '../../helpers/cli.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';
import { parseXml, type XmlElement } from '../../helpers/xml.js';
import { phprankReport, startReportServer } from '../../helpers/phprank-checks.js';

type Report = { id: number; url: string; project: string; results: Record<string, { passed: boolean; importance: string }> };

let phprank: MockFixture;
let seed: MockFixture;
let dir: { path: string; cleanup: () => void };
let reports: Report[];

beforeAll(async () => {
  phprank = await startMock({ flavor: 'phprank', seed: 12, rateLimit: 10_000 });
  seed = await startMock({ seed: 4 });
  reports = JSON.parse((await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: phprank.env })).stdout) as Report[];
});
afterAll(async () => {
  await phprank.close();
  await seed.close();
});
beforeEach(() => {
  dir = tempDir('rsapi-checks-ci-');
});
afterEach(() => dir.cleanup());

const failing = (report: Report) => Object.keys(report.results).filter((id) => !report.results[id]!.passed);
const passing = (report: Report) => Object.keys(report.results).filter((id) => report.results[id]!.passed);

/**
 * A baseline as an earlier run would have written it: the same reports, except that in the first one check that
 * fails now passed then (a new failure) and one that passes now failed then (fixed).
 */
function writeBaseline(): { path: string; target: Report; newFailure: string; fixed: string } {
  const target = reports.find((report) => failing(report).length > 0 && passing(report).length > 0)!;
  const newFailure = failing(target)[0]!;
  const fixed = passing(target)[0]!;
  const before = structuredClone(reports);
  const then = before.find((report) => report.id === target.id)!;
  then.results[newFailure] = { ...then.results[newFailure]!, passed: true };
  then.results[fixed] = { ...then.results[fixed]!, passed: false };
  const path = join(dir.path, 'baseline.json');
  writeFileSync(path, JSON.stringify(before));
  return { path, target, newFailure, fixed };
}

function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

/** The rows of the Markdown table that follows a line starting with `heading`, as cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  expect(start, `no "${heading}" in\n${markdown}`).toBeGreaterThanOrEqual(0);
  const table: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('|'))
      table.push(
        line
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((cell) => cell.trim().replace(/\\(.)/g, '$1')),
      );
    else if (table.length > 0) break;
  }
  return table.slice(2);
}

describe('--baseline with per-check results', () => {
  it('lists per URL a check newly failing and one fixed; not a gate without --fail-on-new-failures', async () => {
    const { path, target, newFailure, fixed } = writeBaseline();
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--baseline', path, '-o', 'json'], env: phprank.env });
    expect(code, stderr).toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines.filter((l) => l.includes('new failures:'))).toEqual([
      expect.stringMatching(new RegExp(`^rsapi:   new failures: ${escapeRegExp(target.url)}: .*\\(${newFailure}\\)$`)),
    ]);
    expect(lines.filter((l) => l.includes('fixed:'))).toEqual([
      expect.stringMatching(new RegExp(`^rsapi:   fixed: ${escapeRegExp(target.url)}: .*\\(${fixed}\\)$`)),
    ]);
    expect(lines[0]).toContain('; checks: 1 newly failing on 1 URL, 1 fixed (listed, not failed without --fail-on-new-failures)');
  });

  it('--fail-on-new-failures fails the run on a new failure (exit 10), passes without one', async () => {
    const { path, newFailure } = writeBaseline();
    const junit = join(dir.path, 'junit.xml');
    const failed = await runInProcess({
      argv: ['reports', 'list', '--baseline', path, '--fail-on-new-failures', '--junit', junit, '-o', 'json'],
      env: phprank.env,
    });
    expect(failed.code, failed.stderr).toBe(10);
    expect(failed.stderr).toMatch(
      /^rsapi: baseline failed: 1 check newly failing on 1 URL since .*baseline\.json \(--fail-on-new-failures\); besides: .*, 1 fixed$/m,
    );
    const cases = child(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!.children.filter((c) => c.name === 'testcase');
    const failures = cases.flatMap((c) => (child(c, 'failure') ? [child(c, 'failure')!] : []));
    expect(failures).toHaveLength(1);
    expect(failures[0]!.attributes.message).toMatch(new RegExp(`^new failures since the baseline: .*\\(${newFailure}\\) \\(--fail-on-new-failures\\)$`));
    const same = join(dir.path, 'same.json');
    writeFileSync(same, JSON.stringify(reports));
    const passed = await runInProcess({ argv: ['reports', 'list', '--baseline', same, '--fail-on-new-failures', '-o', 'json'], env: phprank.env });
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stderr).toMatch(/^rsapi: baseline passed: 0 checks newly failing since .*same\.json \(--fail-on-new-failures\); besides: .*, 0 fixed$/m);
  });

  it('on GitHub Actions a failed baseline annotates each URL that newly fails; one that compared nothing, the run', async () => {
    const { path, target, newFailure } = writeBaseline();
    const env = { ...phprank.env, GITHUB_ACTIONS: 'true' };
    const failed = await runInProcess({ argv: ['reports', 'list', '--baseline', path, '--fail-on-new-failures', '-q'], env });
    expect(failed.code).toBe(10);
    const annotations = failed.stderr.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toEqual([
      expect.stringMatching(new RegExp(`^::error title=rsapi%3A ${escapeRegExp(target.url)}::newly failing: .*\\(${newFailure}\\)`)),
    ]);
    // It links to the report's page on the service (phpRank's web page: the base URL without /api/v1, /reports/ID).
    const service = phprank.env.RSAPI_BASE_URL!.replace(/\/+$/, '').replace(/\/api\/v\d+$/, '');
    expect(annotations[0]).toMatch(new RegExp(`; report: ${escapeRegExp(`${service}/reports/${target.id}`)}$`));
    const empty = join(dir.path, 'empty.json');
    writeFileSync(empty, '[]');
    const nothing = await runInProcess({ argv: ['reports', 'list', '--baseline', empty, '--max-drop', '5', '-q'], env });
    expect(nothing.stderr).toMatch(/^::error title=rsapi::baseline failed: no report of this run is in .*empty\.json/m);
    const gate = await runInProcess({ argv: ['reports', 'list', '--project', 'nope.example', '--fail-on', 'bad', '-q'], env });
    expect(gate.code).toBe(10);
    expect(gate.stderr).toMatch(/^::error title=rsapi::gate failed: no reports matched --project nope\.example/m);
  });

  it('a baseline without per-check results compares scores only and says so once; --fail-on-new-failures with it is exit 2 before any request', async () => {
    const path = join(dir.path, 'old.json');
    writeFileSync(path, JSON.stringify(reports.map(({ results: _results, ...rest }) => rest)));
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--baseline', path, '-o', 'json'], env: phprank.env });
    expect(code, stderr).toBe(0);
    expect(stderr.split('\n').filter((line) => line.includes('per-check'))).toEqual([
      `rsapi: baseline: ${path} holds no per-check results; scores and results compared only`,
    ]);
    expect(stderr).not.toContain('new failures');
    const before = phprank.server.requests.length;
    const refused = await runInProcess({ argv: ['reports', 'list', '--baseline', path, '--fail-on-new-failures'], env: phprank.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('holds no per-check results, so --fail-on-new-failures has nothing to compare');
    expect(phprank.server.requests.length).toBe(before);
  });

  it('against a service with no per-check results, --fail-on-new-failures is not judged: one line, exit 8', async () => {
    const { path } = writeBaseline();
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--baseline', path, '--fail-on-new-failures', '-o', 'json'], env: seed.env });
    expect(code).toBe(8);
    expect(stderr.split('\n').filter((line) => line.includes('not judged'))).toEqual([
      'rsapi: baseline not judged: the service sent no per-check results (`results`) with its reports, so --fail-on-new-failures cannot be judged',
    ]);
  });
});

describe('--fail-on-new-failures and a report that lost its per-check results', () => {
  it('fails (exit 10) a report whose answer has no per-check results where the baseline had them, names it, and fails its JUnit case', async () => {
    const baseline = [phprankReport(1, 'example.com/a', ['title']), phprankReport(2, 'example.com/b', [])];
    const path = join(dir.path, 'baseline.json');
    writeFileSync(path, JSON.stringify(baseline));
    const { results: _lost, ...withoutChecks } = phprankReport(2, 'example.com/b', []);
    const server = await startReportServer([phprankReport(1, 'example.com/a', ['title']), withoutChecks]);
    try {
      const junit = join(dir.path, 'junit.xml');
      const argv = ['reports', 'list', '--baseline', path, '--fail-on-new-failures', '--junit', junit, '-o', 'json'];
      const { code, stderr } = await runInProcess({ argv, env: server.env });
      expect(code, stderr).toBe(10);
      expect(stderr).toMatch(
        /^rsapi: baseline failed: 0 checks newly failing since .*baseline\.json and 1 report with no per-check results now \(--fail-on-new-failures\); besides: /m,
      );
      expect(stderr).toContain('rsapi:   no per-check results now: example.com/b\n');
      const cases = child(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!.children.filter((c) => c.name === 'testcase');
      const failed = cases.filter((c) => child(c, 'failure')).map((c) => c.attributes.name);
      expect(failed).toEqual(['example.com/b']);
      // The same answer with the checks still there passes.
      const whole = await startReportServer(baseline);
      try {
        const passed = await runInProcess({ argv: ['reports', 'list', '--baseline', path, '--fail-on-new-failures', '-o', 'json'], env: whole.env });
        expect(passed.code, passed.stderr).toBe(0);
      } finally {
        await whole.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('JUnit and the summary name the failed checks', () => {
  it('a JUnit failure of --fail-on-check names the check; every case says its failed checks', async () => {
    const target = reports.find((report) => failing(report).length > 0)!;
    const check = failing(target)[0]!;
    const junit = join(dir.path, 'junit.xml');
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--fail-on-check', check, '--junit', junit, '-o', 'json'], env: phprank.env });
    expect(code, stderr).toBe(10);
    const cases = child(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!.children.filter((c) => c.name === 'testcase');
    expect(cases).toHaveLength(reports.length);
    for (const testcase of cases) {
      const report = reports.find((r) => r.url === testcase.attributes.name)!;
      const failure = child(testcase, 'failure');
      if (failing(report).includes(check))
        expect(failure?.attributes.message).toMatch(new RegExp(`^failed .*\\(${check}\\).* \\(--fail-on-check ${check}\\)$`));
      else expect(failure).toBeUndefined();
      const out = child(testcase, 'system-out')!.text.split('\n');
      expect(out).toContain(`checks: ${passing(report).length} of 36 passed`);
      const listed = out.find((line) => line.startsWith('failed checks: '));
      if (failing(report).length === 0) expect(listed).toBeUndefined();
      else expect([...listed!.matchAll(/\(([a-z0-9_]+)\)/g)].map((m) => m[1]).sort()).toEqual(failing(report).sort());
    }
  });

  it('the summary has a "most failed checks" table counted right, and the new failures against the baseline', async () => {
    const { path, target, newFailure, fixed } = writeBaseline();
    const summary = join(dir.path, 'summary.md');
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--baseline', path, '--summary', summary, '-o', 'json'], env: phprank.env });
    expect(code, stderr).toBe(0);
    const markdown = readFileSync(summary, 'utf8');
    const table = tableAfter(markdown, '**Most failed checks**');
    const rows = table.filter(([check]) => !check!.startsWith('…'));
    const counts = new Map<string, number>();
    for (const report of reports) for (const id of failing(report)) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(rows.length).toBe(Math.min(10, counts.size));
    if (counts.size > 10) expect(table.at(-1)![0]).toBe(`… and ${counts.size - 10} more`);
    for (const [check, importance, failed, share] of rows) {
      const id = /\(([a-z0-9_]+)\)$/.exec(check!)![1]!;
      expect(Number(failed)).toBe(counts.get(id));
      expect(importance).toBe(reports[0]!.results[id]!.importance);
      expect(share).toBe(`${Math.round((counts.get(id)! / reports.length) * 100)}%`);
    }
    const ranks = rows.map(([, importance]) => ['high', 'medium', 'low'].indexOf(importance!));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    const changes = tableAfter(markdown, '**Checks against the baseline**');
    expect(changes).toHaveLength(1);
    expect(changes[0]![0]).toBe(target.url);
    expect(changes[0]![1]).toMatch(new RegExp(`\\(${newFailure}\\)$`));
    expect(changes[0]![2]).toMatch(new RegExp(`\\(${fixed}\\)$`));
  });

  it('with --summary and --html both, the per-check results are counted once for the two', async () => {
    const add = vi.spyOn(CheckStatsCollector.prototype, 'add');
    try {
      const summary = join(dir.path, 'summary.md');
      const page = join(dir.path, 'run.html');
      const argv = ['reports', 'list', '--all', '--summary', summary, '--html', page, '-o', 'json'];
      const { code, stderr } = await runInProcess({ argv, env: phprank.env });
      expect(code, stderr).toBe(0);
      expect(add).toHaveBeenCalledTimes(reports.length);
      expect(readFileSync(summary, 'utf8')).toContain(`of ${reports.length} reports with per-check results`);
      expect(readFileSync(page, 'utf8')).toContain(`Of the ${reports.length} reports that carry per-check results`);
    } finally {
      add.mockRestore();
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a baseline gate that compares nothing', () => {
  it('fails (exit 10) and says so, as any gate over nothing; --allow-empty lets it pass; without a gate it is a note', async () => {
    const empty = join(dir.path, 'empty.json');
    writeFileSync(empty, '[]');
    const other = join(dir.path, 'other.json');
    writeFileSync(
      other,
      JSON.stringify([{ id: 1, url: 'https://elsewhere.example/', result: 'good', score: 90, results: { title: { passed: true, importance: 'high' } } }]),
    );
    for (const baseline of [empty, other]) {
      for (const gate of [['--max-drop', '5'], ['--fail-on-new-failures']]) {
        if (gate[0] === '--fail-on-new-failures' && baseline === empty) continue; // a baseline without checks is exit 2 for it
        const failed = await runInProcess({ argv: ['reports', 'list', '--all', '--baseline', baseline, ...gate, '-q'], env: phprank.env });
        expect(failed.code, failed.stderr).toBe(10);
        expect(failed.stderr).toMatch(
          new RegExp(
            `rsapi: baseline failed: no report of this run is in ${baseline} \\(\\d+ new\\): a gate over nothing proves nothing \\(--allow-empty lets it pass\\)`,
          ),
        );
        const allowed = await runInProcess({ argv: ['reports', 'list', '--all', '--baseline', baseline, ...gate, '--allow-empty', '-q'], env: phprank.env });
        expect(allowed.code, allowed.stderr).toBe(0);
      }
    }
    const noted = await runInProcess({ argv: ['reports', 'list', '--all', '--baseline', empty, '-q'], env: phprank.env });
    expect(noted.code, noted.stderr).toBe(0);
  });
});

describe('baselineVerdict', () => {
  const comparison = (over: Partial<BaselineComparison>): BaselineComparison => ({
    path: 'run 3 of the history',
    compared: 10,
    regressions: [],
    newUrls: [],
    vanished: [],
    comparedEarlier: [],
    failed: false,
    empty: false,
    checkChanges: [],
    failOnNewFailures: false,
    baselineHasChecks: true,
    checksUnjudged: false,
    lostChecks: [],
    verdict: judgeComparison([], { compared: 10, laterHasChecks: true, earlierHasChecks: true, notJudgedOnChecks: [] }, {}),
    ...over,
  });
  const regressions = (count: number) => Array.from({ length: count }, () => ({}) as BaselineComparison['regressions'][number]);
  /** Per URL its count of checks newly failing; the first URL has the fixed ones. */
  const changes = (newPerUrl: number[], fixed: number) =>
    newPerUrl.map((count, index) => ({
      url: `example.com/${index}`,
      record: {},
      newFailures: Array.from({ length: count }, (_, i) => `c${i}`),
      fixed: index === 0 ? Array.from({ length: fixed }, (_, i) => `f${i}`) : [],
    }));
  it.each([
    {
      name: 'a failed check gate leads with the new failures; the falls it does not judge, the fixes and the pages follow',
      given: { failed: true, failOnNewFailures: true, regressions: regressions(6), newUrls: ['example.com/new'], checkChanges: changes([5, 4, 4, 4], 2) },
      want: 'rsapi: baseline failed: 17 checks newly failing on 4 URLs since run 3 of the history (--fail-on-new-failures); besides: 6 of 10 reports scored lower or got a worse result (not failed without --max-drop), 2 fixed, 1 new page, 0 vanished',
    },
    {
      name: 'a --max-drop gate that held does not lead a line failed by the check gate',
      given: { failed: true, failOnNewFailures: true, maxDrop: 5, checkChanges: changes([2], 0), newUrls: ['example.com/new'] },
      want: 'rsapi: baseline failed: 2 checks newly failing on 1 URL since run 3 of the history (--fail-on-new-failures); besides: 0 of 10 reports fell by more than 5 points or got a worse result (--max-drop 5), 0 fixed, 1 new page, 0 vanished',
    },
    {
      name: 'a check gate that held does not lead a line failed by --max-drop',
      given: { failed: true, failOnNewFailures: true, maxDrop: 5, regressions: regressions(2) },
      want: 'rsapi: baseline failed: 2 of 10 reports fell by more than 5 points or got a worse result (--max-drop 5); besides: 0 checks newly failing since run 3 of the history (--fail-on-new-failures), 0 fixed',
    },
    {
      name: 'a passing line names both gates, then what was listed',
      given: { failOnNewFailures: true, maxDrop: 5, checkChanges: changes([0], 1), vanished: ['example.com/old'] },
      want: 'rsapi: baseline passed: 0 of 10 reports fell by more than 5 points or got a worse result (--max-drop 5); 0 checks newly failing since run 3 of the history (--fail-on-new-failures); besides: 1 fixed, 0 new pages, 1 vanished',
    },
    {
      name: '--max-drop alone, no checks compared',
      given: { failed: true, maxDrop: 5, baselineHasChecks: false, regressions: regressions(2), newUrls: ['a'], vanished: ['b'] },
      want: 'rsapi: baseline failed: 2 of 10 reports fell by more than 5 points or got a worse result (--max-drop 5); besides: 1 new page, 1 vanished',
    },
    {
      name: 'no gate: every figure listed, as before',
      given: { regressions: regressions(1), newUrls: ['a'], checkChanges: changes([1], 0) },
      want: 'rsapi: baseline: 1 of 10 reports scored lower or got a worse result than in run 3 of the history (not a gate without --max-drop); 1 new, 0 vanished (listed, not failed); checks: 1 newly failing on 1 URL, 0 fixed (listed, not failed without --fail-on-new-failures)',
    },
  ])('$name', ({ given, want }) => {
    expect(baselineVerdict(comparison(given))).toBe(want);
  });

  it('docs/weekly-job.md quotes the line as the program prints it', () => {
    const line = baselineVerdict(
      comparison({
        path: 'run 4 of the history',
        compared: 12,
        failed: true,
        failOnNewFailures: true,
        regressions: regressions(1),
        newUrls: ['a'],
        checkChanges: changes([2], 0),
      }),
    );
    expect(readFileSync(join(import.meta.dirname, '../../../docs/weekly-job.md'), 'utf8')).toContain(`\n${line}\n`);
  });
});
