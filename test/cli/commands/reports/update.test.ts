// `reports update`'s plan (planReportsUpdate): argv -> what the run will change and record, with no server.
import { describe, expect, it } from 'vitest';
import { planReportsUpdate } from '../../../../src/cli/commands/reports/update.js';
import { planOf } from '../../../helpers/plan.js';

const plan = (...argv: string[]) =>
  planOf(['reports', 'update', ...argv], (ctx, opts: never, [id]: [string]) => planReportsUpdate(ctx, { ...(opts as object), id } as never));

describe('reports update: argv -> plan', () => {
  it('the report, what changes and where a password comes from; the run as recorded', async () => {
    expect(await plan('42', '--refresh', '--record')).toEqual({
      id: '42',
      refresh: true,
      privacy: { privacy: undefined, passwordStdin: undefined, passwordFile: undefined },
      record: { history: { record: true, history: undefined, job: undefined }, run: { command: 'reports update', selection: { id: '42' } } },
    });
    expect((await plan('42', '--privacy', 'password', '--password-file', 'pass.txt')).privacy).toEqual({
      privacy: 2,
      passwordStdin: undefined,
      passwordFile: 'pass.txt',
    });
  });

  it('refused by the plan, before a password is read or anything sent', async () => {
    await expect(plan('42')).rejects.toThrow(/^nothing to update$/);
    await expect(plan('42', '--privacy', 'private', '--password-file', 'pass.txt')).rejects.toThrow(/a password goes only with --privacy password/);
  });
});
