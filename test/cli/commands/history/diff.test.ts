// `history diff`'s plan (planHistoryDiff): argv -> which runs, what narrows them, the gates, with no history opened.
import { describe, expect, it } from 'vitest';
import { planHistoryDiff } from '../../../../src/cli/commands/history/diff.js';
import { planOf } from '../../../helpers/plan.js';

const plan = (...argv: string[]) =>
  planOf(['history', 'diff', ...argv], (ctx, opts: never, [a, b]: [number | undefined, number | undefined]) =>
    planHistoryDiff(ctx, { ...(opts as object), a, b } as never),
  );

describe('history diff: argv -> plan', () => {
  it('two runs named, the gates, and where the history is', async () => {
    expect(await plan('12', '15', '--max-drop', '5', '--fail-on-new-failures', '--history', 'team.db')).toEqual({
      history: { history: 'team.db' },
      runs: { a: 12, b: 15 },
      scope: { since: undefined, job: undefined, project: undefined },
      gate: { maxDrop: 5, failOnNewFailures: true },
      verdicts: { assertions: undefined, allowEmpty: undefined, codequality: undefined },
    });
  });

  it('no run named: the last two of a job, a project, or within a time', async () => {
    const planned = await plan('--job', 'weekly', '--project', 'example.com', '--since', '7d');
    expect(planned.runs).toEqual({ a: undefined, b: undefined });
    expect(planned.scope).toEqual({ since: 7 * 24 * 3600 * 1000, job: 'weekly', project: 'example.com' });
    expect(planned.gate).toEqual({ maxDrop: undefined, failOnNewFailures: false });
  });

  it('refused by the plan, before the history is opened', async () => {
    await expect(plan('-q')).rejects.toThrow(/^-q prints identifiers; history diff prints a document$/);
    await expect(plan('--fields', 'url')).rejects.toThrow(/--fields does not apply to history diff/);
  });
});
