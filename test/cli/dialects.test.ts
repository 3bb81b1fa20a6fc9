// The same reports in the seed dialect and in phpRank's give the same gate verdicts, stats, baseline result and JUnit:
// one row per command, one column per dialect, each served over loopback as that dialect sends it.
process.env.TZ = 'UTC';

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { sendText, startRawServer, type RawServer, type SeenRequest } from '../helpers/raw-server.js';
import { runInProcess, type InProcessResult } from '../helpers/run.js';

/** One report of the data set: what both dialects say of it. */
interface Report {
  id: number;
  /** As phpRank stores it (`example.com/a`); the seed dialect sends `https://example.com/a`. */
  url: string;
  project: string;
  score: number;
  /** Per-check results (phpRank's `results`), sent alike in both dialects when the data has them. */
  results?: unknown;
  generatedAt?: string;
}

const DATA: Report[] = [
  { id: 1, url: 'example.com/a', project: 'example.com', score: 95 },
  { id: 2, url: 'example.com/b', project: 'example.com', score: 80 },
  { id: 3, url: 'example.com/c', project: 'example.com', score: 80 },
  { id: 4, url: 'example.com/d', project: 'example.com', score: 79 },
  { id: 5, url: 'example.com/e', project: 'example.com', score: 60 },
  { id: 6, url: 'shop.example.org/f', project: 'shop.example.org', score: 49 },
  { id: 7, url: 'shop.example.org/g', project: 'shop.example.org', score: 48 },
  { id: 8, url: 'shop.example.org/h', project: 'shop.example.org', score: 12 },
];

/**
 * The same reports earlier: the second fell 10 points, the fourth from 90 (for DATA: good to decent), the fifth 3;
 * the last is new, and `example.com/gone` vanished.
 */
function earlier(data: Report[]): Report[] {
  const before: Record<number, (score: number) => number> = { 1: (score) => score + 10, 3: () => 90, 4: (score) => score + 3 };
  return [
    ...data.slice(0, -1).map((r, i) => ({ ...r, score: before[i]?.(r.score) ?? r.score })),
    { id: 0, url: 'example.com/gone', project: 'example.com', score: 70 },
  ];
}

/** The label the API document's dialect sends; phpRank derives the same from the number (good > 79, decent 49-79). */
function label(score: number): string {
  return score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad';
}

const GENERATED_AT = '2026-11-20T09:00:00.000000Z';

interface Dialect {
  name: string;
  report(r: Report): Record<string, unknown>;
  project(name: string, reports: Report[]): Record<string, unknown>;
  /** The list envelope around one page. */
  page(records: unknown[], page: number, perPage: number, total: number, path: string): unknown;
  /** JSON as the service writes it (phpRank: PHP's json_encode, slashes escaped). */
  encode(body: unknown): string;
  /** How this dialect sends a stored URL. */
  url(stored: string): string;
}

const SEED: Dialect = {
  name: 'seed',
  report: (r) => ({
    id: r.id,
    url: `https://${r.url}`,
    project: r.project,
    result: label(r.score),
    score: r.score,
    privacy: 0,
    generated_at: r.generatedAt ?? GENERATED_AT,
    ...(r.results === undefined ? {} : { results: r.results }),
  }),
  project: (name, reports) => ({ project: name, created_at: GENERATED_AT, reports_count: reports.length }),
  page: (data, page, perPage, total, path) => ({
    data,
    links: { first: `${path}?page=1`, prev: null, next: page * perPage < total ? `${path}?page=${page + 1}` : null },
    meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
  }),
  encode: (body) => JSON.stringify(body),
  url: (stored) => `https://${stored}`,
};

/** phpRank 1.x-13: the score as `result` (a number, a float after an update, or a numeric string), no `score`. */
const PHPRANK: Dialect = {
  name: 'phprank',
  report: (r) => ({
    id: r.id,
    url: r.url,
    project: r.project,
    result: r.id % 3 === 0 ? String(r.score) : r.score,
    ...(r.results === undefined ? {} : { results: r.results }),
    privacy: 0,
    password: false,
    generated_at: r.generatedAt ?? GENERATED_AT,
    created_at: GENERATED_AT,
    updated_at: GENERATED_AT,
  }),
  project: (name, reports) => ({
    project: name,
    created_at: GENERATED_AT,
    reports: reports.length,
    result: String(reports.reduce((sum, r) => sum + r.score, 0)),
  }),
  page: (data, page, perPage, total, path) => {
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
    return {
      data,
      links: {
        first: `${path}?page=1`,
        last: `${path}?page=${lastPage}`,
        prev: page > 1 ? `${path}?page=${page - 1}` : null,
        next: page < lastPage ? `${path}?page=${page + 1}` : null,
      },
      meta: { current_page: page, from, last_page: lastPage, links: [], path, per_page: perPage, to: from === null ? null : from + data.length - 1, total },
      status: 200,
    };
  },
  encode: (body) => JSON.stringify(body).replaceAll('/', '\\/'),
  url: (stored) => stored,
};

