// reports stats --summary and --html: the run's files, as list and create write them, for a run with no gate.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportChecks } from '../../../../../src/api/model/checks.js';
import { tempDir } from '../../../../helpers/cli.js';
import { type MockFixture, startMock } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';

let phprank: MockFixture;
const dir = tempDir('rsapi-stats-files-');
beforeAll(async () => {
  phprank = await startMock({ flavor: 'phprank', rateLimit: 0 });
});
afterAll(async () => {
  await phprank.close();
  dir.cleanup();
});

describe('reports stats --summary', () => {
  it('appends counts per result and the most failed checks, counted as -o json counts them', async () => {
    const summary = join(dir.path, 'summary.md');
    const stats = await runInProcess({ argv: ['reports', 'stats', '--summary', summary, '-o', 'json'], env: phprank.env });
    expect(stats.code, stats.stderr).toBe(0);
    const listed = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: phprank.env });
    const reports = JSON.parse(listed.stdout) as Record<string, unknown>[];
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('**Verdict: passed.**');
    expect(text).toContain(`**Most failed checks** (of ${reports.length} reports with per-check results)`);
    // The first row of the table is the check failed most: its count equals one made from the json.
    const firstRow = text.split('\n').find((line) => /^\| .+ \| (high|medium|low) \| \d+ \| \d+% \|$/.test(line));
    expect(firstRow).toBeDefined();
    const [, name, , count] = firstRow!.split('|').map((cell) => cell.trim());
    const id = /\(([a-z0-9_]+)\)/.exec(name!)?.[1] ?? name!;
    const failing = reports.filter((report) => reportChecks(report)?.some((check) => check.id === id && !check.passed)).length;
    expect(Number(count)).toBe(failing);
  });

  it('is refused with an empty path before any request', async () => {
    const seen = phprank.server.requests.length;
    const result = await runInProcess({ argv: ['reports', 'stats', '--summary', ''], env: phprank.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--summary');
    expect(phprank.server.requests.length).toBe(seen);
  });
});
