// Multi-delete of reports and projects: every item tried, an outcome line each, the first failure class as exit code.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/runtime/exit-codes.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { runInProcess } from '../../helpers/run.js';
import { mockPerTest, type MockFixture } from '../../helpers/mock.js';

const mock = mockPerTest({ seed: 20 });

/** The mock's fault dice, loaded: these values first, then never a fault. */
function dice(values: number[]): () => number {
  const queue = [...values];
  return () => queue.shift() ?? 0.99;
}

function reportIds(mockFixture: MockFixture): number[] {
  return mockFixture.server.reports().map((report) => report.id);
}

function deletes(mockFixture: MockFixture): string[] {
  return mockFixture.server.requests.filter((request) => request.method === 'DELETE').map((request) => request.path);
}

describe('reports delete ID...', () => {
  it('deletes the known ids, reports the unknown ones with the same hint a single failure gets, and exits 4 after trying them all', async () => {
    const server = await mock();
    const result = await runInProcess({ argv: ['reports', 'delete', '3', '9999', '5', '8888', '7', '--yes'], env: server.env });
    expect(result.code).toBe(ExitCode.notFound);
    for (const id of [3, 5, 7]) expect(reportIds(server)).not.toContain(id);
    expect(reportIds(server)).toHaveLength(17);
    expect(deletes(server)).toEqual(['/api/v1/reports/3', '/api/v1/reports/9999', '/api/v1/reports/5', '/api/v1/reports/8888', '/api/v1/reports/7']);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      'deleted report 3',
      expect.stringMatching(/^rsapi: report 9999: not found.*\(HTTP 404, DELETE \/reports\/9999\)$/),
      'hint: check the id; `rsapi reports list` lists reports',
      'deleted report 5',
      expect.stringMatching(/^rsapi: report 8888: not found/),
      'hint: check the id; `rsapi reports list` lists reports',
      'deleted report 7',
      'deleted 3 reports, failed 2 (exit 4)',
    ]);
    expect(result.stdout).toBe('');
  });

  it('reads ids from stdin with -, skipping blanks and comments, sends each once; -q prints the deleted ids', async () => {
    const server = await mock();
    const result = await runInProcess({ argv: ['reports', 'delete', '-', '2', '--yes', '-q'], env: server.env, stdin: '# bad ones\n4\n\n6\n2\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('4\n6\n2\n');
    expect(deletes(server)).toHaveLength(3);
    for (const id of [2, 4, 6]) expect(reportIds(server)).not.toContain(id);
  });

  it('an id that is not an id stops the run before any request (exit 2)', async () => {
    const server = await mock();
    const result = await runInProcess({ argv: ['reports', 'delete', '-', '--yes'], env: server.env, stdin: '4\nfour?\n' });
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain('"four?" is not a report id');
    expect(server.server.requests).toHaveLength(0);
  });

  it('without a terminal and without --yes refuses and deletes nothing (exit 2)', async () => {
    const server = await mock();
    const result = await runInProcess({ argv: ['reports', 'delete', '1', '2'], env: server.env });
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain('refusing to delete without confirmation');
    expect(server.server.requests).toHaveLength(0);
    expect(reportIds(server)).toHaveLength(20);
  });

  it('the exit code is the first failure class met, not the last', async () => {
    // A 503 on every attempt (exit 8) for report 1, a 404 (exit 4) for 9999: whichever comes first decides.
    const notFoundFirst = await mock({ failRate: 0.5, random: dice([0.9, 0.1, 0.1, 0.1]) });
    const a = await runInProcess({ argv: ['reports', 'delete', '9999', '1', '--yes', '--retries', '2'], env: notFoundFirst.env, clock: new FakeClock() });
    expect(a.code).toBe(ExitCode.notFound);
    expect(a.stderr).toMatch(/report 1: server error.*HTTP 503/);
    expect(reportIds(notFoundFirst)).toContain(1);

    const serverFirst = await mock({ failRate: 0.5, random: dice([0.1, 0.1, 0.1, 0.9]) });
    const b = await runInProcess({ argv: ['reports', 'delete', '1', '9999', '--yes', '--retries', '2'], env: serverFirst.env, clock: new FakeClock() });
    expect(b.code).toBe(ExitCode.server);
    expect(b.stderr).toMatch(/report 9999: not found/);
  });

  it('a wrong key refuses every item (exit 3) and deletes nothing', async () => {
    const server = await mock();
    const refused = await runInProcess({ argv: ['reports', 'delete', '2', '9999', '--yes'], env: { ...server.env, RSAPI_API_KEY: 'not-the-key-123' } });
    expect(refused.code).toBe(ExitCode.auth);
    expect(refused.stderr.match(/authentication refused/g)).toHaveLength(2);
    expect(reportIds(server)).toHaveLength(20);
  });
});

describe('projects delete NAME...', () => {
  it('deletes the known projects, reports the unknown one, and exits 4', async () => {
    const server = await mock();
    const names = server.server.projects().map((project) => project.project);
    expect(names).toEqual(expect.arrayContaining(['example.com', 'blog.example.net']));
    const result = await runInProcess({ argv: ['projects', 'delete', 'example.com', 'no-such.example', 'blog.example.net', '--yes'], env: server.env });
    expect(result.code).toBe(ExitCode.notFound);
    const left = server.server.projects().map((project) => project.project);
    expect(left).not.toContain('example.com');
    expect(left).not.toContain('blog.example.net');
    expect(left).toHaveLength(names.length - 2);
    expect(result.stderr).toContain('deleted project example.com');
    expect(result.stderr).toMatch(/rsapi: project no-such\.example: not found/);
    expect(result.stderr).toContain('deleted project blog.example.net');
  });

  it('reads names from stdin with -', async () => {
    const server = await mock();
    const result = await runInProcess({ argv: ['projects', 'delete', '-', '--yes', '-q'], env: server.env, stdin: 'shop.example.org\ndocs.example.io\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('shop.example.org\ndocs.example.io\n');
    const left = server.server.projects().map((project) => project.project);
    expect(left).not.toContain('shop.example.org');
    expect(left).not.toContain('docs.example.io');
  });
});

describe('multi-delete, N at a time', () => {
  it('--concurrency 8 deletes 40 reports with up to 8 in flight and ends with a summary', async () => {
    const server = await mock({ seed: 60, latencyMs: 60 });
    const ids = Array.from({ length: 40 }, (_, index) => String(index + 1));
    const started = performance.now();
    const result = await runInProcess({ argv: ['reports', 'delete', ...ids, '--yes', '--concurrency', '8'], env: server.env });
    expect(result.code).toBe(0);
    expect(result.stderr.trim().split('\n').at(-1)).toBe('deleted 40 reports, failed 0');
    expect(reportIds(server)).toHaveLength(20);
    expect(deletes(server).sort()).toEqual(ids.map((id) => `/api/v1/reports/${id}`).sort());
    // Sequentially 40 x 60 ms would take 2.4 s.
    expect(performance.now() - started).toBeLessThan(2_400);
  });

  it('projects delete takes --concurrency too, bounded 1 to 32', async () => {
    const server = await mock();
    const names = server.server.projects().map((project) => project.project);
    const result = await runInProcess({ argv: ['projects', 'delete', ...names, '--yes', '--concurrency', '3'], env: server.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`deleted ${names.length} projects, failed 0`);
    expect(server.server.projects()).toEqual([]);
    const refused = await runInProcess({ argv: ['projects', 'delete', 'x', '--yes', '--concurrency', '33'], env: server.env });
    expect(refused.code).toBe(ExitCode.usage);
  });
});
