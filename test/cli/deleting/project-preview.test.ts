// Safe deletes: --dry-run deletes nothing and sends no DELETE; projects delete tells how many reports go with it; a "no" exits 2.
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';
import { runOnTerminal } from '../../helpers/terminal.js';

const mock = mockPerTest();

describe('--dry-run', () => {
  it('reports delete - --dry-run: prints what would be deleted, sends only reads (GET), deletes nothing', async () => {
    const fixture = await mock();
    const before = fixture.server.requests.length;
    const count = fixture.server.reports().length;
    const urlOf = (id: number) => String(fixture.server.reports().find((report) => report.id === id)?.url);
    const result = await runInProcess({ argv: ['reports', 'delete', '-', '--dry-run'], env: fixture.env, stdin: '5\n6\n5\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`5\tdelete\t${urlOf(5)}\n6\tdelete\t${urlOf(6)}\n`);
    expect(result.stderr).toBe('dry run: 2 reports would be deleted; nothing was deleted\n');
    expect(fixture.server.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/v1/reports/5',
      'GET /api/v1/reports/6',
    ]);
    expect(fixture.server.reports()).toHaveLength(count);
  });

  it('with -q prints only the ids, for the next command in a pipe', async () => {
    const fixture = await mock();
    const result = await runInProcess({ argv: ['reports', 'delete', '7', '8', '--dry-run', '-q'], env: fixture.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('7\n8\n');
  });

  it('projects delete --dry-run: each project with its report count and some URLs, no DELETE, nothing deleted', async () => {
    const fixture = await mock();
    const project = 'example.com';
    const reports = fixture.server.reports().filter((report) => report.project === project);
    const before = fixture.server.requests.length;
    const result = await runInProcess({ argv: ['projects', 'delete', project, '--dry-run', '--json'], env: fixture.env });
    expect(result.code, result.stderr).toBe(0);
    const [row] = JSON.parse(result.stdout);
    expect(row).toEqual({ id: project, action: 'delete', reports: reports.length, urls: expect.any(Array) });
    expect(row.urls).toHaveLength(5);
    expect(row.urls.every((url: string) => reports.some((report) => url === report.url))).toBe(true);
    const requests = fixture.server.requests.slice(before);
    expect(requests.every((request) => request.method === 'GET')).toBe(true);
    expect(requests).toHaveLength(2);
    expect(fixture.server.projects().some((p) => p.project === project)).toBe(true);
  });

  it('--yes sends no look-up before deleting: a script pays only for the DELETE', async () => {
    const fixture = await mock();
    const before = fixture.server.requests.length;
    const result = await runInProcess({ argv: ['projects', 'delete', 'example.com', '--yes'], env: fixture.env });
    expect(result.code, result.stderr).toBe(0);
    expect(fixture.server.requests.slice(before).map((request) => request.method)).toEqual(['DELETE']);
  });
});

describe('the confirmation on a terminal', () => {
  it('projects delete says how many reports go with it and lists their URLs; "no" deletes nothing and exits 2', async () => {
    const fixture = await mock();
    const reports = fixture.server.reports().filter((report) => report.project === 'example.com');
    const { code, screen } = await runOnTerminal(['projects', 'delete', 'example.com'], {
      env: { ...fixture.env, TERM: 'xterm-256color' },
      size: { columns: 100, rows: 40 },
      answers: [[/This cannot be undone/, 'n\r']],
    });
    expect(screen).toContain(`Delete project example.com and its ${reports.length} reports? This cannot be undone.`);
    expect(reports.filter((report) => screen.includes(`  ${report.url}\r\n`))).toHaveLength(5);
    expect(screen).toMatch(/… and \d+ more/);
    expect(screen).toMatch(/nothing deleted/);
    expect(code).toBe(2);
    expect(fixture.server.projects().some((p) => p.project === 'example.com')).toBe(true);
  });

  it('"yes" deletes the project and exits 0', async () => {
    const fixture = await mock();
    const { code } = await runOnTerminal(['projects', 'delete', 'example.com'], {
      env: { ...fixture.env, TERM: 'xterm-256color' },
      size: { columns: 100, rows: 40 },
      answers: [[/This cannot be undone/, 'y\r']],
    });
    expect(code).toBe(0);
    expect(fixture.server.projects().some((p) => p.project === 'example.com')).toBe(false);
  });
});
