// What a person sees on a terminal: table, colours and the paging footer (in-process with TTY flags), and a real pty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCase, type CommandCase } from '../../helpers/cases.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { runOnTerminal } from '../../helpers/terminal.js';

const COLOURED_RESULT = /\u001b\[3[123]m(good|decent|bad)\u001b\[39m/;
const terminal = { tty: true, columns: 160, env: { TERM: 'xterm-256color' } } as const;

const rows: CommandCase[] = [
  {
    name: 'lists reports as a table with coloured results; the paging footer on stderr',
    argv: ['reports', 'list'],
    ...terminal,
    wantCode: 0,
    wantStdout: (stdout) => {
      expect(stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/^id +url +project +result +score +privacy +generated_at\s*$/m);
      expect(stdout).toMatch(COLOURED_RESULT);
      expect(stdout).toMatch(/\b(public|private|password)\b/);
      expect(stdout).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    },
    wantStderr: /page 1 of 7, 63 reports; next: --page 2, or --all/,
  },
  {
    name: '--no-color leaves no colour codes',
    argv: ['reports', 'list', '--no-color'],
    ...terminal,
    wantCode: 0,
    wantStdout: (stdout) => {
      expect(stdout).toMatch(/\b(good|decent|bad)\b/);
      expect(stdout).not.toMatch(/\u001b\[3\dm/);
    },
  },
  {
    name: 'NO_COLOR leaves no colour codes',
    argv: ['reports', 'list'],
    ...terminal,
    env: { ...terminal.env, NO_COLOR: '1' },
    wantCode: 0,
    wantStdout: (stdout) => {
      expect(stdout).toMatch(/\b(good|decent|bad)\b/);
      expect(stdout).not.toMatch(/\u001b\[3\dm/);
    },
  },
  {
    name: 'the footer is absent with --all, which lists every report',
    argv: ['reports', 'list', '--all', '-q'],
    ...terminal,
    wantCode: 0,
    wantStdout: (stdout) => expect(stdout.trim().split('\n')).toHaveLength(63),
    wantStderr: (stderr) => expect(stderr).not.toMatch(/page \d+ of|next:/),
  },
  {
    name: 'a last page says which it is and no next',
    argv: ['reports', 'list', '--page', '7'],
    ...terminal,
    wantCode: 0,
    wantStderr: (stderr) => {
      expect(stderr).toMatch(/page 7 of 7, 63 reports\s*$/m);
      expect(stderr).not.toMatch(/next:/);
    },
  },
  {
    name: 'a page past the end says so, with the real number of pages',
    argv: ['reports', 'list', '--page', '99'],
    ...terminal,
    wantCode: 0,
    wantStderr: /page 99 is past the end: 7 pages, 63 reports/,
  },
  {
    name: 'not a terminal: tsv, no colour, no footer',
    argv: ['reports', 'list'],
    wantCode: 0,
    wantStdout: (stdout) => {
      expect(stdout.split('\n')[0]).toMatch(/^\d+\thttps?:/);
      expect(stdout).not.toMatch(/\u001b\[/);
    },
    wantStderr: '',
  },
];

describe('on a terminal (TTY flags, in-process)', () => {
  it.each(rows)('$name', async (row) => {
    await runCase(row);
  });
});

describe('on a real pseudo-terminal (script(1))', () => {
  let mock: MockFixture;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  it('the terminal is detected: a coloured table and the paging footer', async () => {
    const { code, screen } = await runOnTerminal(['reports', 'list'], { env: { ...mock.env, COLUMNS: '160', LINES: '50', TERM: 'xterm-256color' } });
    expect(code).toBe(0);
    expect(screen.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/^id +url +project +result +score +privacy +generated_at\s*$/m);
    expect(screen).toMatch(COLOURED_RESULT);
    expect(screen).toMatch(/page 1 of 7, 63 reports; next: --page 2, or --all/);
  });

  it('delete asks for confirmation, naming what it will delete (the report with its URL), and a "no" deletes nothing (exit 2, as gh)', async () => {
    const url = String(mock.server.reports().find((r) => r.id === 12)?.url);
    const { code, screen } = await runOnTerminal(['reports', 'delete', '12'], { env: mock.env, answers: [[/Delete report 12 /, 'n\r']] });
    expect(screen).toContain(`Delete report 12 (${url})? This cannot be undone`);
    expect(code).toBe(2);
    expect(mock.server.reports().some((r) => r.id === 12)).toBe(true);
  });
});