/** A loopback server answering GET /api/v1/reports and /projects (paged as asked) in one dialect. */
async function serveDialect(dialect: Dialect, reports: Report[]): Promise<RawServer> {
  const server: RawServer = await startRawServer((request: SeenRequest, response: ServerResponse) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = Number(url.searchParams.get('per_page') ?? '10');
    const path = `${server.url}${url.pathname}`;
    let records: unknown[];
    if (url.pathname === '/api/v1/reports') records = reports.map(dialect.report);
    else if (url.pathname === '/api/v1/projects')
      records = [...new Set(reports.map((r) => r.project))].map((name) =>
        dialect.project(
          name,
          reports.filter((r) => r.project === name),
        ),
      );
    else return sendText(response, 404, dialect.encode({ message: 'Resource not found.', status: 404 }), 'application/json');
    const body = dialect.page(records.slice((page - 1) * perPage, page * perPage), page, perPage, records.length, path);
    sendText(response, 200, dialect.encode(body), 'application/json');
  });
  return server;
}

interface Outcome extends InProcessResult {
  /** Files the command wrote, by name. */
  files: Record<string, string>;
}

interface Row {
  name: string;
  argv: string[];
  /** Files the command writes (in the row's scratch dir; `{dir}` in argv is replaced by it). */
  writes?: string[];
  wantCode: number;
  /** What each dialect's run must show. */
  want: (outcome: Outcome, dialect: Dialect) => void;
  /** The part of the outcome both dialects must give alike. */
  same: (outcome: Outcome) => unknown;
}

/** Text that names URLs, with each dialect's stored form of a URL made one: phpRank drops the scheme. */
function oneUrlForm(text: string): string {
  return text.replaceAll('https://', '');
}

const KEY = 'k-0123456789abcdef';

/** Runs a row with `env`; `{dir}` in its argv is a fresh scratch dir (whose files are read back), or `baselines` for baseline files. */
async function runRow(row: Row, env: Record<string, string>, baselines: string): Promise<Outcome> {
  const dir = tempDir('rsapi-dialect-row-');
  try {
    const argv = row.argv.map((arg) => arg.replaceAll('{dir}', arg.includes('baseline-') ? baselines : dir.path));
    const result = await runInProcess({ argv, env });
    const files = Object.fromEntries((row.writes ?? []).map((name) => [name, readFileSync(join(dir.path, name), 'utf8')]));
    return { ...result, files };
  } finally {
    dir.cleanup();
  }
}

const stderrLines = (outcome: Outcome) => outcome.stderr.split('\n').filter((line) => line.startsWith('rsapi:'));
/** The gate's verdict line: the failing URLs named under it (`rsapi:   example.com/x: score 12 < 49`) left out. */
const gateLines = (outcome: Outcome) => stderrLines(outcome).filter((line) => !/^rsapi: {3}\S+: (score|result) /.test(line));

