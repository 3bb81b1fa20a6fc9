// The one judge (src/judge) through every face that gates on two readings: `reports list --baseline`, `history diff`,
// `rsapi audit` and MCP's history_diff give the same exit code and the same findings for the same two readings, cell
// by cell of a matrix (issue 42); and the score rule (src/api/model/regression.ts) through the first two.
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { reportIdentity } from '../../src/api/model/report-url.js';
import { callTool, offeredTools } from '../../src/mcp/server.js';
import { readingChange, regressed } from '../../src/api/model/regression.js';
import { startRawServer, type RawServer } from '../helpers/raw-server.js';
import { runInProcess, withContext } from '../helpers/run.js';
import { scratchMaker } from '../helpers/scratch.js';

const scratch = scratchMaker('rsapi-judge-');
let server: RawServer;
let week: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = await startRawServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: week, meta: { current_page: 1, last_page: 1, per_page: 100, total: week.length }, status: 200 }));
  });
});
afterAll(() => server.close());

const page = (result: number | null, generated: string) => ({ id: 1, url: 'a.example.com', project: 'a.example.com', result, generated_at: generated });

describe('one judge for a regression', () => {
  it.each([
    { name: 'a page good at 90, then re-audited with no score and no result', before: 90, now: null, regressed: true },
    { name: 'a fall of 10 points past --max-drop 5', before: 90, now: 80, regressed: true },
    { name: 'a fall of 3 points within --max-drop 5', before: 90, now: 87, regressed: false },
    { name: 'a page with no score, then scored', before: null, now: 50, regressed: false },
  ])('$name: the same verdict from --baseline and history diff', async ({ before, now, regressed: expected }) => {
    const history = join(scratch(), 'h.db');
    const env = { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'judge-key-1234' };
    const rsapi = (...argv: string[]) => runInProcess({ argv: [...argv, '--history', history], env });
    week = [page(before, '2026-01-01T10:00:00.000000Z')];
    expect((await rsapi('reports', 'list', '--all', '--record', '-q')).code).toBe(0);
    week = [page(now, '2026-01-08T10:00:00.000000Z')];
    expect((await rsapi('reports', 'list', '--all', '--record', '-q')).code).toBe(0);
    const baseline = await rsapi('reports', 'list', '--all', '--baseline', 'run:1', '--max-drop', '5', '-q');
    const diff = await rsapi('history', 'diff', '1', '2', '--max-drop', '5', '-o', 'json');
    expect(baseline.code, baseline.stderr).toBe(expected ? 10 : 0);
    expect(diff.code, diff.stderr).toBe(expected ? 10 : 0);
  });

  it('the rule: a fall past the allowed drop, a worse or vanished result, a vanished score', () => {
    const good = { score: 90, label: 'good' };
    expect(regressed(readingChange(good, { score: undefined, label: undefined }), 5)).toBe(true);
    expect(regressed(readingChange(good, { score: 90, label: undefined }), 5)).toBe(true);
    expect(regressed(readingChange(good, { score: undefined, label: 'good' }), 5)).toBe(true);
    expect(regressed(readingChange(good, { score: 84, label: 'good' }), 5)).toBe(true);
    expect(regressed(readingChange(good, { score: 85, label: 'good' }), 5)).toBe(false);
    expect(regressed(readingChange(good, { score: 89, label: 'decent' }), 5)).toBe(true);
    expect(regressed(readingChange({ score: undefined, label: undefined }, good), 0)).toBe(false);
  });
});

// ---- The matrix: every cell through every face --------------------------------------------------------------------

type Page = Record<string, unknown>;
/** Three pages (a, b, c) of one site, checks c1-c3 passing and c4 failing, good at 90; `over` changes page b. */
function matrixWeek(generated: string, over: Partial<Record<'b', Page | null>> = {}, paths = ['a', 'b', 'c']): Page[] {
  return paths.flatMap((path, index) => {
    const page: Page = {
      id: index + 1 + (paths[0] === 'a' ? 0 : 10),
      url: `https://matrix.example/${path}`,
      project: 'matrix.example',
      result: 'good',
      score: 90,
      generated_at: generated,
      results: Object.fromEntries(['c1', 'c2', 'c3', 'c4'].map((id) => [id, { passed: id !== 'c4', importance: 'high', value: id }])),
    };
    const changed = path === 'b' && 'b' in over ? over.b : undefined;
    if (changed === null) return [];
    return [{ ...page, ...changed }];
  });
}
const checks = (passed: Record<string, boolean>) =>
  Object.fromEntries(Object.entries(passed).map(([id, ok]) => [id, { passed: ok, importance: 'high', value: id }]));
