// Feedback while waiting, under a real pseudo-terminal: a spinner for a slow create and for pages, gone before data; none in a pipe or CI.
// Every test waits in real time for slow answers, so the tests run side by side (describe.concurrent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/run.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { runOnTerminal } from '../../helpers/terminal.js';

const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g;
let slow: MockFixture;
let pages: MockFixture;

beforeAll(async () => {
  // Each answer comes 0.3 s after the spinner's 0.5 s, enough to see it drawn. The creates have a mock of their own,
  // so the reports read in pages stay the same while they are read.
  [slow, pages] = await Promise.all([startMock({ latencyMs: 800, seed: 250 }), startMock({ latencyMs: 800, seed: 250 })]);
});
afterAll(async () => {
  await Promise.all([slow.close(), pages.close()]);
});

const onTerminal = (args: string[], env: Record<string, string> = {}, mock = slow) =>
  runOnTerminal(args, { env: { ...mock.env, TERM: 'xterm-256color', ...env }, size: { columns: 80, rows: 40 } });

/** Where the last spinner frame is drawn on the screen, -1 if none. */
function lastFrameAt(screen: string): number {
  return Math.max(-1, ...[...screen.matchAll(FRAME)].map((match) => match.index));
}

describe.concurrent('a slow create on a terminal', () => {
  it('shows a spinner naming the URL after half a second, erased before the record is printed', async () => {
    const url = 'https://example.com/slow-audit';
    const { code, screen } = await onTerminal(['reports', 'create', url, '--no-color']);
    expect(code).toBe(0);
    expect(screen).toMatch(new RegExp(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] auditing ${url.replace(/[./]/g, '\\$&')}`));
    const recordAt = screen.search(/id +\d+\r?\n/);
    expect(recordAt).toBeGreaterThan(0);
    expect(lastFrameAt(screen)).toBeLessThan(recordAt);
    // The line the spinner used is erased (CR, erase line) right before the record.
    expect(screen.slice(0, recordAt)).toMatch(/\r\u001b\[2K$/);
  });

  it('none of it in a pipe, nor on a terminal in CI', async () => {
    // Side by side: each waits out the same slow answer.
    const [piped, ci] = await Promise.all([
      runInProcess({ argv: ['reports', 'create', 'https://example.com/slow-pipe'], env: slow.env }),
      onTerminal(['reports', 'create', 'https://example.com/slow-ci'], { CI: 'true' }),
    ]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toMatch(FRAME);
    expect(piped.stderr).not.toContain('\u001b[2K');
    expect(ci.code).toBe(0);
    expect(ci.screen).not.toMatch(FRAME);
  });
});

describe.concurrent('waiting for pages on a terminal', () => {
  it('reports list --all: a spinner with pages and records so far, gone before the table; the footer says all', async () => {
    const { code, screen } = await onTerminal(['reports', 'list', '--all', '--no-color'], {}, pages);
    expect(code).toBe(0);
    expect(screen).toMatch(/reading reports…|reading reports: page \d+ of 3, \d+ so far/);
    const tableAt = screen.search(/id +url/);
    expect(tableAt).toBeGreaterThan(0);
    expect(lastFrameAt(screen)).toBeLessThan(tableAt);
    // Every report: the footer says all, not "page 3 of 3".
    const count = pages.server.reports().length;
    expect(screen).toContain(`all ${count} reports`);
    expect(screen).not.toMatch(/page \d+ of \d+, \d+ reports/);
  });

  it('reports stats: a progress line while it reads, then the histogram', async () => {
    const { code, screen } = await onTerminal(['reports', 'stats', '--no-color'], {}, pages);
    expect(code).toBe(0);
    expect(screen).toMatch(/reading reports/);
    const summaryAt = screen.search(/reports +\d+\r?\n/);
    expect(summaryAt).toBeGreaterThan(0);
    expect(lastFrameAt(screen)).toBeLessThan(summaryAt);
    expect(screen).toMatch(/90-100 {2}[█▏▎▍▌▋▊▉]+/);
  });
});

describe.concurrent('the bulk progress bar', () => {
  it.each([
    { columns: 80, whole: /\u2591+ \d+\/6 \| created \d+ \| failed 0 \| in flight \d \| [\d.]+\/s \| ETA \S+s/ },
    // At 40 the parts least wanted go first (in flight, the rate, the bar); the ETA stays whole.
    { columns: 40, whole: /(?:^|[\r\n]|\u001b\[[\d;]*[A-Za-z])\d+\/6 \| created \d+ \| failed 0 \| ETA \S+s/ },
  ])('is fitted to a terminal of $columns columns, dropping parts by priority, never cut mid-word', async ({ columns, whole }) => {
    const quick = await startMock({ latencyMs: 300, seed: 250 });
    try {
      const args = ['reports', 'create', '-q', ...Array.from({ length: 6 }, (_, index) => `https://example.com/fit${index}`), '--concurrency', '2'];
      const { code, screen } = await runOnTerminal(args, { env: { ...quick.env, TERM: 'xterm-256color' }, size: { columns, rows: 40 } });
      expect(code).toBe(0);
      expect(screen).toMatch(whole);
      // Every frame of the bar, its control sequences taken out, fits the width.
      const frames = screen.replace(/\u001b\[[\d;?]*[A-Za-z]/g, '\n').split(/[\r\n]+/);
      expect(frames.filter((frame) => frame.includes('created') && [...frame].length > columns)).toEqual([]);
      if (columns === 40) expect(screen).not.toMatch(/in flight|\/s \|/);
    } finally {
      await quick.close();
    }
  });

  it('stays on a terminal under -q (it is on stderr; -q shapes stdout only)', async () => {
    // The bar is drawn from the start (no spinner's delay to outwait): answers of 0.2 s are enough for a few frames.
    const quick = await startMock({ latencyMs: 200, seed: 250 });
    try {
      const args = ['reports', 'create', '-q', 'https://example.com/q1', 'https://example.com/q2', 'https://example.com/q3', '--concurrency', '1'];
      const { code, screen } = await runOnTerminal(args, { env: { ...quick.env, TERM: 'xterm-256color' }, size: { columns: 80, rows: 40 } });
      expect(code).toBe(0);
      expect(screen).toMatch(/\d\/3 \| created \d/);
    } finally {
      await quick.close();
    }
  });
});
