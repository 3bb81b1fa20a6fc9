// Lock files under real processes: a stale lock (its run killed) taken over by many processes at once goes to exactly one;
// a lock names its owner (host, pid, start time, since), and one whose pid is now another process is taken over.
import { spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { describeOwner, LockFiles, processStart } from '../../src/config/lock-file.js';
import { tempDir } from '../helpers/cli.js';

const TAKERS = 8;
const ROUNDS = 2;
const dir = tempDir('rsapi-lock-file-');
const lockModule = join(dir.path, 'lock-file.mjs');

beforeAll(async () => {
  // The module as Node runs it, bundled for child processes (each its own pid, as rival runs are).
  await build({ entryPoints: ['src/config/lock-file.ts'], bundle: true, format: 'esm', platform: 'node', outfile: lockModule, logLevel: 'silent' });
});
afterAll(() => dir.cleanup());

/** A pid no process has any more: a child's that has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/**
 * A process that tries `lockPath` once when the clock reaches `at` (all of them at the same moment), says whether it
 * took it (`held PID`) or who holds it (`holder PID`), and keeps what it holds until its stdin closes.
 */
function taker(lockPath: string, at: number): Promise<{ line: string; release: () => Promise<void> }> {
  const script = `
    const { LockFiles } = await import(${JSON.stringify(lockModule)});
    // Every removal takes 30 ms, as on a slow disk: whoever judged the lock stale is still about to remove it
    // when another has already taken it over. (A wait, not a spin: the takers share the machine's cores.)
    const fs = process.getBuiltinModule('node:fs');
    const unlinkSync = fs.unlinkSync;
    fs.unlinkSync = (path) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30); unlinkSync(path); };
    const locks = new LockFiles();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ${at} - Date.now())));
    const attempt = locks.tryLock(${JSON.stringify(lockPath)});
    process.stdout.write('held' in attempt ? 'held ' + process.pid + '\\n' : 'holder ' + attempt.holder + '\\n');
    process.stdin.resume();
    process.stdin.on('end', () => { if ('held' in attempt) attempt.held.release(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.endsWith('\n')) resolve({ line: out.trim(), release: () => (child.stdin.end(), exited) });
    });
    child.once('exit', (code) => reject(new Error(`taker exited with ${code} before trying`)));
  });
}

describe('LockFiles', () => {
  it(`a stale lock taken over by ${TAKERS} processes at once goes to exactly one of them (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const lockPath = join(dir.path, `race-${round}.lock`);
      writeFileSync(lockPath, `${deadPid()}\n`);
      // Started well before the moment they all try at, so that none is still loading then.
      const takers = await Promise.all(Array.from({ length: TAKERS }, () => taker(lockPath, Date.now() + 1_000)));
      try {
        const winners = takers.filter((t) => t.line.startsWith('held '));
        expect(
          winners.map((t) => t.line),
          takers.map((t) => t.line).join(', '),
        ).toHaveLength(1);
        const winner = Number(winners[0]?.line.slice('held '.length));
        // The others were told who holds it, and the file names the one that does.
        for (const t of takers) if (t !== winners[0]) expect([`holder ${winner}`, 'holder 0']).toContain(t.line);
        expect(readFileSync(lockPath, 'utf8').split('\n')[0]).toBe(String(winner));
      } finally {
        await Promise.all(takers.map((t) => t.release()));
      }
    }
  }, 60_000);

  it('a stale lock is taken over in-process, and released', () => {
    const lockPath = join(dir.path, 'stale.lock');
    writeFileSync(lockPath, `${deadPid()}\n`);
    const attempt = new LockFiles().tryLock(lockPath);
    expect('held' in attempt).toBe(true);
    expect(readFileSync(lockPath, 'utf8').split('\n')[0]).toBe(String(process.pid));
    if ('held' in attempt) attempt.held.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('a takeover claim left by a process killed while removing a stale lock holds it up only for a while', () => {
    const lockPath = join(dir.path, 'claimed.lock');
    writeFileSync(lockPath, `${deadPid()}\n`);
    const claim = `${lockPath}.takeover-${statSync(lockPath).ino}`;
    writeFileSync(claim, '');
    const locks = new LockFiles();
    expect(locks.tryLock(lockPath)).toEqual({ holder: 0 });
    const past = new Date(Date.now() - 60_000);
    utimesSync(claim, past, past);
    expect('held' in locks.tryLock(lockPath)).toBe(true);
    expect(existsSync(claim)).toBe(false);
  });

  it('names its owner: pid first (as older versions read it), then host, start time and since', () => {
    const lockPath = join(dir.path, 'named.lock');
    const attempt = new LockFiles().tryLock(lockPath);
    if (!('held' in attempt)) throw new Error('not held');
    const [pid, , ...rest] = readFileSync(lockPath, 'utf8').trim().split('\n');
    expect(pid).toBe(String(process.pid));
    expect(rest).toContain(`host ${hostname()}`);
    if (process.platform === 'linux') expect(rest).toContain(`start ${processStart(process.pid)}`);
    expect(rest.find((line) => line.startsWith('since '))).toMatch(/^since \d{4}-\d\d-\d\dT/);
    attempt.held.release();
  });

  describe.skipIf(process.platform !== 'linux')('a live pid', () => {
    /** A live process of the test's own: `sleep 30`, killed when the test ends. */
    function sleeper(): number {
      const child = spawn('sleep', ['30'], { stdio: 'ignore' });
      onTestFinished(() => void child.kill());
      return child.pid as number;
    }

    it('that started when the lock says holds it: refused, the owner named', () => {
      const lockPath = join(dir.path, 'live.lock');
      const pid = sleeper();
      writeFileSync(lockPath, `${pid}\ntoken\nhost ${hostname()}\nstart ${processStart(pid)}\nsince 2024-05-06T06:00:00.000Z\n`);
      const attempt = new LockFiles().tryLock(lockPath);
      expect(attempt).toEqual({ holder: pid, owner: { pid, host: hostname(), start: processStart(pid), since: '2024-05-06T06:00:00.000Z' } });
      if ('owner' in attempt && attempt.owner)
        expect(describeOwner(attempt.owner, Date.parse('2024-05-08T06:00:00.000Z'))).toBe(
          `pid ${pid} on host ${hostname()} since 2024-05-06T06:00:00.000Z (2 d ago)`,
        );
    });

    it('that started at another time (a reused pid) is another process: its lock is taken over, and says why', () => {
      const lockPath = join(dir.path, 'reused.lock');
      const pid = sleeper();
      writeFileSync(lockPath, `${pid}\ntoken\nhost ${hostname()}\nstart 1\nsince 2024-05-06T06:00:00.000Z\n`);
      const attempt = new LockFiles().tryLock(lockPath);
      if (!('held' in attempt)) throw new Error(`refused: holder ${attempt.holder}`);
      expect(attempt.held.tookOver).toEqual({
        owner: expect.objectContaining({ pid, start: '1' }),
        why: `pid ${pid} is another process now (it started at another time)`,
      });
      expect(readFileSync(lockPath, 'utf8').split('\n')[0]).toBe(String(process.pid));
      attempt.held.release();
    });
  });

  it("another host's lock holds while its holder keeps it fresh, and is taken over once it has not for two minutes", () => {
    const lockPath = join(dir.path, 'elsewhere.lock');
    writeFileSync(lockPath, `${process.pid}\ntoken\nhost ci-runner-7\nsince 2024-05-06T06:00:00.000Z\n`);
    const locks = new LockFiles();
    expect(locks.tryLock(lockPath)).toMatchObject({ holder: process.pid, owner: { host: 'ci-runner-7' } });
    const past = new Date(Date.now() - 180_000);
    utimesSync(lockPath, past, past);
    const attempt = locks.tryLock(lockPath);
    if (!('held' in attempt)) throw new Error('refused');
    expect(attempt.held.tookOver?.why).toMatch(/^its host ci-runner-7 has not kept it fresh for 1\d\d s$/);
    attempt.held.release();
  });
});
