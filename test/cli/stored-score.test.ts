// phpRank answers a create or a refresh with the unrounded score but stores and lists it rounded: the record model
// reads it as stored whichever answer carried the report, so a history of a create, a refresh and a list of the same
// report shows no change, and `--baseline last --max-drop 0` finds no regression that never happened.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditPage, weightedScore } from '../../src/mock/phprank-audit.js';
import { mockPerTest } from '../helpers/mock.js';
import { runInProcess } from '../helpers/run.js';
import { scratchMaker } from '../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', seed: 0 });
const scratch = scratchMaker('rsapi-stored-score-');

/** A page whose audit scores a fraction (the create answers 18.42..., the list 18). */
const PAGE = Array.from({ length: 50 }, (_, index) => `rounding.example/page-${index}`).find(
  (page) => !Number.isInteger(weightedScore(auditPage(page).checks ?? {})),
)!;

const LIST = ['reports', 'list', '--all'];
const CHECKED = [...LIST, '--baseline', 'last', '--max-drop', '0'];

describe('a phpRank score read as stored, whichever answer carried it', () => {
  it.each([
    ['a create, then two lists', [['reports', 'create', `https://${PAGE}`], LIST, CHECKED]],
    ['a list, a refresh, then a list', [LIST, ['reports', 'update', '{id}', '--refresh'], CHECKED]],
  ])('%s: --baseline last --max-drop 0 passes, and history diff of the lists shows no change', async (_name, steps) => {
    const fixture = await mock();
    const env = { ...fixture.env, RSAPI_HISTORY: join(scratch(), 'history.db') };
    if (steps[0]?.[1] !== 'create') expect((await runInProcess({ argv: ['reports', 'create', `https://${PAGE}`], env })).code).toBe(0);
    const exact = weightedScore(auditPage(PAGE).checks ?? {});
    let id = '';
    for (const step of steps) {
      const result = await runInProcess({ argv: [...step.map((word) => word.replace('{id}', id)), '--record', '--json'], env });
      expect(result.code, result.stderr).toBe(0);
      const report = ([JSON.parse(result.stdout)].flat() as { id: number; url: string; result: number }[]).find((record) => record.url === PAGE)!;
      id = String(report.id);
      // The service's own answer: unrounded after a create or a refresh, rounded in a list.
      expect(report.result).toBe(step[1] === 'list' ? Math.round(exact) : exact);
    }
    const diff = await runInProcess({ argv: ['history', 'diff'], env });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout + diff.stderr).not.toMatch(/→/);
  });
});
