// Every command's --help fits the width it is printed at (80 in a pipe, the terminal's on a terminal), and wraps only
// at whitespace: the words of the fitted help are the words of the same help printed wide. Issue 46 point 12 found
// `reports create|list|show --help` not wrapped at all (a wide option column) and `audit --help` split "recor/d".
import { describe, expect, it } from 'vitest';
import { fitExamples, fitHelpText } from '../../src/cli/commands/help-topics.js';
import { runInProcess } from '../helpers/run.js';

const COMMANDS = [
  [],
  ['reports', 'create'],
  ['reports', 'list'],
  ['reports', 'show'],
  ['reports', 'stats'],
  ['reports', 'update'],
  ['reports', 'delete'],
  ['audit'],
  ['projects', 'list'],
  ['projects', 'delete'],
  ['history', 'diff'],
  ['history', 'trend'],
  ['history', 'runs'],
  ['history', 'import'],
  ['auth', 'login'],
  ['auth', 'status'],
  ['config', 'set'],
  ['api'],
  ['mcp'],
  ['mock-server'],
];

/** The words of a help, without what wrapping adds (an example's ` \` continuation, a comment's `#`). */
function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '' && word !== '\\' && word !== '#' && word !== '$');
}

describe('help fits its width', () => {
  for (const argv of COMMANDS) {
    const name = ['rsapi', ...argv].join(' ');
    it(`${name} --help: no line over 80 in a pipe, 80 or 40 on a terminal, and no word split`, async () => {
      const wide = (await runInProcess({ argv: [...argv, '--help'], tty: true, columns: 1000 })).stdout;
      for (const [tty, columns, width] of [
        [false, undefined, 80],
        [true, 80, 80],
        [true, 40, 40],
      ] as const) {
        const { stdout, code } = await runInProcess({ argv: [...argv, '--help'], tty, columns });
        expect(code).toBe(0);
        // A line may pass the width only where one word alone is longer (a URL in an example at 40 columns).
        const long = stdout.split('\n').filter((line) => line.length > width && words(line).length > 1);
        expect(long, `${name} at ${width}`).toEqual([]);
        expect(words(stdout).sort(), `${name} at ${width}`).toEqual(words(wide).sort());
      }
    });
  }
});

describe("a command's global options", () => {
  it('at 40 columns are laid out as its own options are: each option on its line, its description under it, indented', async () => {
    const { stdout } = await runInProcess({ argv: ['reports', 'list', '--help'], tty: true, columns: 40 });
    const block = stdout.slice(stdout.indexOf('Global options')).split('\n').slice(2).filter(Boolean);
    expect(block).toContain('  --json');
    // Each line is an option's (two spaces, a dash) or a description's (six spaces): none is cut out of its column.
    expect(block.filter((line) => !/^ {2}-|^ {6}\S/.test(line))).toEqual([]);
  });
});

describe('fitHelpText', () => {
  it('reflows an unindented paragraph with a long line, and keeps one that fits line for line', () => {
    const long = `${'word '.repeat(30).trim()}\nand more`;
    expect(
      fitHelpText(long, 40)
        .split('\n')
        .every((line) => line.length <= 40),
    ).toBe(true);
    expect(fitHelpText(long, 40).replace(/\n/g, ' ')).toBe(long.replace(/\n/g, ' '));
    expect(fitHelpText('short\nlines', 40)).toBe('short\nlines');
  });

  it('continues an example that does not fit as a shell reads it, its comment above', () => {
    const fitted = fitHelpText('  $ rsapi audit --init https://example.com/     # writes rsapi.config.json for the site', 40);
    expect(fitted).toBe(fitExamples([['rsapi audit --init https://example.com/', 'writes rsapi.config.json for the site']], 40).trimEnd());
    expect(fitted.split('\n').every((line) => line.length <= 40)).toBe(true);
    expect(fitted).toContain('\\\n');
  });

  it('wraps another long line under its own indent', () => {
    expect(
      fitHelpText(`    ${'x '.repeat(30).trim()}`, 20)
        .split('\n')
        .every((line) => line.startsWith('    ') && line.length <= 20),
    ).toBe(true);
  });
});