const ROWS: Row[] = [
  {
    name: 'reports list --fail-on bad',
    argv: ['reports', 'list', '--all', '--fail-on', 'bad', '-q'],
    wantCode: 10,
    want: (o) => expect(gateLines(o)).toEqual(['rsapi: gate failed: 2 of 8 reports are bad (--fail-on bad)']),
    same: (o) => [o.code, o.stdout, o.stderr],
  },
  {
    name: 'reports list --fail-on decent',
    argv: ['reports', 'list', '--all', '--fail-on', 'decent', '-q'],
    wantCode: 10,
    want: (o) => expect(gateLines(o)).toEqual(['rsapi: gate failed: 5 of 8 reports are decent or worse (--fail-on decent)']),
    same: (o) => [o.code, o.stdout, o.stderr],
  },
  {
    name: 'reports list --min-score 49 (48 fails, 49 passes)',
    argv: ['reports', 'list', '--all', '--min-score', '49', '-q'],
    wantCode: 10,
    want: (o) => expect(gateLines(o)).toEqual(['rsapi: gate failed: 2 of 8 reports score below 49 (--min-score 49)']),
    same: (o) => [o.code, o.stdout, o.stderr],
  },
  {
    name: 'reports list --min-score 10 (passes)',
    argv: ['reports', 'list', '--all', '--min-score', '10', '-q'],
    wantCode: 0,
    want: (o) => expect(gateLines(o)).toEqual(['rsapi: gate passed: 0 of 8 reports score below 10 (--min-score 10)']),
    same: (o) => [o.code, o.stdout, o.stderr],
  },
  {
    name: 'reports stats -o json',
    argv: ['reports', 'stats', '-o', 'json'],
    wantCode: 0,
    want: (o) => expect(JSON.parse(o.stdout)).toMatchObject({ reports: 8, good: 3, decent: 3, bad: 2, other: 0, scored: 8, min: 12, max: 95 }),
    same: (o) => JSON.parse(o.stdout) as unknown,
  },
  {
    name: 'reports stats (the table for people)',
    argv: ['reports', 'stats', '-o', 'table'],
    wantCode: 0,
    want: (o) =>
      expect(o.stdout.split('\n').slice(0, 6)).toEqual([
        'reports  8',
        'good     3   38%',
        'decent   3   38%',
        'bad      2   25%',
        '',
        'score    min 12  median 69.5  mean 62.9  max 95',
      ]),
    same: (o) => o.stdout,
  },
  {
    name: 'reports stats --by project -o csv',
    argv: ['reports', 'stats', '--by', 'project', '-o', 'csv'],
    wantCode: 0,
    want: (o) => expect(o.stdout.split('\r\n')[2]).toMatch(/^shop\.example\.org,3,0,1,2,0,3,12,48,/),
    same: (o) => o.stdout,
  },
  {
    name: 'reports list -o csv',
    argv: ['reports', 'list', '--all', '-o', 'csv', '--fields', 'id,url,result,score'],
    wantCode: 0,
    want: (o, d) => expect(o.stdout.split('\r\n')[4]).toBe(`4,${d.url('example.com/d')},decent,79`),
    same: (o) => oneUrlForm(o.stdout),
  },
  {
    name: 'reports list (table)',
    argv: ['reports', 'list', '--all', '-o', 'table', '--fields', 'id,result,score'],
    wantCode: 0,
    want: (o) => expect(o.stdout.split('\n')[4]).toBe('4   decent  79'),
    same: (o) => o.stdout,
  },
  ...(['seed', 'phprank'] as const).map(
    (written): Row => ({
      name: `--baseline written from ${written} json, --max-drop 5`,
      argv: ['reports', 'list', '--all', '-q', '--baseline', `{dir}/baseline-${written}.json`, '--max-drop', '5'],
      wantCode: 10,
      want: (o, d) =>
        expect(stderrLines(o)).toEqual([
          'rsapi: baseline failed: 2 of 7 reports fell by more than 5 points or got a worse result (--max-drop 5); besides: 1 new page, 1 vanished',
          `rsapi:   regressed: ${d.url('example.com/d')} score 90 → 79 (-11), result good → decent`,
          `rsapi:   regressed: ${d.url('example.com/b')} score 90 → 80 (-10)`,
          `rsapi:   new: ${d.url('shop.example.org/h')}`,
          `rsapi:   vanished: ${(written === 'seed' ? SEED : PHPRANK).url('example.com/gone')}`,
        ]),
      same: (o) => [o.code, oneUrlForm(o.stderr)],
    }),
  ),
  {
    name: '--junit with --fail-on decent and a baseline',
    argv: [
      'reports',
      'list',
      '--all',
      '-q',
      '--fail-on',
      'decent',
      '--junit',
      '{dir}/junit.xml',
      '--baseline',
      '{dir}/baseline-phprank.json',
      '--max-drop',
      '5',
    ],
    writes: ['junit.xml'],
    wantCode: 10,
    want: (o) => {
      const xml = o.files['junit.xml'] ?? '';
      // 8 reports, and the baseline's page this run no longer has: a skipped case, never a failure.
      expect(xml).toMatch(/<testsuites name="rsapi" tests="9" failures="6" errors="0" skipped="1"/);
      expect(xml).toMatch(/<skipped message="vanished since [^"]*baseline-phprank\.json: not in this run"\/>/);
      expect(xml).toContain('result: decent\nscore: 79\n');
      expect(xml).toContain(
        '<failure message="result decent (--fail-on decent); regressed: score 90 → 79 (-11), result good → decent (--max-drop 5)" type="gate">',
      );
    },
    same: (o) => oneUrlForm((o.files['junit.xml'] ?? '').replace(/ time="[\d.]+"/g, '').replace(/ timestamp="[^"]*"/g, '')),
  },
];

describe('one record model: the same data in both dialects', () => {
  const servers = new Map<string, RawServer>();
  const scratch = tempDir('rsapi-dialects-');
  const dialects = [SEED, PHPRANK];

  beforeAll(async () => {
    for (const dialect of dialects) servers.set(dialect.name, await serveDialect(dialect, DATA));
    // Baselines as `reports list -o json` writes them: the records exactly as each dialect sent them.
    for (const dialect of dialects)
      writeFileSync(join(scratch.path, `baseline-${dialect.name}.json`), JSON.stringify(earlier(DATA).map(dialect.report), null, 2));
  });
  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.close()));
    scratch.cleanup();
  });

  it.each(ROWS)('$name', async (row) => {
    const outcomes: Outcome[] = [];
    for (const dialect of dialects) {
      const outcome = await runRow(row, { RSAPI_BASE_URL: servers.get(dialect.name)!.url, RSAPI_API_KEY: KEY }, scratch.path);
      const context = `${dialect.name}: rsapi ${row.argv.join(' ')}\n--- stdout\n${outcome.stdout}--- stderr\n${outcome.stderr}`;
      expect(outcome.code, context).toBe(row.wantCode);
      row.want(outcome, dialect);
      outcomes.push(outcome);
    }
    const [seed, phprank] = outcomes.map(row.same);
    expect(phprank).toEqual(seed);
  });
});

