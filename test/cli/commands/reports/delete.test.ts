// `reports delete -` on a terminal: says how to end the ids, asks on the terminal itself once stdin is spent, and refuses an
// empty list; and its plan (argv -> plan, no server).
import { PassThrough, type Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createInvocation, run } from '../../../../src/cli/program.js';
import type { TtyInput } from '../../../../src/cli/terminal/terminal.js';
import { mockPerTest } from '../../../helpers/mock.js';
import { runInProcess, testTerminal } from '../../../helpers/run.js';
import { runOnTerminal } from '../../../helpers/terminal.js';
import { planOf } from '../../../helpers/plan.js';
import { planReportsDelete } from '../../../../src/cli/commands/reports/delete.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });

/** What the screen showed, without colour codes and carriage returns. */
function plain(screen: string): string {
  return screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

describe('reports delete - on a real terminal', () => {
  for (const columns of [80, 40]) {
    it(`at ${columns} columns: ids typed then Ctrl-D are confirmed on the terminal, naming each report's URL, and "y" deletes them (exit 0)`, async () => {
      const fixture = await mock();
      const urlOf = (id: number) => String(fixture.server.reports().find((report) => report.id === id)?.url);
      const [first, second] = [urlOf(61), urlOf(60)];
      const { code, screen } = await runOnTerminal(['reports', 'delete', '-'], {
        env: { ...fixture.env, TERM: 'xterm-256color' },
        size: { columns, rows: 30 },
        keepInputOpen: true,
        answers: [
          [/Ctrl-D to end/, '61\r60\r\u0004'],
          [/This[\s\S]*cannot[\s\S]*undone/, 'y\r'],
        ],
      });
      const text = plain(screen);
      // A notice wider than the terminal is continued two columns in on the next line (src/cli/terminal/stderr.ts).
      expect(text.replace(/\r?\n {2}/g, ' ')).toContain('reading report ids from stdin, one a line (Ctrl-D to end)');
      // The question wraps at the terminal's width: compare it with the line breaks taken out.
      expect(text.replace(/\n/g, '')).toContain(`Delete 2 reports (61 ${first}, 60 ${second})? This cannot be undone.`);
      expect(text).not.toMatch(/interrupted/);
      expect(code).toBe(0);
      expect(fixture.server.reports().some((report) => report.id === 61 || report.id === 60)).toBe(false);
    });
  }

  it('"n" to the question deletes nothing and exits 2', async () => {
    const fixture = await mock();
    const { code, screen } = await runOnTerminal(['reports', 'delete', '-'], {
      env: { ...fixture.env, TERM: 'xterm-256color' },
      size: { columns: 80, rows: 30 },
      keepInputOpen: true,
      answers: [
        [/Ctrl-D to end/, '61\r\u0004'],
        [/Delete report 61 \(/, 'n\r'],
      ],
    });
    expect(plain(screen)).toContain('nothing deleted');
    expect(code).toBe(2);
    expect(fixture.server.reports().some((report) => report.id === 61)).toBe(true);
  });

  it('Ctrl-D with no ids: "no report ids given", exit 2, nothing asked', async () => {
    const fixture = await mock();
    const before = fixture.server.requests.length;
    const { code, screen } = await runOnTerminal(['reports', 'delete', '-'], {
      env: { ...fixture.env, TERM: 'xterm-256color' },
      size: { columns: 40, rows: 30 },
      keepInputOpen: true,
      answers: [[/Ctrl-D to end/, '\u0004']],
    });
    expect(plain(screen)).toContain('rsapi: no report ids given');
    expect(plain(screen)).not.toMatch(/Delete 0/);
    expect(code).toBe(2);
    expect(fixture.server.requests.length).toBe(before);
  });
});

describe('reports delete - through the injected terminal', () => {
  /**
   * Runs with every stream a terminal, stdin holding `ids`, and `tty` as the terminal the answer is read from;
   * `answer` is typed on it once the question shows on stderr.
   */
  async function withTerminal(argv: string[], ids: string, tty: TtyInput | undefined, env: Record<string, string>, answer?: () => void) {
    const { terminal, stdout, stderr, cleanup } = testTerminal({ tty: true, stdin: ids, env, columns: 80 });
    // The prompt library ends its output stream when it is done; a process's stderr ignores that, and so does this one.
    const stream = terminal.stderr as Writable;
    stream.end = (() => stream) as Writable['end'];
    const watch = setInterval(() => {
      if (answer && stderr.text.includes('This cannot be undone')) {
        answer();
        answer = undefined;
      }
    }, 5);
    try {
      const code = await run(argv, createInvocation({ terminal: { ...terminal, openTty: () => tty }, signal: new AbortController().signal }));
      return { code, stdout: stdout.text, stderr: stderr.text };
    } finally {
      clearInterval(watch);
      cleanup();
    }
  }

  it('the answer is read from the terminal, not from the spent stdin: "y" there deletes', async () => {
    const fixture = await mock();
    const answer = new PassThrough();
    let closed = false;
    const result = await withTerminal(['reports', 'delete', '-', '--no-color'], '7\n', { input: answer, close: () => void (closed = true) }, fixture.env, () =>
      answer.write('y\n'),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Delete report 7 \(\S+\)\? This cannot be undone\./);
    expect(result.stderr).toContain('deleted report 7\n');
    expect(closed).toBe(true);
    expect(fixture.server.reports().some((report) => report.id === 7)).toBe(false);
  });

  it('many reports: the question names the first three with their URLs, then a count; "n" deletes none', async () => {
    const fixture = await mock();
    const urlOf = (id: number) => String(fixture.server.reports().find((report) => report.id === id)?.url);
    const answer = new PassThrough();
    const result = await withTerminal(['reports', 'delete', '-', '--no-color'], '11\n12\n13\n14\n15\n', { input: answer, close: () => {} }, fixture.env, () =>
      answer.write('n\n'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('rsapi: nothing deleted\n');
    // The prompt library breaks the question at the terminal's width.
    expect(plain(result.stderr).replace(/\n/g, '')).toContain(
      `Delete 5 reports (11 ${urlOf(11)}, 12 ${urlOf(12)}, 13 ${urlOf(13)} and 2 more)? This cannot be undone.`,
    );
    expect(fixture.server.reports().filter((report) => Number(report.id) >= 11 && Number(report.id) <= 15)).toHaveLength(5);
  });

  it('no terminal to open: refused (exit 2), nothing deleted', async () => {
    const fixture = await mock();
    const result = await withTerminal(['reports', 'delete', '-'], '7\n', undefined, fixture.env);
    expect(result.code).toBe(2);
    expect(result.stderr.replace(/\n {2}/g, ' ')).toContain(
      'refusing to delete without confirmation: standard input was read for the ids and the terminal cannot be opened to ask',
    );
    expect(fixture.server.reports().some((report) => report.id === 7)).toBe(true);
  });

  it('an empty pipe to delete - is a no-op: exit 0, one note, nothing sent (a dry run prints [] in json)', async () => {
    const fixture = await mock();
    const before = fixture.server.requests.length;
    const result = await runInProcess({ argv: ['reports', 'delete', '-', '--yes', '-o', 'json'], env: fixture.env, stdin: '\n# none\n' });
    expect(result).toEqual({ code: 0, stdout: '', stderr: 'rsapi: stdin held no report ids; nothing to delete\n' });
    const dryRun = await runInProcess({ argv: ['reports', 'delete', '-', '--dry-run', '-o', 'json'], env: fixture.env, stdin: '' });
    expect(dryRun).toEqual({ code: 0, stdout: '[]\n', stderr: 'rsapi: stdin held no report ids; nothing to delete\n' });
    expect(fixture.server.requests.length).toBe(before);
  });

  it('no --yes and nobody to ask: refused before stdin is read and before any request (a pipe that never ends)', async () => {
    const fixture = await mock();
    const { terminal, stderr, cleanup } = testTerminal({ env: fixture.env });
    const endless = new PassThrough(); // ids that would never end: the refusal must not wait for them
    try {
      const code = await run(['reports', 'delete', '-'], createInvocation({ terminal: { ...terminal, stdin: endless }, signal: new AbortController().signal }));
      expect(code).toBe(2);
      expect(stderr.text).toContain('refusing to delete without confirmation: no terminal to ask on');
      expect(endless.readableFlowing).not.toBe(true);
      expect(fixture.server.requests).toHaveLength(0);
    } finally {
      endless.destroy();
      cleanup();
    }
  });
});

describe('reports delete: argv -> plan', () => {
  const plan = (...argv: string[]) =>
    planOf(['reports', 'delete', ...argv], (ctx, opts: never, [ids]: [string[]]) => planReportsDelete(ctx, { ...(opts as object), ids } as never));

  it('the ids as given (- reads more once the run starts), --yes, --dry-run and --concurrency', async () => {
    expect(await plan('42', '-', '--yes', '--concurrency', '3')).toEqual({ args: ['42', '-'], yes: true, dryRun: undefined, concurrency: 3 });
    expect(await plan('7', '--dry-run')).toEqual({ args: ['7'], yes: undefined, dryRun: true, concurrency: undefined });
  });

  it('refused by the plan, before stdin is read: an id that is none, and nobody to ask without --yes', async () => {
    await expect(plan('abc', '--yes')).rejects.toThrow(/abc/);
    await expect(plan('42')).rejects.toThrow(/^refusing to delete without confirmation/);
  });
});
