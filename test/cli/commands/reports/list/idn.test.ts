// Internationalised domains in reports list and projects list: filters sent in punycode as create sends hosts, tables
// showing Unicode hosts and decoded paths, json as the service sent it.
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, seed: 3 });

describe('internationalised domains', () => {
  it('--search and --project with a Unicode host find the reports create stored in punycode; tables show Unicode, json as sent', async () => {
    const fixture = await mock();
    const created = await runInProcess({ argv: ['reports', 'create', 'https://例え.jp/パス', 'https://www.bücher.de/', '-q'], env: fixture.env });
    expect(created.code, created.stderr).toBe(0);
    const from = fixture.server.requests.length;
    const searched = await runInProcess({
      argv: ['reports', 'list', '--search', '例え', '-o', 'table', '--no-color'],
      env: fixture.env,
      tty: { stdout: true },
      columns: 120,
    });
    expect(searched.code, searched.stderr).toBe(0);
    const rows = searched.stdout.trim().split('\n').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/ 例え\.jp\/パス +例え\.jp /);
    const project = await runInProcess({ argv: ['reports', 'list', '--project', '例え.jp', '--json'], env: fixture.env });
    expect((JSON.parse(project.stdout) as { url: string }[]).map((report) => report.url)).toEqual(['xn--r8jz45g.jp/%E3%83%91%E3%82%B9']);
    const projects = await runInProcess({ argv: ['projects', 'list', '--search', 'bücher', '-q'], env: fixture.env });
    expect(projects.stdout).toBe('xn--bcher-kva.de\n');
    expect(fixture.server.requests.slice(from).map((request) => request.query.search ?? request.query.project)).toEqual([
      'xn--r8jz45g',
      'xn--r8jz45g.jp',
      'xn--bcher-kva',
    ]);
  });
});