const noChecks = { results: undefined };

interface Cell {
  name: string;
  /** The earlier and the later readings (a function of the week's generated_at). */
  before: (generated: string) => Page[];
  after: (generated: string) => Page[];
  allowEmpty?: boolean;
  exit: number;
  /** `identity|subject`: what failed, as every face must state it. */
  findings: string[];
}

const same = (g: string) => matrixWeek(g);
const CELLS: Cell[] = [
  { name: 'nothing changed', before: same, after: same, exit: 0, findings: [] },
  {
    name: 'a check that passed fails',
    before: same,
    after: (g) => matrixWeek(g, { b: { results: checks({ c1: true, c2: false, c3: true, c4: false }) } }),
    exit: 10,
    findings: ['matrix.example/b|checks/c2'],
  },
  { name: 'a score that vanished', before: same, after: (g) => matrixWeek(g, { b: { score: null } }), exit: 10, findings: ['matrix.example/b|score'] },
  { name: 'a score fell 30 points', before: same, after: (g) => matrixWeek(g, { b: { score: 60 } }), exit: 10, findings: ['matrix.example/b|score'] },
  { name: 'a score rose', before: same, after: (g) => matrixWeek(g, { b: { score: 95 } }), exit: 0, findings: [] },
  { name: 'a result worse', before: same, after: (g) => matrixWeek(g, { b: { result: 'decent' } }), exit: 10, findings: ['matrix.example/b|score'] },
  {
    name: 'a page came back with no checks at all',
    before: same,
    after: (g) => matrixWeek(g, { b: noChecks }),
    exit: 10,
    findings: ['matrix.example/b|checks/c1', 'matrix.example/b|checks/c2', 'matrix.example/b|checks/c3'],
  },
  {
    name: 'a page with no checks in either reading',
    before: (g) => matrixWeek(g, { b: noChecks }),
    after: (g) => matrixWeek(g, { b: noChecks }),
    exit: 0,
    findings: [],
  },
  {
    name: 'no page has checks, either side (not judged on checks)',
    before: (g) => matrixWeek(g).map((page) => ({ ...page, results: undefined })),
    after: (g) => matrixWeek(g).map((page) => ({ ...page, results: undefined })),
    exit: 8,
    findings: [],
  },
  { name: 'every page new (a gate over nothing)', before: same, after: (g) => matrixWeek(g, {}, ['d', 'e', 'f']), exit: 10, findings: [] },
  { name: 'every page new, --allow-empty', before: same, after: (g) => matrixWeek(g, {}, ['d', 'e', 'f']), allowEmpty: true, exit: 0, findings: [] },
  { name: 'some pages new, some vanished', before: same, after: (g) => matrixWeek(g, {}, ['a', 'b', 'g']), exit: 0, findings: [] },
  {
    name: 'some new and vanished, one check newly failing',
    before: same,
    after: (g) => [...matrixWeek(g, { b: { results: checks({ c1: false, c2: true, c3: true, c4: false }) } }, ['a', 'b', 'g'])],
    exit: 10,
    findings: ['matrix.example/b|checks/c1'],
  },
];

/** A service of one week's pages: lists and shows them; a refresh (PATCH) moves the page's generated_at on by an hour. */
function weekService(): { serve: (pages: Page[]) => void; handler: Parameters<typeof startRawServer>[0] } {
  let pages: Page[] = [];
  const refreshed = new Set<string>();
  const current = (page: Page) => (refreshed.has(String(page.id)) ? { ...page, generated_at: String(page.generated_at).replace('T10:', 'T11:') } : page);
  return {
    serve(next) {
      pages = next;
      refreshed.clear();
    },
    handler(request, response) {
      const path = request.url.replace(/^\/api\/v1/, '').split('?')[0] as string;
      const one = /^\/reports\/(\d+)$/.exec(path);
      response.setHeader('content-type', 'application/json');
      if (one) {
        const page = pages.find((candidate) => String(candidate.id) === one[1]);
        if (!page) {
          response.writeHead(404).end(JSON.stringify({ message: 'Not found.' }));
          return;
        }
        if (request.method === 'PATCH') refreshed.add(String(page.id));
        response.writeHead(200).end(JSON.stringify({ data: current(page), status: 200 }));
        return;
      }
      const data = pages.map(current);
      response.writeHead(200).end(JSON.stringify({ data, meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length }, status: 200 }));
    },
  };
}

