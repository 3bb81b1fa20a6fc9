// Bulk runs that keep track under real conditions: a locked journal, a journal that cannot be written, Ctrl-C, a reader that goes away.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAll } from '../../../../../src/cli/commands/reports/create/create-all.js';
import { Journal } from '../../../../../src/cli/commands/reports/create/journal.js';
import { Secrets } from '../../../../../src/cli/runtime/secrets.js';
import { LockFiles } from '../../../../../src/config/lock-file.js';
import { plainProgress } from '../../../../../src/cli/commands/reports/create/progress.js';
import { BIN, cleanEnv, tempDir, type CliResult } from '../../../../helpers/cli.js';
import { scratchMaker } from '../../../../helpers/scratch.js';
import { runInProcess } from '../../../../helpers/run.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { GateClock } from '../../../../helpers/gate-clock.js';

const mock = mockPerTest({ seed: 0 });
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const scratch = scratchMaker('rsapi-bulk-safety-');

function urls(host: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `https://${host}/p/${index + 1}`);
}

function urlFile(dir: string, list: string[]): string {
  const file = join(dir, 'urls.txt');
  writeFileSync(file, `${list.join('\n')}\n`);
  return file;
}

/**
 * createAll over `list` one URL at a time with `journal`, each create answered after `ms` (a re-audit with `refresh`:
 * no `sending` line); `onSend` is told each URL sent. The run's outcome, and its stop signal (the run halted).
 */
function createInto(journal: Journal, list: string[], options: { refresh?: boolean; ms?: number; onSend: (url: string) => void }) {
  const stop = new AbortController();
  let made = 0;
  const outcome = createAll({
    urls: list,
    concurrency: 1,
    create: async ({ url }) => {
      options.onSend(url);
      if (options.ms) await sleep(options.ms);
      return { report: { id: ++made, url }, recovered: false, attempts: 1, ...(options.refresh ? { existing: 'refreshed' as const } : {}) };
    },
    resume: async () => {
      throw new Error('no earlier run');
    },
    mayCreate: () => !options.refresh,
    input: {},
    journal,
    stop: stop.signal,
    halt: () => stop.abort(),
    progress: plainProgress({ write: () => true }),
    onCreated: async () => {},
    onFailed: () => {},
  });
  return { outcome, stop };
}

interface Spawned {
  done: Promise<CliResult>;
  child: ReturnType<typeof spawn>;
}