describe('the mock in its phpRank flavor, against the same reports served in the seed dialect', () => {
  let mock: MockFixture;
  let seedServer: RawServer;
  const scratch = tempDir('rsapi-dialects-mock-');

  beforeAll(async () => {
    mock = await startMock({ flavor: 'phprank', rateLimit: 1_000_000 });
    // The mock's reports as it sends them (its default order), read back as the data set both columns serve.
    const listed = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: mock.env });
    const records = JSON.parse(listed.stdout) as {
      id: number;
      url: string;
      project: string;
      result: number | string;
      results?: unknown;
      generated_at: string;
    }[];
    const data = records.map(
      (r): Report => ({ id: r.id, url: r.url, project: r.project, score: Number(r.result), results: r.results, generatedAt: r.generated_at }),
    );
    seedServer = await serveDialect(SEED, data);
    for (const dialect of [SEED, PHPRANK])
      writeFileSync(join(scratch.path, `baseline-${dialect.name}.json`), JSON.stringify(earlier(data).map(dialect.report)));
  });
  afterAll(async () => {
    await Promise.all([mock.close(), seedServer.close()]);
    scratch.cleanup();
  });

  it.each(ROWS)('$name', async (row) => {
    const fromMock = await runRow(row, mock.env, scratch.path);
    const fromSeed = await runRow(row, { RSAPI_BASE_URL: seedServer.url, RSAPI_API_KEY: KEY }, scratch.path);
    const context = `rsapi ${row.argv.join(' ')}\n--- mock stderr\n${fromMock.stderr}--- seed stderr\n${fromSeed.stderr}`;
    expect([0, 10], context).toContain(fromMock.code);
    expect(fromMock.code, context).toBe(fromSeed.code);
    expect(row.same(fromMock)).toEqual(row.same(fromSeed));
  });
});

