import { describe, expect, it } from 'vitest';
import { ActionInputError, auditArgv, planAction, type ActionPlan } from '../../src/action/plan.js';
import { actionYaml } from '../helpers/action.js';

/** The plan of `inputs`, the others at action.yml's defaults, as the runner sets them. */
function planOf(inputs: Record<string, string> = {}): ActionPlan {
  const defaults = actionYaml().inputs;
  return planAction((name) => {
    if (!(name in defaults)) throw new Error(`the action reads an input action.yml does not declare: ${name}`);
    return inputs[name] ?? defaults[name]!.default ?? '';
  });
}

describe('planAction', () => {
  it('at the defaults: the history on branch rsapi-history, the summary on, require-baseline auto, no override of the file', () => {
    expect(planOf()).toEqual({
      workingDirectory: '',
      history: { branch: 'rsapi-history' },
      summary: true,
      merge: false,
      parts: 'rsapi-parts/**/*.json',
      requireBaseline: 'auto',
    });
  });

  it.each([
    ['a SQLite path', '.rsapi/history.db', { location: '.rsapi/history.db' }],
    ['a PostgreSQL URL', 'postgres://ci:secret@db/rsapi', { location: 'postgres://ci:secret@db/rsapi' }],
    ['another branch', 'branch:audit/history', { branch: 'audit/history' }],
  ])('history: %s', (_name, history, expected) => {
    expect(planOf({ history }).history).toEqual(expected);
  });

  it.each([
    ['shard', { shard: '3/2' }, 'shard: "3/2" is not I/N'],
    ['shard', { shard: 'two' }, 'shard: "two" is not I/N'],
    ['shard and merge', { shard: '1/2', merge: 'true' }, 'shard and merge'],
    ['merge', { merge: 'yes' }, 'merge: "yes" is not true or false'],
    ['history', { history: 'branch:--force' }, 'does not name a branch'],
    ['history', { history: 'branch:a..b' }, 'does not name a branch'],
    ['max-drop', { 'max-drop': 'ten' }, 'max-drop: "ten" is not a number'],
    ['require-baseline', { 'require-baseline': 'yes' }, 'require-baseline: "yes" is not auto, true or false'],
  ])('a bad %s is refused in one line', (_name, inputs, message) => {
    expect(() => planOf(inputs)).toThrow(ActionInputError);
    expect(() => planOf(inputs)).toThrow(message);
  });
});

describe('auditArgv', () => {
  it('the inputs as flags of rsapi audit; the key, base URL and history never on the command line', () => {
    const plan = planOf({
      'api-key': 'k3y',
      'base-url': 'https://rank.example.com',
      history: 'postgres://ci:secret@db/rsapi',
      config: 'site/rsapi.config.json',
      job: 'shop',
      html: 'weekly.html',
      junit: 'junit.xml',
      codequality: 'cq.json',
      'fail-on-new-failures': 'false',
      'max-drop': '5',
    });
    const argv = auditArgv(plan, { summary: '/tmp/summary' }, true);
    expect(argv).toEqual([
      'audit',
      '--json',
      '--config',
      'site/rsapi.config.json',
      '--job',
      'shop',
      '--html',
      'weekly.html',
      '--junit',
      'junit.xml',
      '--codequality',
      'cq.json',
      '--summary',
      '/tmp/summary',
      '--no-fail-on-new-failures',
      '--max-drop',
      '5',
      '--require-baseline',
    ]);
    expect(argv.join(' ')).not.toMatch(/k3y|secret|rank\.example/);
  });

  it('a shard writes its part and asks for no baseline; a merge names the parts found', () => {
    expect(auditArgv(planOf({ shard: '2/3' }), {}, true)).toEqual(['audit', '--json', '--part', 'rsapi-parts/shard-2-of-3.json', '--shard', '2/3']);
    expect(auditArgv(planOf({ merge: 'true' }), { parts: ['/w/p1.json', '/w/p2.json'] }, false)).toEqual([
      'audit',
      '--json',
      '--merge',
      '/w/p1.json',
      '/w/p2.json',
      '--no-require-baseline',
    ]);
  });
});
