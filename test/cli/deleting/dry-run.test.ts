// Dry runs predict the real run: each target looked up with reads only, "delete" or "not-found" in every format, and the real run's exit code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';

const flavors = ['seed', 'phprank'] as const;
const mocks = new Map<(typeof flavors)[number], MockFixture>();

beforeAll(async () => {
  for (const flavor of flavors) mocks.set(flavor, await startMock({ flavor, rateLimit: 0 }));
});
afterAll(async () => {
  await Promise.all([...mocks.values()].map((mock) => mock.close()));
});

function mockOf(flavor: (typeof flavors)[number]): MockFixture {
  const mock = mocks.get(flavor);
  if (!mock) throw new Error(`no ${flavor} mock`);
  return mock;
}

/** Runs rsapi against the flavor's mock; says which requests it sent and whether anything was deleted. */
async function dryRun(flavor: (typeof flavors)[number], argv: string[], stdin?: string) {
  const mock = mockOf(flavor);
  const before = mock.server.requests.length;
  const reports = mock.server.reports().length;
  const result = await runInProcess({ argv, env: mock.env, stdin });
  const methods = mock.server.requests.slice(before).map((request) => request.method);
  expect(mock.server.reports()).toHaveLength(reports);
  return { ...result, methods };
}

for (const flavor of flavors) {
  describe(`reports delete --dry-run (${flavor} mock)`, () => {
    const cases = [
      {
        name: 'json: an array of {id, action, url, project}; a missing id is not-found and the run exits 4 as the real one would',
        argv: ['-o', 'json'],
        check: (stdout: string, url: string) =>
          expect(JSON.parse(stdout)).toEqual([
            { id: 1, action: 'delete', url, project: expect.any(String) },
            { id: 99999, action: 'not-found', url: null, project: null },
          ]),
      },
      {
        name: 'tsv (a pipe): id, action and url a line',
        argv: [],
        check: (stdout: string, url: string) => expect(stdout).toBe(`1\tdelete\t${url}\n99999\tnot-found\t\n`),
      },
      {
        name: 'csv: with its header',
        argv: ['-o', 'csv'],
        check: (stdout: string, url: string) => expect(stdout).toBe(`id,action,url\r\n1,delete,${url}\r\n99999,not-found,\r\n`),
      },
      {
        name: 'ndjson: one object a line',
        argv: ['-o', 'ndjson'],
        check: (stdout: string) =>
          expect(
            stdout
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line).action),
          ).toEqual(['delete', 'not-found']),
      },
      {
        name: '-q: only the ids that would be deleted',
        argv: ['-q'],
        check: (stdout: string) => expect(stdout).toBe('1\n'),
      },
    ];
    for (const row of cases) {
      it(row.name, async () => {
        const url = String(
          mockOf(flavor)
            .server.reports()
            .find((report) => report.id === 1)?.url,
        );
        const result = await dryRun(flavor, ['reports', 'delete', '1', '99999', '--dry-run', ...row.argv]);
        row.check(result.stdout, url);
        expect(result.stderr).toBe('dry run: 1 report would be deleted, 1 report not found (the real run would exit 4); nothing was deleted\n');
        expect(result.code).toBe(4);
        expect(result.methods).toEqual(['GET', 'GET']);
      });
    }

    it('every id found: exit 0, as the real run; ids from stdin looked up once each', async () => {
      const result = await dryRun(flavor, ['reports', 'delete', '-', '--dry-run', '-o', 'json'], '2\n3\n2\n');
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).map((row: { id: number; action: string }) => [row.id, row.action])).toEqual([
        [2, 'delete'],
        [3, 'delete'],
      ]);
      expect(result.stderr).toBe('dry run: 2 reports would be deleted; nothing was deleted\n');
      expect(result.methods).toEqual(['GET', 'GET']);
    });

    it('the real run agrees with the dry run: exit 4 for the missing id', async () => {
      const predicted = await dryRun(flavor, ['reports', 'delete', '4', '99998', '--dry-run']);
      const real = await runInProcess({ argv: ['reports', 'delete', '4', '99998', '--yes'], env: mockOf(flavor).env });
      expect(predicted.code).toBe(4);
      expect(real.code).toBe(predicted.code);
    });
  });

  describe(`projects delete --dry-run (${flavor} mock)`, () => {
    it('json: {id, action, reports, urls}; a project the service does not know is not-found, exit 4, reads only', async () => {
      const mock = mockOf(flavor);
      const project = 'example.com';
      const count = mock.server.reports().filter((report) => report.project === project).length;
      const result = await dryRun(flavor, ['projects', 'delete', project, 'nonexist.example', '--dry-run', '--json']);
      expect(result.code, result.stderr).toBe(4);
      const rows = JSON.parse(result.stdout);
      expect(rows).toEqual([
        { id: project, action: 'delete', reports: count, urls: expect.any(Array) },
        { id: 'nonexist.example', action: 'not-found', reports: 0, urls: [] },
      ]);
      expect(rows[0].urls.length).toBeGreaterThan(0);
      expect(result.stderr).toBe('dry run: 1 project would be deleted, 1 project not found (the real run would exit 4); nothing was deleted\n');
      expect(result.methods.every((method) => method === 'GET')).toBe(true);
      expect(mock.server.projects().some((p) => p.project === project)).toBe(true);
      const real = await runInProcess({ argv: ['projects', 'delete', 'nonexist.example', '--yes'], env: mock.env });
      expect(real.code).toBe(4);
    });

    it('tsv: id, action and the report count', async () => {
      const count = mockOf(flavor)
        .server.reports()
        .filter((report) => report.project === 'example.com').length;
      const result = await dryRun(flavor, ['projects', 'delete', 'example.com', '--dry-run']);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`example.com\tdelete\t${count}\n`);
    });
  });
}

describe('a dry run on a terminal', () => {
  it('draws a table of id, action and url', async () => {
    const mock = mockOf('phprank');
    const url = String(mock.server.reports().find((report) => report.id === 5)?.url);
    const result = await runInProcess({ argv: ['reports', 'delete', '5', '99999', '--dry-run', '--no-color'], env: mock.env, tty: true, columns: 80 });
    expect(result.code).toBe(4);
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(/^id +action +url$/),
      expect.stringMatching(new RegExp(`^5 +delete +${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`)),
      expect.stringMatching(/^99999 +not-found$/),
      '',
    ]);
  });

  it('a look-up that fails otherwise than "not found" ends the dry run with that failure (it cannot predict)', async () => {
    const result = await runInProcess({ argv: ['reports', 'delete', '5', '--dry-run'], env: { ...mockOf('seed').env, RSAPI_API_KEY: 'wrong-key-0123456789' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
  });
});
