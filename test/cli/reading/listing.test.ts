// Footers on a terminal say what was shown and what is hidden: one page, the first N, or all.
import { describe, it, afterAll, beforeAll, expect } from 'vitest';
import { runCase, type CommandCase } from '../../helpers/cases.js';
import { displayWidth } from '../../../src/output/table/width.js';
import { runInProcess } from '../../helpers/run.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { joinWrapped, runOnTerminal, screenLines } from '../../helpers/terminal.js';

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

// Tables on a terminal of a set width (in-process, and once on a real pseudo-terminal): no line wider than the terminal, ids and results whole, --wide whole.
describe('Tables on a terminal of a set width (in-process, and once on a real pseudo-terminal)', () => {
  let mock: MockFixture;

  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  /** The run on a terminal of `columns` (in-process, every stream a TTY): the screen's lines, stdout then stderr. */
  async function onTerminal(args: string[], columns: number): Promise<string[]> {
    const { code, stdout, stderr } = await runInProcess({ argv: args, env: { ...mock.env, TERM: 'xterm-256color' }, tty: true, columns });
    expect(code).toBe(0);
    return screenLines(stdout + stderr);
  }

  /** The index of the last line that passes, -1 if none (Array.prototype.findLastIndex is ES2023). */
  function lastIndexWhere(lines: string[], test: (line: string) => boolean): number {
    for (let i = lines.length - 1; i >= 0; i--) if (test(lines[i] ?? '')) return i;
    return -1;
  }

  /** The first page as the service lists it: newest first. */
  function firstPage() {
    return [...mock.server.reports()].sort((a, b) => Number(b.id) - Number(a.id)).slice(0, 10);
  }

  describe('reports list fitted to the terminal', () => {
    for (const columns of [80, 40]) {
      it(`at ${columns} columns no line is wider than the terminal; ids and results are whole`, async () => {
        const lines = joinWrapped(await onTerminal(['reports', 'list'], columns));
        // The table's lines; stderr's notes and footer are sentences a terminal may wrap.
        const table = lines.filter((line) => !/^(rsapi:|page \d)/.test(line));
        expect(table).toHaveLength(11);
        for (const line of table) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
        expect(lines[0]).toMatch(/^id +url +/);
        for (const report of firstPage()) {
          expect(
            lines.some((line) => new RegExp(`^${report.id} +\\S+ .*\\b${report.result}\\b`).test(line)),
            String(report.id),
          ).toBe(true);
        }
        // At 80 the URLs show whole (the scheme, the time of day and the project gave way); at 40 they are cut.
        const urls = firstPage().map((report) => String(report.url).replace(/^https?:\/\//, ''));
        if (columns === 80)
          for (const url of urls)
            expect(
              lines.some((line) => line.includes(` ${url} `)),
              url,
            ).toBe(true);
        else expect(lines.some((line) => line.includes('…'))).toBe(true);
        expect(lines).toContain('page 1 of 7, 63 reports; next: --page 2, or --all');
      });
    }

    it('at 40 columns says which columns were left out, after the table', async () => {
      const lines = joinWrapped(await onTerminal(['reports', 'list'], 40));
      const note = lines.findIndex((line) =>
        /^rsapi: project, privacy, generated_at left out to fit the terminal; --wide shows every column whole$/.test(line),
      );
      expect(note).toBeGreaterThan(lines.findIndex((line) => /^id +url/.test(line)));
      expect(note).toBeGreaterThan(lastIndexWhere(lines, (line) => /^\d+ +\S+ +(good|decent|bad) /.test(line)));
    });

    it('--wide shows every URL whole, wider than the terminal', async () => {
      const lines = await onTerminal(['reports', 'list', '--wide'], 40);
      const text = lines.join('\n');
      for (const report of firstPage()) expect(text).toContain(String(report.url));
      expect(text).toMatch(/generated_at/);
      expect(lines.some((line) => displayWidth(line) > 40)).toBe(true);
    });

    it('reports show fits too, and --wide restores the whole URL', async () => {
      const report = mock.server.reports().find((r) => String(r.url).length > 30) ?? mock.server.reports()[0];
      const narrow = await onTerminal(['reports', 'show', String(report?.id)], 30);
      for (const line of narrow) expect(displayWidth(line), line).toBeLessThanOrEqual(30);
      expect(narrow.join('\n')).not.toContain(String(report?.url));
      const wide = await onTerminal(['reports', 'show', String(report?.id), '--wide'], 30);
      expect(wide.join('\n')).toContain(String(report?.url));
    });
  });

  describe('on a real pseudo-terminal', () => {
    it('the width comes from the terminal itself: 60 columns, no line wider', async () => {
      const { code, screen } = await runOnTerminal(['reports', 'list'], { env: { ...mock.env, TERM: 'xterm-256color' }, size: { columns: 60, rows: 50 } });
      expect(code).toBe(0);
      const table = joinWrapped(screenLines(screen)).filter((line) => !/^(rsapi:|page \d)/.test(line));
      expect(table).toHaveLength(11);
      for (const line of table) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    });

    it('a slow service shows the spinner, and the spinner is gone from the screen before the table', async () => {
      const slow = await startMock({ latencyMs: 800 });
      try {
        const { code, screen } = await runOnTerminal(['reports', 'list'], { env: { ...slow.env, TERM: 'xterm-256color' }, size: { columns: 60, rows: 50 } });
        expect(code).toBe(0);
        expect(screen).toContain('reading reports');
        const lines = joinWrapped(screenLines(screen));
        expect(lines.join('\n')).not.toContain('reading reports');
        expect(lines[0]).toMatch(/^id +url/);
        const table = lines.filter((line) => !/^(rsapi:|page \d)/.test(line));
        expect(table).toHaveLength(11);
        for (const line of table) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
      } finally {
        await slow.close();
      }
    });

    it('at 40 columns the note of columns left out comes after the table on the screen, before the footer', async () => {
      const { code, screen } = await runOnTerminal(['reports', 'list'], { env: { ...mock.env, TERM: 'xterm-256color' }, size: { columns: 40, rows: 50 } });
      expect(code).toBe(0);
      const lines = joinWrapped(screenLines(screen));
      const note = lines.findIndex((line) => line.startsWith('rsapi: project, privacy, generated_at left out'));
      expect(note).toBeGreaterThan(lastIndexWhere(lines, (line) => /^\d+ +\S+ +(good|decent|bad) /.test(line)));
      expect(note).toBeLessThan(lines.findIndex((line) => line.startsWith('page 1 of 7')));
    });
  });

  describe('what gives way first, on a real pseudo-terminal', () => {
    /** The seed mock's first page at `columns`, and the phpRank mock's (URLs stored without a scheme). */
    async function screens(columns: number) {
      const phprank = await startMock({ flavor: 'phprank', rateLimit: 0 });
      try {
        const run = async (fixture: MockFixture) => {
          const { code, screen } = await runOnTerminal(['reports', 'list', '--no-color'], {
            env: { ...fixture.env, TERM: 'xterm-256color' },
            size: { columns, rows: 50 },
          });
          expect(code).toBe(0);
          const urls = [...fixture.server.reports()]
            .sort((a, b) => Number(b.id) - Number(a.id))
            .slice(0, 10)
            .map((report) => String(report.url).replace(/^https?:\/\//, ''));
          return { lines: screenLines(screen), urls };
        };
        return [await run(mock), await run(phprank)];
      } finally {
        await phprank.close();
      }
    }

    it('at 80 columns every URL shows whole, without its scheme; the date shows without its time; project is left out and said so', async () => {
      for (const { lines, urls } of await screens(80)) {
        expect(lines[0]).toMatch(/^id +url +result +score +privacy +generated_at$/);
        for (const url of urls)
          expect(
            lines.some((line) => new RegExp(`^\\d+ +${url.replace(/[.?*+/]/g, '\\$&')} +(good|decent|bad) +\\d+ +\\w+ +\\d{4}-\\d\\d-\\d\\d$`).test(line)),
            url,
          ).toBe(true);
        expect(lines.join('\n')).not.toMatch(/https?:\/\/|…/);
        expect(lines).toContain('rsapi: project left out to fit the terminal; --wide shows every column whole');
      }
    });

    it('at 40 columns the URLs are cut in their middle: host first, path end last, no two rows alike', async () => {
      for (const { lines } of await screens(40)) {
        const rows = lines.filter((line) => /^\d+ /.test(line));
        expect(rows).toHaveLength(10);
        for (const row of rows) expect(displayWidth(row), row).toBeLessThanOrEqual(40);
        const cut = rows.map((row) => row.split(/ +/)[1] ?? '').filter((url) => url.includes('…'));
        expect(cut.length).toBeGreaterThan(0);
        for (const url of cut) expect(url).toMatch(/^[a-z]+\.[^…]*….*-2$/);
        expect(new Set(rows.map((row) => row.split(/ +/)[1])).size).toBe(10);
      }
    });

    it('reports show at 40 columns wraps a long URL under its value column instead of cutting it', async () => {
      const report = mock.server.reports().find((r) => String(r.url).length > 30);
      const { code, screen } = await runOnTerminal(['reports', 'show', String(report?.id), '--no-color'], {
        env: { ...mock.env, TERM: 'xterm-256color' },
        size: { columns: 40, rows: 50 },
      });
      expect(code).toBe(0);
      const lines = screenLines(screen);
      const at = lines.findIndex((line) => line.startsWith('url '));
      const value = [lines[at] ?? '', ...lines.slice(at + 1).filter((_line, i, rest) => rest.slice(0, i + 1).every((l) => l.startsWith('   ')))]
        .map((line) => line.slice(14))
        .join('');
      expect(value).toBe(String(report?.url));
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(40);
    });
  });

  describe('a table that is not on a terminal', () => {
    it('-o table into a pipe keeps every value whole', async () => {
      const { code, stdout } = await runInProcess({ argv: ['reports', 'list', '-o', 'table'], env: { ...mock.env, COLUMNS: '40' } });
      expect(code).toBe(0);
      for (const report of firstPage()) expect(stdout).toContain(String(report.url));
      expect(stdout).toMatch(/generated_at/);
      expect(stdout).not.toContain('…');
    });
  });
});
