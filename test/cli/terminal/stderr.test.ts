// stderr on a terminal (src/cli/terminal/stderr.ts): notices break at words at the terminal's width, never mid-word;
// an unknown subcommand gets the nearest verb as an unknown option gets the nearest flag.
import { describe, expect, it } from 'vitest';
import { wrapWords } from '../../../src/output/table/width.js';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';

const mock = mockPerTest();

/** The lines as the terminal would show them, joined back: the continuation's two spaces were a space. */
const unwrapped = (text: string) => text.replace(/\n {2}/g, ' ');

describe('notices on a 40-column terminal', () => {
  it.each([
    ['a fitted table and a paged list', ['reports', 'list', '--limit', '3'], 'left out to fit the terminal; --wide shows every column whole'],
    ['a usage error and its hint', ['reports', 'list', '--projekt', 'x'], 'hint: did you mean "--project"? see `rsapi reports list --help`'],
  ])('%s: every stderr line within 40 columns, broken at a space', async (_name, argv, notice) => {
    const { env } = await mock();
    const { stderr } = await runInProcess({ argv, env, tty: true, columns: 40 });
    const lines = stderr.trimEnd().split('\n');
    expect(lines.some((line) => line.startsWith('  '))).toBe(true);
    lines.forEach((line, index) => {
      expect(line.length, line).toBeLessThanOrEqual(40);
      // A line is broken only where its next word would not have fitted.
      const next = lines[index + 1];
      if (next?.startsWith('  ')) expect(line.length + 1 + (next.trim().split(' ')[0] ?? '').length, `${line} / ${next}`).toBeGreaterThan(40);
    });
    expect(unwrapped(stderr)).toContain(notice);
  });

  it('a pipe gets every notice as one line, whatever COLUMNS says', async () => {
    const { env } = await mock();
    const piped = await runInProcess({ argv: ['reports', 'list', '--projekt', 'x'], env: { ...env, COLUMNS: '40' } });
    expect(piped.stderr).toBe('rsapi: unknown option "--projekt"\nhint: did you mean "--project"? see `rsapi reports list --help`\n');
  });

  it('wrapWords cuts only a word wider than the line', () => {
    expect(wrapWords('rsapi: see https://example.com/a/very/long/path/indeed now', 20, '  ')).toEqual([
      'rsapi: see',
      '  https://example.co',
      '  m/a/very/long/path',
      '  /indeed now',
    ]);
  });
});

describe('an unknown subcommand', () => {
  it.each([
    [['reports', 'lst'], 'rsapi: unknown command "lst" for "rsapi reports"\nhint: did you mean "list"? see `rsapi reports --help`\n'],
    [['history', 'rnus'], 'rsapi: unknown command "rnus" for "rsapi history"\nhint: did you mean "runs"? see `rsapi history --help`\n'],
    [['reports', 'frobnicate'], 'rsapi: unknown command "frobnicate" for "rsapi reports"\nhint: see `rsapi reports --help`\n'],
  ])('%j: the nearest verb, exit 2', async (argv, stderr) => {
    const result = await runInProcess({ argv });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(stderr);
  });
});
