// Lock files under real processes: a stale lock (its run killed) taken over by many processes at once goes to exactly one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockFiles } from '../../src/config/lock-file.js';
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
});
