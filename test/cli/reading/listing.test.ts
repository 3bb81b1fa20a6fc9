// Footers on a terminal say what was shown and what is hidden: one page, the first N, or all.
import { describe, it } from 'vitest';
import { runCase, type CommandCase } from '../../helpers/cases.js';

const terminal = { tty: true, columns: 160 } as const;

const rows: CommandCase[] = [
  {
    name: '--limit 2 of 5 projects says 2 of 5 are shown and how to see them all',
    argv: ['projects', 'list', '--limit', '2'],
    ...terminal,
    wantCode: 0,
    wantStderr: '2 of 5 projects shown (--limit 2); all of them: --all\n',
  },
  {
    name: '--limit larger than the list says all of them',
    argv: ['projects', 'list', '--limit', '50'],
    ...terminal,
    wantCode: 0,
    wantStderr: 'all 5 projects\n',
  },
  {
    name: '--all says all, never "page 7 of 7"',
    argv: ['reports', 'list', '--all'],
    ...terminal,
    wantCode: 0,
    wantStderr: 'all 63 reports\n',
  },
  {
    name: 'one page says which of how many, and what comes next',
    argv: ['reports', 'list', '--page', '2'],
    ...terminal,
    wantCode: 0,
    wantStderr: 'page 2 of 7, 63 reports; next: --page 3, or --all\n',
  },
  {
    name: 'no footer in a pipe',
    argv: ['projects', 'list', '--limit', '2'],
    wantCode: 0,
    wantStderr: '',
  },
];

describe('footers', () => {
  it.each(rows)('$name', async (row) => {
    await runCase(row);
  });
});
