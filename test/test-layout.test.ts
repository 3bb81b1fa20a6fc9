// Spans the test tree: the tests of src/x/y.ts are test/x/y.test.ts (the house rule of ARCHITECTURE.md's "Tests"), and
// a test that spans modules is named for what it spans and listed below, counted apart.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const TEST = join(ROOT, 'test');

/** The share of the unit tests (all but the spanning ones below) that must mirror a source file. */
const MIRRORED_AT_LEAST = 0.9;

/** Tests that span modules or verbs, each named for what it spans: they mirror no one file, and are counted apart. */
const SPANNING: readonly string[] = [
  'architecture.test.ts', // the layers of src/ and the rooms of src/cli
  'test-layout.test.ts', // the test tree itself
  'install-docs.test.ts', // the install instructions of the README and docs/
  'repository-paths.test.ts', // the README, docs/, ARCHITECTURE.md and src/
  'cli/bad-input.test.ts', // bad input across verbs
  'cli/dialects.test.ts', // gates, stats, baselines and JUnit in both dialects
  'cli/help-width.test.ts', // every command's --help fitted to its width
  'cli/hostile-limits.test.ts', // a hostile service's limits, across verbs
  'cli/hostile-secrets.test.ts', // the secrets in every output and file
  'cli/hostile-terminal.test.ts', // a hostile service against a terminal and a pipe
  'cli/no-module-state.test.ts', // every module of src/
  'cli/one-judge.test.ts', // the regression rule through both commands that gate on two readings
  'cli/pacing.test.ts', // the rate limit across bulk create, --all, stats and delete
  'cli/phprank-errors.test.ts', // phpRank's errors through every verb
  'cli/stored-score.test.ts', // a score as stored, through create, refresh, list and the history
  'cli/validate.test.ts', // every verb's validate step
  'cli/verb-names.test.ts', // the names of every verb's run and options
  'cli/commands/auth/auth.test.ts', // the auth verbs
  'cli/commands/config/config.test.ts', // the config verbs
  'cli/commands/config/profile-typos.test.ts', // a profile typo through auth logout, config set and unset
  'cli/commands/history/history.test.ts', // the history verbs on both stores
  'cli/commands/history/history-text.test.ts', // the history verbs' text on a terminal
  'cli/commands/reports/reports.test.ts', // each reports and projects verb by its request
  'docs/commands.test.ts', // the command lines of README.md and docs/
  'docs/weekly-job.test.ts', // docs/weekly-job.md's recipes
  'docs/github-action.test.ts', // docs/github-action.md, its workflows and action.yml
  'mcp/docs.test.ts', // the pages that name the MCP tools
  'scripts/install-scripts.test.ts', // package.json's install scripts and the lock file
];

/** Unit test files (test/e2e/ runs the built binary), from test/. */
function unitTests(dir = TEST): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(TEST, 'e2e') ? [] : unitTests(path);
    return entry.name.endsWith('.test.ts') ? [relative(TEST, path)] : [];
  });
}

/**
 * Whether test/P.test.ts (or P.timed.test.ts, its wall-clock budget) mirrors a source file: src/P.ts, a script
 * scripts/P.{mjs,cjs,ts} for test/scripts/, or the module whose several test files share a folder of its name
 * (test/x/list/paging.test.ts for src/x/list.ts; test/x/create/bulk.test.ts for src/x/create/create.ts).
 */
function mirrors(test: string): boolean {
  const path = test.replace(/(\.timed)?\.test\.ts$/, '');
  const folder = dirname(path);
  const candidates = [
    join('src', `${path}.ts`),
    ...['mjs', 'cjs', 'ts'].map((ext) => `${path}.${ext}`).filter((script) => script.startsWith('scripts/')),
    join('src', `${folder}.ts`),
    join('src', folder, `${basename(folder)}.ts`),
  ];
  return candidates.some((candidate) => existsSync(join(ROOT, candidate)));
}

describe('the test tree', () => {
  const tests = unitTests();
  const counted = tests.filter((test) => !SPANNING.includes(test));
  const mirrored = counted.filter(mirrors);

  it(`at least ${MIRRORED_AT_LEAST * 100}% of the unit tests mirror a source file`, () => {
    expect(tests.length).toBeGreaterThan(100);
    const unmirrored = counted.filter((test) => !mirrors(test));
    expect(mirrored.length / counted.length, `not mirrored: ${unmirrored.join(', ')}`).toBeGreaterThanOrEqual(MIRRORED_AT_LEAST);
  });

  it('every spanning test listed is there and mirrors no one file (else it is a mirror, not a span)', () => {
    for (const test of SPANNING) {
      expect(tests, test).toContain(test);
      expect(mirrors(test), test).toBe(false);
    }
  });

  it('the mirror rule can fail: a test named for no source file is no mirror', () => {
    expect(mirrors('cli/commands/reports/list/paging.test.ts')).toBe(true);
    expect(mirrors('cli/no-such-module.test.ts')).toBe(false);
  });
});