/** `identity|subject` of a Code Quality file's comparison findings (rsapi/since-baseline/ID or /score). */
function codeQualityFindings(path: string): string[] {
  const issues = JSON.parse(readFileSync(path, 'utf8')) as { check_name: string; location: { path: string } }[];
  return issues
    .filter((issue) => issue.check_name.startsWith('rsapi/since-baseline/'))
    .map((issue) => {
      const subject = issue.check_name.slice('rsapi/since-baseline/'.length);
      return `${issue.location.path}|${subject === 'score' ? 'score' : `checks/${subject}`}`;
    })
    .sort();
}

describe('one judge, every face: the same exit code and findings for the same two readings', () => {
  const WEEK_1 = '2026-01-01T10:00:00.000000Z';
  const WEEK_2 = '2026-01-08T10:00:00.000000Z';
  const GATE = ['--fail-on-new-failures', '--max-drop', '5'];

  it.each(CELLS)('$name', async (cell) => {
    const service = weekService();
    const site = await startRawServer(service.handler);
    onTestFinished(() => site.close());
    const dir = scratch();
    const env = { RSAPI_BASE_URL: site.url, RSAPI_API_KEY: 'judge-key-1234', RSAPI_CONFIG_DIR: join(dir, 'config') };
    const empty = cell.allowEmpty ? ['--allow-empty'] : [];
    const faces: Record<string, { exit: number; findings: string[] }> = {};

    // --baseline: two recorded lists of the site, the second judged against the first.
    const history = join(dir, 'lists.db');
    const list = (...argv: string[]) =>
      runInProcess({ argv: ['reports', 'list', '--all', '--record', '--job', 'm', '--history', history, ...argv, '-q'], env });
    service.serve(cell.before(WEEK_1));
    expect((await list()).code).toBe(0);
    service.serve(cell.after(WEEK_2));
    const baseline = await list('--baseline', 'last', ...GATE, ...empty, '--codequality', join(dir, 'baseline.json'));
    faces.baseline = { exit: baseline.code, findings: codeQualityFindings(join(dir, 'baseline.json')) };

    // history diff of the same two runs.
    const diff = await runInProcess({
      argv: ['history', 'diff', '1', '2', '--history', history, ...GATE, ...empty, '--codequality', join(dir, 'diff.json'), '-o', 'json'],
      env,
    });
    faces['history diff'] = { exit: diff.code, findings: codeQualityFindings(join(dir, 'diff.json')) };

    // MCP's history_diff over the same history: the verdict as a value.
    const answer = await withContext({ ...env, RSAPI_HISTORY: history }, (server) =>
      callTool(
        server,
        offeredTools({ allowWrite: false }),
        'history_diff',
        { a: '1', b: '2', fail_on_new_failures: true, max_drop: '5', allow_empty: cell.allowEmpty === true },
        new AbortController().signal,
      ),
    );
    expect(answer.isError, answer.content[0]?.text).toBeFalsy();
    const verdict = (JSON.parse(answer.content[0]?.text ?? '{}') as { verdict: { exit_code: number; findings: { url: string; subject: string }[] } }).verdict;
    faces.mcp = { exit: verdict.exit_code, findings: verdict.findings.map((f) => `${reportIdentity(f.url)}|${f.subject}`).sort() };

    // rsapi audit: the weekly job over the same pages, refreshed and recorded, into a history of its own.
    const audit = async (pages: Page[]) => {
      const config = join(dir, 'rsapi.config.json');
      const urls = pages.map((page) => String(page.url));
      const codequality = join(dir, 'audit.json');
      writeFileSync(config, JSON.stringify({ audit: { job: 'm', urls, history: join(dir, 'audit.db'), failOnNewFailures: true, maxDrop: 5, codequality } }));
      return runInProcess({ argv: ['audit', '--config', config, ...empty], env });
    };
    service.serve(cell.before(WEEK_1));
    const first = await audit(cell.before(WEEK_1));
    expect([0, 8], first.stderr).toContain(first.code);
    service.serve(cell.after(WEEK_2));
    const second = await audit(cell.after(WEEK_2));
    faces.audit = { exit: second.code, findings: codeQualityFindings(join(dir, 'audit.json')) };

    const expected = { exit: cell.exit, findings: [...cell.findings].sort() };
    expect(faces, `${baseline.stderr}\n${diff.stderr}\n${second.stderr}`).toEqual({
      baseline: expected,
      'history diff': expected,
      mcp: expected,
      audit: expected,
    });
  });
});
