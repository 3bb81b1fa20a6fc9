// reports stats: counts per result, score figures and histogram over every matching report, in every format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatsCollector } from '../../../../../src/output/stats/report-stats.js';
import { parseCsv } from '../../../../helpers/csv.js';
import { startMock, type MockFixture } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock({ seed: 137 });
});
afterAll(async () => {
  await mock.close();
});

interface Expected {
  reports: number;
  good: number;
  decent: number;
  bad: number;
  min: number;
  median: number;
  max: number;
  mean: number;
  histogram: number[];
}

/** The figures worked out the plain way from the mock's own records. */
function expected(filter: (report: { project: string; result: string }) => boolean = () => true): Expected {
  const reports = mock.server.reports().filter(filter);
  const scores = reports.map((report) => Number(report.score)).sort((a, b) => a - b);
  const count = (result: string) => reports.filter((report) => report.result === result).length;
  const middle = scores.length / 2;
  const histogram = Array.from({ length: 10 }, (_, i) => scores.filter((s) => (i === 9 ? s >= 90 : s >= i * 10 && s < i * 10 + 10)).length);
  return {
    reports: reports.length,
    good: count('good'),
    decent: count('decent'),
    bad: count('bad'),
    min: scores[0] ?? NaN,
    max: scores[scores.length - 1] ?? NaN,
    median: scores.length % 2 ? (scores[Math.floor(middle)] ?? NaN) : ((scores[middle - 1] ?? 0) + (scores[middle] ?? 0)) / 2,
    mean: Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100,
    histogram,
  };
}

const stats = (argv: string[], options: { tty?: boolean; columns?: number } = {}) =>
  runInProcess({ argv: ['reports', 'stats', ...argv], env: mock.env, ...options });

