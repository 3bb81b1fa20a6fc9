// `reports list`'s plan (planReportsList): argv -> what the run will do, with no server, no stdout and no process.
import { describe, expect, it } from 'vitest';
import { planReportsList } from '../../../../../src/cli/commands/reports/list.js';
import { planOf } from '../../../../helpers/plan.js';

const plan = (...argv: string[]) => planOf(['reports', 'list', ...argv], planReportsList);

describe('reports list: argv -> plan', () => {
  it.each([
    { name: 'a plain list: one page, no gate, no CI file', argv: [], paging: { all: false }, ci: undefined, gated: false },
    { name: 'a gate reads every page', argv: ['--fail-on', 'bad'], paging: { all: true }, ci: undefined, gated: true },
    {
      name: 'a gate with --limit reads only that many',
      argv: ['--min-score', '50', '--limit', '20'],
      paging: { all: false, limit: 20 },
      ci: undefined,
      gated: true,
    },
    { name: 'a baseline reads every page', argv: ['--baseline', 'last'], paging: { all: true }, ci: { baseline: 'last' }, gated: false },
    { name: '--page 3 stays one page', argv: ['--page', '3'], paging: { all: false, startPage: 3 }, ci: undefined, gated: false },
  ])('$name', async ({ argv, paging, ci, gated }) => {
    const planned = await plan(...argv);
    expect(planned.paging).toMatchObject(paging);
    if (ci === undefined) expect(planned.ci).toBeUndefined();
    else expect(planned.ci).toMatchObject(ci);
    const { failOn, minScore } = planned.gate;
    expect(failOn !== undefined || minScore !== undefined).toBe(gated);
  });

  it('the request carries the filters, the sort and the page size; the gate names what chose the reports', async () => {
    const planned = await plan('--project', 'example.com', '--result', 'bad', '--sort-by', 'score', '--sort', 'asc', '--per-page', '50', '--fail-on', 'decent');
    expect(planned.params).toMatchObject({ project: 'example.com', result: 'bad', sortBy: 'score', sort: 'asc', perPage: 50 });
    expect(planned.gate).toMatchObject({ failOn: 'decent', selection: { project: 'example.com' } });
  });

  it('the job: the filters, and without --all the page, its size and the order (another order is another set of reports)', async () => {
    const all = await plan('--project', 'example.com', '--all', '--sort-by', 'score');
    expect(all.record.run).toEqual({ command: 'reports list', selection: { project: 'example.com', limit: undefined, all: true } });
    const part = await plan('--project', 'example.com', '--per-page', '25', '--sort-by', 'score');
    expect(part.record.run.selection).toMatchObject({ project: 'example.com', perPage: 25, sortBy: 'score', all: false });
    expect((await plan('--job', 'weekly', '--record')).record.history).toEqual({ record: true, history: undefined, job: 'weekly' });
  });

  it('the check filter and --per-check are the plan, not flags the run reads again', async () => {
    const planned = await plan('--failing-check', 'title', '--passing-check', 'http2', '-o', 'csv', '--per-check');
    expect(planned.checks).toEqual({ failing: ['title'], passing: ['http2'] });
    expect(planned.perCheck).toBe(true);
  });

  it('a usage error is thrown by the plan, before anything is read or sent', async () => {
    await expect(plan('--per-check', '-o', 'json')).rejects.toThrow(/--per-check writes one row per report and check/);
    await expect(plan('--max-drop', '5')).rejects.toThrow(/--max-drop needs --baseline/);
    await expect(plan('--failing-check', 'title', '--page', '2')).rejects.toThrow(/read every page/);
  });
});