describe("phpRank's exact bodies from a plain node:http server", () => {
  let server: RawServer;
  /** Bodies as PHP's json_encode writes them: slashes escaped, `"status": 200`, results as floats and numeric strings. */
  const report12 =
    '{"id":12,"url":"example.com\\/pricing","project":"example.com","result":78.57142857142857,"privacy":0,"password":false,"generated_at":"2025-05-01T10:00:00.000000Z","created_at":"2025-05-01T10:00:00.000000Z","updated_at":"2025-05-01T10:00:00.000000Z"}';
  const report13 =
    '{"id":13,"url":"example.com\\/new\\/x","project":"example.com","result":"45","privacy":1,"password":false,"generated_at":"2025-05-01T10:05:00.000000Z","created_at":"2025-05-01T10:05:00.000000Z","updated_at":"2025-05-01T10:05:00.000000Z"}';
  const report14 =
    '{"id":14,"url":"shop.example.org","project":"shop.example.org","result":92,"privacy":2,"password":true,"generated_at":"2025-05-02T08:00:00.000000Z","created_at":"2025-05-02T08:00:00.000000Z","updated_at":"2025-05-02T08:00:00.000000Z"}';
  const paginator = (base: string, path: string, data: string[]) => {
    const at = `${base.replaceAll('/', '\\/')}\\/api\\/v1\\/${path}`;
    return (
      `{"data":[${data.join(',')}],"links":{"first":"${at}?page=1","last":"${at}?page=1","prev":null,"next":null},` +
      `"meta":{"current_page":1,"from":1,"last_page":1,"links":[{"url":null,"label":"&laquo; Previous","active":false},{"url":"${at}?page=1","label":"1","active":true},{"url":null,"label":"Next &raquo;","active":false}],` +
      `"path":"${at}","per_page":10,"to":${data.length},"total":${data.length}},"status":200}`
    );
  };

  beforeAll(async () => {
    server = await startRawServer((request, response) => {
      const path = new URL(request.url, 'http://127.0.0.1').pathname;
      const body: Record<string, string> = {
        '/api/v1/reports': paginator(server.url, 'reports', [report12, report13, report14]),
        '/api/v1/reports/12': `{"data":${report12},"status":200}`,
        '/api/v1/projects': paginator(server.url, 'projects', [
          '{"project":"example.com","created_at":"2025-05-01T10:00:00.000000Z","reports":2,"result":"123.57142857142857"}',
          '{"project":"shop.example.org","created_at":"2025-05-02T08:00:00.000000Z","reports":1,"result":"92"}',
        ]),
      };
      const text = body[path];
      if (text === undefined) sendText(response, 404, '{"message":"Resource not found.","status":404}', 'application/json');
      else sendText(response, 200, text, 'application/json');
    });
  });
  afterAll(() => server.close());

  /** `columns`: a terminal that wide; none: a pipe. */
  const rsapi = (argv: string[], columns?: number) =>
    runInProcess({ argv, tty: columns !== undefined, columns, env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: KEY, NO_COLOR: '1' } });

  it('a gate and the table read the label and score from the numeric result', async () => {
    const result = await rsapi(['reports', 'list', '--all', '--fail-on', 'bad', '--min-score', '50'], 140);
    expect(result.code).toBe(10);
    expect(result.stderr).toContain('rsapi: gate failed: 1 of 3 reports is bad (--fail-on bad); 1 of 3 reports score below 50 (--min-score 50)\n');
    const rows = result.stdout.split('\n').map((line) => line.split(/\s{2,}/));
    expect(rows[0]).toEqual(['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at']);
    expect(rows.slice(1, 4).map((row) => [row[0], row[1], row[3], row[4]])).toEqual([
      ['12', 'example.com/pricing', 'decent', '79'],
      ['13', 'example.com/new/x', 'bad', '45'],
      ['14', 'shop.example.org', 'good', '92'],
    ]);
  });

  it('reports show: label and score in the table, the body untouched in json', async () => {
    const table = await rsapi(['reports', 'show', '12', '-o', 'table', '--fields', 'id,url,result,score']);
    expect(table.stdout).toBe('id      12\nurl     example.com/pricing\nresult  decent\nscore   79\n');
    const json = await rsapi(['reports', 'show', '12', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(report12));
  });

  it("--fields score is the record model's score in csv and json alike (phpRank sends none), with no warning", async () => {
    const csv = await rsapi(['reports', 'list', '--all', '-o', 'csv', '--fields', 'id,score']);
    expect(csv.stdout).toBe('id,score\r\n12,79\r\n13,45\r\n14,92\r\n');
    expect(csv.stderr).not.toContain('warning');
    const json = await rsapi(['reports', 'list', '--all', '-o', 'json', '--fields', 'id,score']);
    expect(JSON.parse(json.stdout)).toEqual([
      { id: 12, score: 79 },
      { id: 13, score: 45 },
      { id: 14, score: 92 },
    ]);
    expect(json.stderr).not.toContain('warning');
  });

  it('reports stats counts one of each label', async () => {
    const result = await rsapi(['reports', 'stats', '-o', 'json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ reports: 3, good: 1, decent: 1, bad: 1, other: 0, scored: 3, min: 45, max: 92 });
  });

  it('projects list shows reports and the average score, within 80 columns', async () => {
    const result = await rsapi(['projects', 'list'], 80);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    expect(lines.map((line) => line.split(/\s{2,}/).slice(0, 3))).toEqual([
      ['project', 'reports', 'average'],
      ['example.com', '2', '61.8'],
      ['shop.example.org', '1', '92'],
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stderr).not.toContain('left out');
  });
});
