// reports list --failing-check / --passing-check (a filter applied here over every page) and --per-check (one row per
// report and check), against phpRank reports with per-check results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phprankReport, seedReport, startReportServer } from '../../helpers/phprank-checks.js';
import { parseCsv } from '../../helpers/csv.js';
import { runInProcess } from '../../helpers/run.js';

/** 250 reports over three pages of 100: every third fails title, every fifth passes http2 (the rest fail it). */
const REPORTS = Array.from({ length: 250 }, (_, i) => {
  const failing = [...(i % 3 === 0 ? ['title'] : []), ...(i % 5 === 0 ? [] : ['http2'])];
  return phprankReport(i + 1, `example.com/p/${i}`, failing);
});

let server: Awaited<ReturnType<typeof startReportServer>>;
beforeAll(async () => {
  server = await startReportServer(REPORTS);
});
afterAll(async () => {
  await server.close();
});

const ids = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map(Number);

describe('--failing-check and --passing-check', () => {
  it('keep the reports failing (and passing) every check named, reading every page, said once', async () => {
    const before = server.requests.length;
    const { code, stdout, stderr } = await runInProcess({
      argv: ['reports', 'list', '--failing-check', 'title', '--passing-check', 'http2', '-q'],
      env: server.env,
    });
    expect(code, stderr).toBe(0);
    const want = REPORTS.filter((_, i) => i % 3 === 0 && i % 5 === 0).map((r) => r.id);
    expect(ids(stdout)).toEqual(want);
    expect(server.requests.length - before).toBe(3);
    expect(stderr.split('\n').filter((line) => line.includes('applied here'))).toEqual([
      'rsapi: --failing-check title --passing-check http2 are applied here, not by the service: reading every page',
    ]);
  });

  it('repeatable and comma-separated; --limit counts the matching reports', async () => {
    const { code, stdout } = await runInProcess({
      argv: ['reports', 'list', '--failing-check', 'title', '--failing-check', 'http2', '--limit', '4', '-q'],
      env: server.env,
    });
    expect(code).toBe(0);
    expect(ids(stdout)).toEqual(
      REPORTS.filter((_, i) => i % 3 === 0 && i % 5 !== 0)
        .slice(0, 4)
        .map((r) => r.id),
    );
  });

  it('an unknown id is exit 2 with the nearest; --page is refused; both before any request', async () => {
    const before = server.requests.length;
    const typo = await runInProcess({ argv: ['reports', 'list', '--failing-check', 'titel'], env: server.env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "title"?');
    const paged = await runInProcess({ argv: ['reports', 'list', '--failing-check', 'title', '--page', '2'], env: server.env });
    expect(paged.code).toBe(2);
    expect(server.requests.length).toBe(before);
  });

  it('a service with no per-check results: nothing matches, one line, exit 8', async () => {
    const seed = await startReportServer([seedReport(1, 'example.com/a')]);
    try {
      const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--failing-check', 'title', '-q'], env: seed.env });
      expect(code).toBe(8);
      expect(stderr).toContain('the service sent no per-check results (`results`) with its reports, so --failing-check title has nothing to read');
    } finally {
      await seed.close();
    }
  });
});

describe('--per-check', () => {
  it('-o csv: one row per report and check, with the header id,url,check,importance,passed,value', async () => {
    const { code, stdout, stderr } = await runInProcess({ argv: ['reports', 'list', '--limit', '2', '-o', 'csv', '--per-check'], env: server.env });
    expect(code, stderr).toBe(0);
    const rows = parseCsv(stdout);
    expect(rows[0]).toEqual(['id', 'url', 'check', 'importance', 'passed', 'value']);
    expect(rows).toHaveLength(1 + 2 * 36);
    expect(rows).toContainEqual([
      '1',
      'example.com/p/0',
      'title',
      'high',
      'false',
      'Welcome to the very long and repetitive home page title of our company website',
    ]);
    expect(rows).toContainEqual(['2', 'example.com/p/1', 'http2', 'medium', 'false', '']);
  });

  it('-o ndjson: one object a row; -o table or json is exit 2', async () => {
    const { stdout } = await runInProcess({ argv: ['reports', 'list', '--limit', '1', '-o', 'ndjson', '--per-check'], env: server.env });
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(36);
    expect(lines[0]).toEqual({
      id: 1,
      url: 'example.com/p/0',
      check: expect.any(String),
      importance: expect.any(String),
      passed: expect.any(Boolean),
      value: null,
    });
    const refused = await runInProcess({ argv: ['reports', 'list', '-o', 'json', '--per-check'], env: server.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--per-check writes one row per report and check, which -o json does not take');
  });
});
