// The history verbs' plans (planHistoryDiff and the others): argv -> which runs, what narrows them, the gates, with no
// history opened.
import { describe, expect, it } from 'vitest';
import { planHistoryDiff } from '../../../../src/cli/commands/history/diff.js';
import { planHistoryExport } from '../../../../src/cli/commands/history/export.js';
import { planHistoryImport } from '../../../../src/cli/commands/history/import.js';
import { planHistoryPrune } from '../../../../src/cli/commands/history/prune.js';
import { planHistoryRuns } from '../../../../src/cli/commands/history/runs.js';
import { planHistoryShow } from '../../../../src/cli/commands/history/show.js';
import { planHistoryTrend } from '../../../../src/cli/commands/history/trend.js';
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

  it('no run named: the last two of a job, a project (as the history files it: lower case, no www.), or within a time', async () => {
    const planned = await plan('--job', 'weekly', '--project', 'WWW.Example.com', '--since', '7d');
    expect(planned.runs).toEqual({ a: undefined, b: undefined });
    expect(planned.scope).toEqual({ since: 7 * 24 * 3600 * 1000, job: 'weekly', project: 'example.com' });
    expect(planned.gate).toEqual({ maxDrop: undefined, failOnNewFailures: false });
  });

  it('refused by the plan, before the history is opened', async () => {
    await expect(plan('-q')).rejects.toThrow(/^-q prints identifiers; history diff prints a document$/);
    await expect(plan('--fields', 'url')).rejects.toThrow(/--fields does not apply to history diff/);
  });
});

describe('the other history verbs: argv -> plan', () => {
  it('history trend: a URL or a project, narrowed by time, check, service and job; not both, not neither', async () => {
    const trend = (...argv: string[]) =>
      planOf(['history', 'trend', ...argv], (ctx, opts: never, [url]: [string | undefined]) => planHistoryTrend(ctx, { ...(opts as object), url } as never));
    expect(await trend('https://example.com/', '--since', '2w', '--check', 'title', '--service', 'all', '--job', 'weekly')).toEqual({
      history: { history: undefined },
      url: 'https://example.com/',
      project: undefined,
      since: 14 * 24 * 3600 * 1000,
      check: 'title',
      service: 'all',
      job: 'weekly',
    });
    await expect(trend()).rejects.toThrow(/^give a URL, --project NAME or --job NAME$/);
    // A job alone is a trend of its own: every page it read.
    expect(await trend('--job', 'weekly')).toMatchObject({ job: 'weekly', url: undefined, project: undefined });
    await expect(trend('https://example.com/', '--project', 'example.com')).rejects.toThrow(/not both/);
  });

  it('history prune: what it keeps, and --dry-run; nothing to keep said is refused', async () => {
    const prune = (...argv: string[]) => planOf(['history', 'prune', ...argv], planHistoryPrune);
    expect(await prune('--keep-runs', '5', '--dry-run')).toEqual({ history: { history: undefined }, keep: undefined, keepRuns: 5, dryRun: true });
    await expect(prune()).rejects.toThrow(/^say what to keep/);
  });

  it('history runs and show: where, and which', async () => {
    expect(await planOf(['history', 'runs', '--limit', '3'], planHistoryRuns)).toEqual({ history: { history: undefined }, since: undefined, limit: 3 });
    const show = await planOf(['history', 'show', '4', '--history', 'h.db'], (ctx, opts: never, [run]: [number]) =>
      planHistoryShow(ctx, { ...(opts as object), run } as never),
    );
    expect(show).toEqual({ history: { history: 'h.db' }, run: 4 });
  });

  it('history import and export: the file (- for stdin), where, since when; import prints a document, so -q and --fields are refused', async () => {
    const imported = (...argv: string[]) =>
      planOf(['history', 'import', ...argv], (ctx, opts: never, [file]: [string]) => planHistoryImport(ctx, { ...(opts as object), file } as never));
    expect(await imported('-', '--history', 'team.db')).toEqual({ history: { history: 'team.db' }, file: '-' });
    await expect(imported('runs.ndjson', '-q')).rejects.toThrow(/^-q prints identifiers; history import prints a document$/);
    await expect(imported('runs.ndjson', '--fields', 'imported')).rejects.toThrow(/^--fields does not apply to history import$/);
    await expect(imported('runs.ndjson', '--json', '-o', 'csv')).rejects.toThrow(/^--json and -o csv ask for different formats$/);
    expect(await planOf(['history', 'export', '--since', '2w'], planHistoryExport)).toEqual({ history: { history: undefined }, since: 14 * 24 * 3600 * 1000 });
  });
});
