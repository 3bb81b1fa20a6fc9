// What a person sees: rsapi run under a real pseudo-terminal (script(1)), table, colours and the paging footer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { runOnTerminal, type TerminalResult } from '../helpers/terminal.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

/** Runs rsapi on a pseudo-terminal against the mock, 160 columns by 50 lines; returns what the terminal showed. */
function onTerminal(args: string[], env: Record<string, string | undefined> = {}): Promise<TerminalResult> {
  return runOnTerminal(args, { env: { ...mock.env, COLUMNS: '160', LINES: '50', TERM: 'xterm-256color', ...env } });
}

describe('on a terminal', () => {
  it('lists reports as a table with coloured results and a paging footer', async () => {
    const { code, screen } = await onTerminal(['reports', 'list']);
    expect(code).toBe(0);
    expect(screen).toMatch(/id.*url.*project.*result.*score.*privacy.*generated_at/);
    expect(screen.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/^id +url +project +result +score +privacy +generated_at\s*$/m);
    expect(screen).toMatch(/\u001b\[3[123]m(good|decent|bad)\u001b\[39m/);
    expect(screen).toMatch(/\b(public|private|password)\b/);
    expect(screen).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(screen).toMatch(/page 1 of 7, 63 reports; next: --page 2, or --all/);
  });

  it('--no-color and NO_COLOR leave no colour codes', async () => {
    for (const variant of [{ args: ['--no-color'], env: {} }, { args: [], env: { NO_COLOR: '1' } }]) {
      const { code, screen } = await onTerminal(['reports', 'list', ...variant.args], variant.env);
      expect(code).toBe(0);
      expect(screen).toMatch(/\b(good|decent|bad)\b/);
      expect(screen).not.toMatch(/\u001b\[3\dm/);
    }
  });

  it('the footer is absent with --all, and a last page says no next', async () => {
    const { screen } = await onTerminal(['reports', 'list', '--page', '7']);
    expect(screen).toMatch(/page 7 of 7, 63 reports\s*$/m);
    expect(screen).not.toMatch(/next:/);
  });

  it('a page past the end says so, with the real number of pages', async () => {
    const { code, screen } = await onTerminal(['reports', 'list', '--page', '99']);
    expect(code).toBe(0);
    expect(screen).toMatch(/page 99 is past the end: 7 pages, 63 reports/);
  });

  it('delete asks for confirmation, naming what it will delete, and a "no" deletes nothing', async () => {
    const { code, screen } = await runOnTerminal(['reports', 'delete', '12'], { env: mock.env, answers: [[/Delete report 12\?/, 'n\r']] });
    expect(screen).toMatch(/Delete report 12\? This cannot be undone/);
    expect(code).toBe(0);
    expect(mock.server.reports().some((r) => r.id === 12)).toBe(true);
  });
});
