// Every command's --help: a description, its flags, examples; the root help lists the exit codes.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run.js';

const COMMANDS = [
  [],
  ['reports'],
  ['reports', 'list'],
  ['reports', 'show'],
  ['reports', 'create'],
  ['reports', 'update'],
  ['reports', 'delete'],
  ['projects'],
  ['projects', 'list'],
  ['projects', 'delete'],
  ['auth'],
  ['auth', 'login'],
  ['auth', 'status'],
  ['auth', 'logout'],
  ['config'],
  ['config', 'get'],
  ['config', 'set'],
  ['config', 'unset'],
  ['config', 'list'],
  ['config', 'path'],
  ['api'],
  ['completion'],
  ['mock-server'],
];

describe('--help', () => {
  it.each(COMMANDS.map((words) => [words.join(' ') || '(root)', words]))('%s has usage and examples, exit 0', async (_name, words) => {
    const { code, stdout } = await runInProcess({ argv: [...(words as string[]), '--help'] });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: rsapi/);
    expect(stdout).toMatch(/Examples:\n {2}\$ .*rsapi /);
  });

  it.each([
    { argv: ['help'], code: 0, on: 'stdout' },
    { argv: ['reports', 'help'], code: 0, on: 'stdout' },
    { argv: ['help', 'reports'], code: 0, on: 'stdout' },
    { argv: ['reports'], code: 2, on: 'stderr' },
  ])('rsapi $argv.0 $argv.1: help asked for exits $code, help shown for a missing verb exits 2 on stderr', async ({ argv, code, on }) => {
    const result = await runInProcess({ argv });
    expect(result.code).toBe(code);
    expect(on === 'stdout' ? result.stdout : result.stderr).toMatch(/^Usage: rsapi/);
    expect(on === 'stdout' ? result.stderr : result.stdout).toBe('');
  });

  it('the root help lists every exit code', async () => {
    const { stdout } = await runInProcess({ argv: ['--help'] });
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 130]) expect(stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });

  it('enum flags show their allowed values', async () => {
    const { stdout } = await runInProcess({ argv: ['reports', 'list', '--help'] });
    expect(stdout).toMatch(/--result <result>[\s\S]*"good", "decent", "bad"/);
    expect(stdout).toMatch(/--per-page <n>[\s\S]*"10",\s+"25",\s+"50",\s+"100"/);
  });
});
