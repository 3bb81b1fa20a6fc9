import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMockServer } from '../../src/mock/run.js';
import { startMockServer, type MockOptions } from '../../src/mock/server.js';

// The signal tests run runMockServer in a child process, so a real SIGINT/SIGTERM never reaches the test runner.
let workDir: string;
let driverPath: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'rsapi-mock-run-'));
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/mock/run.ts', import.meta.url))],
    outfile: join(workDir, 'run.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'silent',
  });
  driverPath = join(workDir, 'driver.mjs');
  writeFileSync(
    driverPath,
    [
      "import { runMockServer } from './run.mjs';",
      // As rsapi's main does: SIGINT and SIGTERM abort the invocation's signal.
      'const stop = new AbortController();',
      "for (const name of ['SIGINT', 'SIGTERM']) process.on(name, () => stop.abort());",
      'runMockServer(JSON.parse(process.argv[2]), process, stop.signal).then(',
      '  () => process.exit(0),',
      '  (error) => { process.stderr.write(`failed: ${error.message}\\n`); process.exit(1); },',
      ');',
    ].join('\n'),
  );
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

interface RunningChild {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startChild(options: MockOptions): RunningChild {
  const child = spawn(process.execPath, [driverPath, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function waitForBanner(running: RunningChild): Promise<{ baseUrl: string; key: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const match = /listening on (\S+)\nAPI key: (\S+)\n/.exec(running.stdout());
    if (match?.[1] && match[2]) return { baseUrl: match[1], key: match[2] };
    if (Date.now() > deadline) throw new Error(`no banner; stdout: ${running.stdout()} stderr: ${running.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('runMockServer in a process of its own', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('prints base URL, key and a try line, serves, then stops cleanly on %s', async (signal) => {
    const running = startChild({ port: 0, apiKey: 'banner-key-123', seed: 3 });
    try {
      const { baseUrl, key } = await waitForBanner(running);
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(key).toBe('banner-key-123');
      const root = baseUrl.replace(/\/api\/v1$/, '');
      expect(running.stdout()).toContain(`try: RSAPI_BASE_URL=${root} RSAPI_API_KEY=banner-key-123 rsapi reports list`);

      const response = await fetch(`${baseUrl}/reports`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { meta: { total: number } }).meta.total).toBe(3);

      running.child.kill(signal);
      expect(await running.exited).toBe(0);
      expect(running.stderr()).toContain('mock service stopped');
      await expect(fetch(`${baseUrl}/reports`)).rejects.toThrow();
    } finally {
      running.child.kill('SIGKILL');
    }
  });
});

describe('runMockServer banner', () => {
  it.each([
    [{}, 'seed'],
    [{ flavor: 'phprank' }, 'phpRank'],
  ] as const)('names the flavor played for %j', async (options, title) => {
    const running = startChild({ port: 0, seed: 1, ...options });
    try {
      await waitForBanner(running);
      expect(running.stdout()).toMatch(new RegExp(`^rsapi mock service \\(${title} flavor\\) listening on http://`));
      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
    } finally {
      running.child.kill('SIGKILL');
    }
  });
});

describe('runMockServer start failures', () => {
  it('rejects plainly when the port is already in use, leaving no signal handlers behind', async () => {
    const occupant = await startMockServer({ port: 0 });
    const port = Number(new URL(occupant.url).port);
    const listenersBefore = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
    const written: string[] = [];
    const io = { stdout: { write: (text: string) => written.push(text) }, stderr: { write: (text: string) => written.push(text) } };
    try {
      const failure = await runMockServer({ port }, io, new AbortController().signal).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toBe(`cannot start the mock service: 127.0.0.1:${port} is already in use (EADDRINUSE)`);
      expect(written).toEqual([]);
      expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(listenersBefore);
    } finally {
      await occupant.close();
    }
  });
});
