// Usage errors found while parsing (options.ts's parsers and choices, program.ts's commander errors) are said in rsapi's one-line form, never in commander's words.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/run.js';

const rows: { argv: string[]; stderr: string }[] = [
  { argv: ['reports', 'show', 'abc'], stderr: 'rsapi: "abc" is not a report id (ids look like 42)\n' },
  { argv: ['reports', 'update', 'abc', '--refresh'], stderr: 'rsapi: "abc" is not a report id (ids look like 42)\n' },
  {
    argv: ['config', 'set', 'outptu', 'json'],
    stderr: 'rsapi: key must be one of base-url, api-key, timeout, retries, output, record, history, not "outptu"; did you mean "output"?\n',
  },
  { argv: ['reports', 'list', '--result', 'godo'], stderr: 'rsapi: --result must be one of good, decent, bad, not "godo"; did you mean "good"?\n' },
  { argv: ['reports', 'list', '--per-page', '7'], stderr: 'rsapi: --per-page must be one of 10, 25, 50, 100, not "7"\n' },
  { argv: ['reports', 'create', 'https://a.example/', '--concurrency', '0'], stderr: 'rsapi: --concurrency must be a whole number from 1 to 32, not "0"\n' },
  { argv: ['reports', 'list', '--limit', '99999999999999999999'], stderr: 'rsapi: --limit is too large: "99999999999999999999"\n' },
  { argv: ['completion', 'tcsh'], stderr: 'rsapi: shell must be one of bash, zsh, fish, not "tcsh"\n' },
  { argv: ['reports', 'list', '--colour'], stderr: 'rsapi: unknown option "--colour"\nhint: see `rsapi reports list --help`\n' },
  { argv: ['reports', 'show', '1', '2'], stderr: 'rsapi: reports show takes 1 argument, not 2\nhint: see `rsapi reports show --help`\n' },
  { argv: ['config', 'path', 'x'], stderr: 'rsapi: config path takes no argument, not 1\nhint: see `rsapi config path --help`\n' },
  { argv: ['config', 'set'], stderr: 'rsapi: config set needs its <key> argument\nhint: see `rsapi config set --help`\n' },
  { argv: ['reports', 'list', '--timeout'], stderr: 'rsapi: --timeout needs a value\nhint: see `rsapi reports list --help`\n' },
  {
    argv: ['reports', 'create', 'https://a.example/', '--privacy', '2', '--password-stdin', '--password-file', 'p'],
    stderr: 'rsapi: --password-stdin and --password-file cannot be given together\nhint: see `rsapi reports create --help`\n',
  },
];

describe('usage errors in our words', () => {
  it.each(rows)('rsapi $argv: exit 2, one line of ours', async ({ argv, stderr }) => {
    const result = await runInProcess({ argv });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(stderr);
    // Nothing of commander's own phrasing is left.
    expect(result.stderr).not.toMatch(/command-argument|is invalid|Allowed choices|Did you mean|^error:|'/m);
  });
});