describe('reports stats', () => {
  it('reads every report 100 at a time and gives json figures equal to the records', async () => {
    const before = mock.server.requests.length;
    const { code, stdout, stderr } = await stats(['-o', 'json']);
    expect(code, stderr).toBe(0);
    const want = expected();
    expect(want.reports).toBe(137);
    const got = JSON.parse(stdout);
    expect(got).toMatchObject({ reports: 137, good: want.good, decent: want.decent, bad: want.bad, other: 0, scored: 137 });
    expect(got).toMatchObject({ min: want.min, median: want.median, mean: want.mean, max: want.max });
    expect(got.histogram.map((bucket: { count: number }) => bucket.count)).toEqual(want.histogram);
    expect(got.histogram[9]).toEqual({ from: 90, to: 100, count: want.histogram[9] });
    const requests = mock.server.requests.slice(before);
    expect(requests.map((request) => request.query.per_page)).toEqual(['100', '100']);
  });

  it('takes the filters of reports list', async () => {
    const project = mock.server.reports()[0]?.project ?? '';
    const { code, stdout } = await stats(['--project', project, '--result', 'bad', '--json']);
    expect(code).toBe(0);
    const want = expected((report) => report.project === project && report.result === 'bad');
    // Something to count: a filter that matched nothing would pass with zeros on both sides.
    expect(want.reports).toBeGreaterThan(0);
    expect(JSON.parse(stdout)).toMatchObject({ reports: want.reports, bad: want.reports, good: 0, min: want.min, max: want.max });
  });

  it('--by project gives one entry a project, in json, ndjson and csv alike', async () => {
    const projects = [...new Set(mock.server.reports().map((report) => report.project))].sort();
    const json = JSON.parse((await stats(['--by', 'project', '-o', 'json'])).stdout) as { project: string; reports: number; median: number }[];
    expect(json.map((entry) => entry.project)).toEqual(projects);
    for (const entry of json) {
      const want = expected((report) => report.project === entry.project);
      expect(entry.reports).toBe(want.reports);
      expect(entry.median).toBe(want.median);
    }
    const ndjson = (await stats(['--by', 'project', '-o', 'ndjson'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ndjson).toEqual(json);
    const csv = parseCsv((await stats(['--by', 'project', '-o', 'csv'])).stdout);
    expect(csv[0]).toEqual([
      'project',
      'reports',
      'good',
      'decent',
      'bad',
      'other',
      'scored',
      'min',
      'median',
      'mean',
      'max',
      '0-9',
      '10-19',
      '20-29',
      '30-39',
      '40-49',
      '50-59',
      '60-69',
      '70-79',
      '80-89',
      '90-100',
    ]);
    expect(csv.slice(1).map((row) => row[0])).toEqual(projects);
    const first = expected((report) => report.project === projects[0]);
    expect(csv[1]?.slice(1, 5)).toEqual([first.reports, first.good, first.decent, first.bad].map(String));
    expect(csv[1]?.slice(11)).toEqual(first.histogram.map(String));
  });

  it('csv and tsv without --by: one row of figures (csv with its header, tsv bare, as lists are)', async () => {
    const want = expected();
    const csv = parseCsv((await stats(['-o', 'csv'])).stdout);
    expect(csv).toHaveLength(2);
    expect(csv[1]?.slice(0, 4)).toEqual([want.reports, want.good, want.decent, want.bad].map(String));
    const tsv = (await stats([])).stdout;
    expect(tsv.trim().split('\n')).toHaveLength(1);
    expect(tsv.split('\t').slice(6, 10)).toEqual([want.min, want.median, want.mean, want.max].map(String));
  });

  it('on a terminal: counts with percentages, the score figures and a bar a bucket drawn in block characters', async () => {
    const want = expected();
    const { code, stdout } = await stats(['--no-color'], { tty: true, columns: 80 });
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^reports +${want.reports}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^good +${want.good} +${Math.round((want.good / want.reports) * 100)}%$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^bad +${want.bad} +\\d+%$`, 'm'));
    expect(stdout).toContain(`min ${want.min}  median ${want.median}  mean ${want.mean.toFixed(1)}  max ${want.max}`);
    const bars = stdout.split('\n').filter((line) => /^ *\d+-\d+ /.test(line));
    expect(bars).toHaveLength(10);
    const largest = Math.max(...want.histogram);
    bars.forEach((line, i) => {
      expect(line).toMatch(new RegExp(` ${want.histogram[i]}$`));
      const bar = line.match(/[█▏▎▍▌▋▊▉]+/)?.[0] ?? '';
      // The largest bucket fills its room with whole blocks (an empty bar would be no bar at all); an empty bucket has none.
      if (want.histogram[i] === largest) expect(bar).toMatch(/^█+$/);
      else if (want.histogram[i] === 0) expect(bar).toBe('');
      else expect(bar.length).toBeGreaterThan(0);
      expect(line.length).toBeLessThanOrEqual(80);
    });
  });

  it('--by project on a terminal: a table with a row a project and one for all', async () => {
    const { code, stdout } = await stats(['--by', 'project', '--no-color'], { tty: true, columns: 120 });
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^project +reports +good +decent +bad +min +median +mean +max +scores$/);
    expect(lines.at(-1)).toMatch(new RegExp(`^\\(all\\) +${expected().reports} `));
  });

  it('refuses -q and --fields before any request (exit 2)', async () => {
    const before = mock.server.requests.length;
    for (const flags of [['-q'], ['--fields', 'good']]) {
      const { code, stderr } = await stats(flags);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^rsapi: /);
    }
    expect((await stats(['--by', 'url'])).code).toBe(2);
    expect(mock.server.requests.length).toBe(before);
  });
});

describe('stats figures', () => {
  it('known scores give known figures; missing scores and unknown results are counted apart', () => {
    const collector = new StatsCollector(false);
    const scores = [0, 9, 10, 50, 50, 89.5, 90, 100];
    for (const score of scores) collector.add({ result: score >= 80 ? 'good' : score >= 40 ? 'Decent' : 'bad', score: String(score) });
    collector.add({ result: 'pending', score: null });
    expect(collector.total()).toEqual({
      reports: 9,
      good: 3,
      decent: 2,
      bad: 3,
      other: 1,
      scored: 8,
      min: 0,
      median: 50,
      mean: 49.81,
      max: 100,
      histogram: [2, 1, 0, 0, 0, 2, 0, 0, 1, 2],
    });
  });

  it('no report: zero counts and no figures', () => {
    expect(new StatsCollector(true).total()).toMatchObject({ reports: 0, scored: 0, min: undefined, median: undefined });
  });
});