function start(args: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { done, child };
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('one run per journal', () => {
  it('a second run on a journal in use exits 2 at once, naming the file, and sends nothing', async () => {
    // The mock's latency waits on a gate: the first run's first request (and so the run, holding the journal) stays
    // under way until the second run has met the lock, however long a loaded machine takes to get there.
    const gate = new GateClock();
    const fixture = await mock({ latencyMs: 1_000, clock: gate });
    const dir = scratch();
    const journal = join(dir, 'run.journal');
    const file = urlFile(dir, urls('locked.example', 6));
    const first = start(['reports', 'create', '--from-file', file, '--concurrency', '2', '--journal', journal, '-q'], fixture.env);
    cleanups.push(() => gate.open());
    await until(() => fixture.server.requests.length > 0);
    const seen = fixture.server.requests.length;
    const started = Date.now();
    const second = await runInProcess({ argv: ['reports', 'create', '--from-file', file, '--journal', journal, '-q'], env: fixture.env });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`the journal ${journal} is in use by another run (pid ${first.child.pid}`);
    expect(Date.now() - started).toBeLessThan(5_000);
    gate.open();
    const result = await first.done;
    expect(result.code).toBe(0);
    // Every request came from the first run: one POST per URL.
    expect(fixture.server.requests.filter((request) => request.method === 'POST')).toHaveLength(6);
    expect(seen).toBeGreaterThan(0);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });

  it('a lock left by a run that is gone (killed) is taken over', async () => {
    const fixture = await mock();
    const dir = scratch();
    const journal = join(dir, 'run.journal');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${journal}.lock`, `${gone.stdout}\n`);
    const result = await runInProcess({ argv: ['reports', 'create', ...urls('stale.example', 3), '--journal', journal, '-q'], env: fixture.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });
});

describe('a journal that cannot be written stops the run before the next request', () => {
  it('a short write (simulated): no request after it, the URL counted as not started, the run halted', async () => {
    const dir = scratch();
    const path = join(dir, 'short.journal');
    let lines = 0;
    // The third write is cut short, as on a full disk.
    const journal = await Journal.open(
      path,
      { secrets: new Secrets(), locks: new LockFiles() },
      { write: (_fd, text) => (++lines === 3 ? Math.floor(text.length / 2) : Buffer.byteLength(text)) },
    );
    cleanups.push(() => journal.close());
    const sent: string[] = [];
    const run = createInto(journal, urls('short.example', 6), { onSend: (url) => sent.push(url) });
    const outcome = await run.outcome;
    // Writes: sending p/1; created p/1 with sending p/2; created p/2 with sending p/3 (cut short): p/2 was created,
    // p/3 never sent.
    expect(sent).toEqual(['https://short.example/p/1', 'https://short.example/p/2']);
    expect(outcome.journalFailure?.message).toMatch(/only \d+ of \d+ bytes of a line were written/);
    expect(outcome).toMatchObject({ created: 2, notStarted: 4 });
    expect(run.stop.signal.aborted).toBe(true);
  });

  const canMount = process.platform === 'linux' && process.getuid?.() === 0 && tryMount();

  it.skipIf(!canMount)(
    'on a full file system (a 64 KiB tmpfs): exit 1 with one line and the summary; every POST sent has its whole "sending" line; the resume creates nothing twice',
    async () => {
      const fixture = await mock();
      const dir = scratch();
      const small = join(dir, 'small');
      mkdirSync(small);
      expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]).status).toBe(0);
      cleanups.push(() => void spawnSync('umount', [small]));
      // Leave two pages: one for the lock file, one for a few dozen journal lines.
      writeFileSync(join(small, 'filler'), Buffer.alloc(64 * 1024 - 8192));
      const journal = join(small, 'run.journal');
      const wanted = urls('full-disk.example', 80);
      const file = urlFile(dir, wanted);
      const args = ['reports', 'create', '--from-file', file, '--concurrency', '1', '--journal', journal, '-q'];
      const first = await runInProcess({ argv: args, env: fixture.env });
      // A file the user named that cannot be written, as any other: exit 2 (issue 47 point 8: it was 1, "unexpected").
      expect(first.code).toBe(2);
      expect(first.stderr).toMatch(/cannot write the journal .*run\.journal: (no space left on the device \(ENOSPC\)|only \d+ of \d+ bytes)/);
      expect(first.stderr).toMatch(/created \d+, failed 0, not started \d+ \(the journal could not be written\)/);
      expect(first.stderr).not.toMatch(/\n\s+at /);
      const posts = fixture.server.requests.filter((request) => request.method === 'POST').map((request) => request.form.url);
      expect(posts.length).toBeGreaterThan(0);
      expect(posts.length).toBeLessThan(80);
      // Whole lines only: a line cut short (even by just its newline) does not count as written.
      const text = readFileSync(journal, 'utf8');
      const sendingLines = text
        .slice(0, text.lastIndexOf('\n'))
        .split('\n')
        .filter((line) => line.includes('"status":"sending"'))
        .map((line) => (JSON.parse(line) as { url: string }).url);
      expect(sendingLines).toEqual(posts);

      spawnSync('rm', [join(small, 'filler')]);
      const second = await runInProcess({ argv: args, env: fixture.env });
      expect(second.code, second.stderr).toBe(0);
      const counts = new Map<string, number>();
      for (const report of fixture.server.reports()) counts.set(report.url, (counts.get(report.url) ?? 0) + 1);
      expect(counts).toEqual(new Map(wanted.map((url) => [url, 1])));
    },
  );
});

describe('outcome lines written in groups (OUTCOMES_WAIT_MS)', () => {
  /** A journal whose writes are counted (and the `failAt`-th, when given, fails as on a full disk). */
  async function countedJournal(path: string, failAt?: number) {
    const writes: { text: string; at: number }[] = [];
    const journal = await Journal.open(
      path,
      { secrets: new Secrets(), locks: new LockFiles() },
      {
        write: (fd, text) => {
          writes.push({ text, at: performance.now() });
          if (writes.length === failAt) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          return writeSync(fd, text);
        },
      },
    );
    cleanups.push(() => journal.close());
    return { journal, writes };
  }

  it('a refresh run writes its lines a group at a time; a create run writes each outcome with the next `sending` line; all are kept at the end', async () => {
    const dir = scratch();
    const refresh = await countedJournal(join(dir, 'refresh.journal'));
    const refreshed = await createInto(refresh.journal, urls('groups.example', 40), { refresh: true, ms: 2, onSend: () => {} }).outcome;
    expect(refreshed).toMatchObject({ refreshed: 40, notStarted: 0 });
    expect(refreshed.journalFailure).toBeUndefined();
    // 40 lines over about 100 ms: a few writes, not 40.
    expect(refresh.writes.length).toBeLessThan(10);
    const lines = readFileSync(join(dir, 'refresh.journal'), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { url: string; status: string }).status)).toEqual(Array(40).fill('created'));

    const create = await countedJournal(join(dir, 'create.journal'));
    const created = await createInto(create.journal, urls('groups.example', 5), { ms: 1, onSend: () => {} }).outcome;
    expect(created).toMatchObject({ created: 5, notStarted: 0 });
    // sending 1; created 1 + sending 2; ... created 4 + sending 5; created 5 at the end.
    const statuses = (text: string) => [...text.matchAll(/"status":"(\w+)"/g)].map((match) => match[1]).join(' ');
    expect(create.writes.map(({ text }) => statuses(text))).toEqual(['sending', ...Array(4).fill('created sending'), 'created']);
  });

  it('an outcome line is held, and a journal closed with lines held writes them (a run that ended on an error)', async () => {
    const path = join(scratch(), 'closed.journal');
    const journal = await Journal.open(path, { secrets: new Secrets(), locks: new LockFiles() });
    await journal.record({ url: 'https://closed.example/', status: 'created', id: 1 });
    expect(readFileSync(path, 'utf8')).toBe('');
    journal.close();
    expect(readFileSync(path, 'utf8')).toMatch(/^\{"url":"https:\/\/closed\.example\/","status":"created","id":1,/);
  });

  it('a group whose write fails on its timer stops the run: no request starts after it, and the run says why', async () => {
    const dir = scratch();
    const { journal, writes } = await countedJournal(join(dir, 'full.journal'), 1);
    const sends: number[] = [];
    const { outcome, stop } = createInto(journal, urls('full-group.example', 40), { refresh: true, ms: 20, onSend: () => sends.push(performance.now()) });
    const ran = await outcome;
    expect(ran.journalFailure?.message).toMatch(/cannot write the journal .*full\.journal: .*no space/);
    expect(stop.signal.aborted).toBe(true);
    expect(ran.notStarted).toBeGreaterThan(30);
    const failedAt = writes[0]?.at ?? 0;
    expect(sends.filter((at) => at > failedAt)).toEqual([]);
  });
});

describe('Ctrl-C and a reader that goes away', () => {
  it('after the first Ctrl-C no new request of any kind starts: no URL, no retry, no look-up; exit 130', async () => {
    // Every answer is lost after storing, so each POST is followed by look-ups: the requests Ctrl-C must stop.
    const fixture = await mock({ latencyMs: 300, dropAfterCreate: 1 });
    const dir = scratch();
    const journal = join(dir, 'run.journal');
    const file = urlFile(dir, urls('ctrl-c.example', 40));
    const run = start(['reports', 'create', '--from-file', file, '--concurrency', '4', '--timeout', '5', '--journal', journal, '-q'], fixture.env);
    await until(() => fixture.server.requests.filter((request) => request.method === 'POST').length >= 6);
    run.child.kill('SIGINT');
    // Requests sent before the signal arrive within moments; none may come after.
    await sleep(150);
    const atInterrupt = fixture.server.requests.length;
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(fixture.server.requests).toHaveLength(atInterrupt);
    expect(result.stderr).toMatch(/not started \d+ \(interrupted\)/);
    const last = new Map(
      readFileSync(journal, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { url: string; status: string; maybeCreated?: boolean })
        .map((line) => [line.url, line]),
    );
    // A URL in flight whose report had not been seen yet is left for the resume to look up, never "failed" for sure.
    // Ctrl-C came with four creates in flight, each of whose answers is lost: some end "failed", all of those maybe created.
    const failed = [...last.values()].filter((line) => line.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.filter((line) => line.maybeCreated !== true)).toEqual([]);
    expect(last.size).toBeGreaterThan(0);
    expect([...last.values()].filter((line) => line.status === 'sending')).toEqual([]);
  });

  it('reports delete: after Ctrl-C no new delete starts; the summary says how many were not started; exit 130', async () => {
    const fixture = await mock({ seed: 40, latencyMs: 300 });
    const ids = Array.from({ length: 40 }, (_, index) => String(index + 1));
    const run = start(['reports', 'delete', ...ids, '--yes', '--concurrency', '2'], fixture.env);
    await until(() => fixture.server.requests.length >= 4);
    run.child.kill('SIGINT');
    await sleep(150);
    const atInterrupt = fixture.server.requests.length;
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(fixture.server.requests).toHaveLength(atInterrupt);
    expect(result.stderr).toMatch(/deleted \d+ reports, failed 0, (interrupted \d+ \(may be deleted\), )?not started \d+ \(interrupted\)/);
  });

  it('stdout closed mid-run (`| head -2`): no new URL starts, the summary says so, exit 141', async () => {
    const fixture = await mock({ latencyMs: 100 });
    const dir = scratch();
    const file = urlFile(dir, urls('pipe.example', 50));
    const run = start(['reports', 'create', '--from-file', file, '--concurrency', '2', '-q'], fixture.env);
    let lines = 0;
    run.child.stdout!.on('data', (chunk: string) => {
      lines += chunk.split('\n').length - 1;
      if (lines >= 2) run.child.stdout!.destroy();
    });
    const result = await run.done;
    expect(result.code).toBe(141);
    expect(result.stderr).toContain('stdout was closed: starting no new URL');
    expect(result.stderr).toMatch(/created \d+, failed 0, not started \d+ \(stdout was closed\)/);
    const posts = fixture.server.requests.filter((request) => request.method === 'POST').length;
    expect(posts).toBeLessThan(15);
    const created = Number(/created (\d+)/.exec(result.stderr)?.[1]);
    const notStarted = Number(/not started (\d+)/.exec(result.stderr)?.[1]);
    expect(created).toBe(posts);
    expect(created + notStarted).toBe(50);
  });
});

function tryMount(): boolean {
  const dir = tempDir('rsapi-mount-probe-');
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir.path]).status === 0;
    if (mounted) spawnSync('umount', [dir.path]);
    return mounted;
  } finally {
    dir.cleanup();
  }
}
