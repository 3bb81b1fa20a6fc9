// Flags that would be ignored are refused, a --fields typo is named, help with an unknown name says so, global options last.
import { describe, expect, it } from 'vitest';
import { runCase, type CommandCase } from '../../helpers/cases.js';

const REPORT_FIELDS = 'id, url, project, result, score, privacy, generated_at, created_at, updated_at';

const rows: CommandCase[] = [
  {
    name: '-q with -o csv is refused before any request',
    argv: ['reports', 'list', '-q', '-o', 'csv'],
    wantCode: 2,
    wantStderr: 'rsapi: -q prints only ids, one a line; it cannot be combined with -o csv\nhint: give one of them\n',
    wantRequests: [],
  },
  {
    name: '-q with --json is refused',
    argv: ['projects', 'list', '--json', '-q'],
    wantCode: 2,
    wantStderr: /cannot be combined with --json/,
    wantRequests: [],
  },
  {
    name: '-q with --fields is refused, with the way to get one field a line',
    argv: ['reports', 'list', '-q', '--fields', 'url'],
    wantCode: 2,
    wantStderr: 'rsapi: -q prints only ids, one a line; it cannot be combined with --fields\nhint: for one field a line: -o tsv --fields url\n',
    wantRequests: [],
  },
  {
    name: '-q alone still prints ids',
    argv: ['reports', 'list', '-q', '--limit', '2'],
    wantCode: 0,
    wantStdout: /^\d+\n\d+\n$/,
  },
  {
    name: '--fields with a field no record has: printed anyway, and a warning naming the fields there are',
    argv: ['reports', 'list', '--fields', 'id,nonexistent', '--limit', '3', '-o', 'csv'],
    wantCode: 0,
    wantStdout: /^id,nonexistent\r\n\d+,\r\n\d+,\r\n\d+,\r\n$/,
    wantStderr: `rsapi: warning: none of the 3 reports has a field "nonexistent"; fields there: ${REPORT_FIELDS}\n`,
  },
  {
    name: 'reports show --fields with a missing field: the same warning for one record',
    argv: ['reports', 'show', '3', '--fields', 'id,scroe', '-o', 'tsv'],
    wantCode: 0,
    wantStderr: `rsapi: warning: the report has no field "scroe" (did you mean "score"?); fields there: ${REPORT_FIELDS}\n`,
  },
  {
    name: '--json with a field only csv, tsv and table derive (phpRank): the warning, and a hint to the format that has it',
    argv: ['reports', 'list', '--json', 'id,failed_checks', '--limit', '2'],
    mock: { flavor: 'phprank' },
    wantCode: 0,
    wantStderr:
      /warning: none of the 2 reports has a field "failed_checks"; fields there: .*\nhint: -o csv, tsv and table derive "failed_checks" from the record, which json shows as the service sent it: -o csv --fields id,failed_checks\n$/,
  },
  {
    name: '--fields that all exist: no warning',
    argv: ['reports', 'list', '--fields', 'id,url', '--limit', '2', '-o', 'csv'],
    wantCode: 0,
    wantStderr: '',
  },
  {
    name: 'help with an unknown command says so (exit 2)',
    argv: ['help', 'nosuch'],
    wantCode: 2,
    wantStdout: '',
    wantStderr: 'rsapi: unknown command "nosuch"\nhint: see `rsapi --help`\n',
  },
  {
    name: 'help with a near miss suggests the command',
    argv: ['help', 'reports', 'lsit'],
    wantCode: 2,
    wantStderr: 'rsapi: unknown command "lsit" for "rsapi reports"\nhint: did you mean "list"? see `rsapi reports --help`\n',
  },
  {
    name: 'help reports list shows that command',
    argv: ['help', 'reports', 'list'],
    wantCode: 0,
    wantStdout: /^Usage: rsapi reports list/,
  },
  {
    name: "a command's help: its options, then its examples, then the global options",
    argv: ['reports', 'list', '--help'],
    wantCode: 0,
    wantStdout: (stdout) => {
      const own = stdout.indexOf('--search <query>');
      const examples = stdout.indexOf('Examples:');
      const globals = stdout.indexOf('Global options (before or after the command):');
      expect(own).toBeGreaterThan(0);
      expect(examples).toBeGreaterThan(own);
      expect(globals).toBeGreaterThan(examples);
      expect(stdout.slice(globals)).toMatch(/--base-url <url>[\s\S]*--wide[\s\S]*--retries <n>/);
      expect(stdout.slice(globals)).not.toContain('--version');
      expect(stdout.slice(0, globals)).not.toContain('--base-url');
    },
  },
];

describe('honest flags and help', () => {
  it.each(rows)('$name', async (row) => {
    await runCase(row);
  });
});
