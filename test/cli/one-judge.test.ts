// The one judge (src/api/model/regression.ts) through both commands that gate on two readings: `reports list
// --baseline run:N --max-drop` and `history diff --max-drop` give the same verdict on the same two readings of a page,
// a vanished score or result included.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingChange, regressed } from '../../src/api/model/regression.js';
import { startRawServer, type RawServer } from '../helpers/raw-server.js';
import { runInProcess } from '../helpers/run.js';
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
