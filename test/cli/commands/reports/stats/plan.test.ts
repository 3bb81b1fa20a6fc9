// `reports stats`'s plan (planReportsStats): argv -> what the run will count, judge and record, with no server.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planReportsStats } from '../../../../../src/cli/commands/reports/stats.js';
import { tempDir } from '../../../../helpers/cli.js';
import { planOf } from '../../../../helpers/plan.js';

const scratch = tempDir('rsapi-stats-plan-');
afterAll(() => scratch.cleanup());
const plan = (...argv: string[]) => planOf(['reports', 'stats', ...argv], planReportsStats);

describe('reports stats: argv -> plan', () => {
  it('every matching report, 100 a request; the scores by default, the checks with --checks, per project with --by', async () => {
    const plain = await plan('--project', 'example.com');
    expect(plain).toMatchObject({ params: { project: 'example.com', perPage: 100 }, checks: false, byProject: false, ci: undefined });
    expect(plain.record.run).toEqual({ command: 'reports stats', selection: { project: 'example.com' } });
    expect(await plan('--checks', '--by', 'project')).toMatchObject({ checks: true, byProject: true });
  });

  it('the files: --summary and --html, with what chose the reports; the gate names it too', async () => {
    const html = join(scratch.path, 'stats.html');
    const planned = await plan('--search', '/blog', '--html', html);
    expect(planned.ci).toMatchObject({ html, search: '/blog', baseline: undefined });
    expect(planned.gate.selection).toEqual({ project: undefined, search: '/blog' });
  });

  it('refused by the plan: -q, --fields, and a file in a folder that does not exist', async () => {
    await expect(plan('-q')).rejects.toThrow(/^-q prints identifiers, and stats has none$/);
    await expect(plan('--fields', 'url')).rejects.toThrow(/--fields does not apply to reports stats/);
    await expect(plan('--summary', join(scratch.path, 'none', 's.md'))).rejects.toThrow(/no such file/);
  });
});
