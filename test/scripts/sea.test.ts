// scripts/sea.mjs: the single-file executable of this machine's platform, built once for the file (Node >= 25.7: this
// one, else the cached Node 26 of scripts/node-lines.mjs) and run as a newcomer runs it: with the machine's own old
// Node first on PATH (20 here), or no Node at all, against the mock it serves itself.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExecutable, hostTarget, TARGETS } from '../../scripts/sea.mjs';
import { BIN, type CliResult, cleanEnv, tempDir } from '../helpers/cli.js';
import { postgresPerFile } from '../helpers/postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const KEY = 'sea-test-key-5e1d27';

/** A Node that has `--build-sea` with a CommonJS main and assets (25.7 or newer). */
function builderNode(): string | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 25 || (major === 25 && minor >= 7)) return process.execPath;
  const cached = join(ROOT, '.cache', 'node-lines', '26', 'bin', 'node');
  return existsSync(cached) ? cached : undefined;
}

/**
 * Why the executable is not built here, if it is not. The suite's runs on the other Node lines (RSAPI_TEST_NODE, .ci/run)
 * skip it: the executable carries its own Node, the same file whichever line runs the tests.
 */
function notHere(): string | undefined {
  if (process.env.RSAPI_TEST_NODE) return 'the suite runs on another Node line (RSAPI_TEST_NODE): the executable is tested once, on the main line';
  if (!hostTarget()) return `no executable is released for ${process.platform}-${process.arch}`;
  if (!builderNode()) return 'no Node >= 25.7 here: node scripts/node-lines.mjs 26 fetches one';
  return undefined;
}

/** The directory of the machine's own Node when it is older than 22.13 (Debian's 20 in /usr/bin), as a newcomer has it. */
function oldNodeDir(): string | undefined {
  for (const dir of ['/usr/bin', '/usr/local/bin']) {
    const version = spawnSync(join(dir, 'node'), ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    const [major = 99, minor = 99] = (version ?? '').split('.').map(Number);
    if (version && (major < 22 || (major === 22 && minor < 13))) return dir;
  }
  return undefined;
}

const skip = notHere();
if (skip && process.env.CI && !process.env.RSAPI_TEST_NODE) throw new Error(`the single-file executable cannot be skipped under CI: ${skip}`);
const pg = postgresPerFile();

describe.skipIf(skip !== undefined)(`the single-file executable of this platform${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const work = tempDir('rsapi-sea-');
  const exe = join(work.path, hostTarget() === 'win-x64' ? 'rsapi.exe' : 'rsapi');
  const cache = join(work.path, 'cache');
  const oldNode = oldNodeDir();
  const newcomerPath = [oldNode, process.env.PATH].filter(Boolean).join(':');
  const children: ChildProcess[] = [];
  let baseUrl = '';

  beforeAll(async () => {
    buildExecutable({ builder: builderNode() as string, output: exe });
    baseUrl = await startMockThroughExecutable(['--unreachable', 'down.example']);
  }, 120_000);
  afterAll(() => {
    for (const child of children) child.kill('SIGTERM');
    work.cleanup();
  });

  /** Runs the executable with the newcomer's PATH, this file's cache and config dirs, and the mock's address and key. */
  function run(args: string[], env: Record<string, string | undefined> = {}, input = ''): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(exe, args, {
        env: cleanEnv({
          PATH: newcomerPath,
          XDG_CACHE_HOME: cache,
          HOME: work.path,
          RSAPI_CONFIG_DIR: join(work.path, 'config'),
          RSAPI_BASE_URL: baseUrl,
          RSAPI_API_KEY: KEY,
          ...env,
        }),
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
      child.stdin.end(input);
    });
  }

  /** `rsapi mock-server --port 0` run by the executable itself; resolves to the address it listens on. */
  function startMockThroughExecutable(flags: string[]): Promise<string> {
    const child = spawn(exe, ['mock-server', '--port', '0', '--api-key', KEY, ...flags], {
      env: cleanEnv({ PATH: newcomerPath, XDG_CACHE_HOME: cache, HOME: work.path }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) resolve(url);
      });
      child.on('exit', (code) => reject(new Error(`the mock exited ${code} before it listened: ${err}`)));
    });
  }

  it('is a file of the platform at most 160 MB, and the Node first on the newcomer PATH is older than rsapi needs', () => {
    expect(statSync(exe).size).toBeLessThanOrEqual(160_000_000);
    if (oldNode) {
      const version = spawnSync('node', ['--version'], { env: { PATH: newcomerPath }, encoding: 'utf8' }).stdout.trim();
      expect(Number(/^v(\d+)/.exec(version)?.[1])).toBeLessThan(22);
    }
    expect(TARGETS[hostTarget() as keyof typeof TARGETS]).toBeDefined();
  });

  it('--version prints the version alone, with no warning, and writes nothing to the disk', async () => {
    const fresh = join(work.path, 'fresh-cache');
    const result = await run(['--version'], { XDG_CACHE_HOME: fresh });
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(existsSync(fresh)).toBe(false);
    // With -v, a second line for a bug report: the single-file build, and the Node inside.
    const verbose = await run(['-v', '--version'], { XDG_CACHE_HOME: fresh });
    expect(verbose.stdout).toMatch(
      new RegExp(`^${VERSION.replace(/\./g, '\\.')}\nsingle-file build ${VERSION.replace(/\./g, '\\.')}-[0-9a-f]{16}, Node v\\d+\\.\\d+\\.\\d+ inside\n$`),
    );
  });

  it('the root help into a pipe and `help reports list` are the npm install’s, word for word', async () => {
    for (const args of [['--help'], ['help', 'reports', 'list']]) {
      const npm = spawnSync(process.execPath, [BIN, ...args], { env: cleanEnv({ RSAPI_CONFIG_DIR: join(work.path, 'config') }), encoding: 'utf8' });
      const result = await run(args);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(npm.stdout);
      expect(result.stdout).toMatch(/^Usage: rsapi/);
    }
  });

  it('one page from the mock it serves itself, with no warning on stderr; then with no Node on PATH at all', async () => {
    const result = await run(['reports', 'list', '--limit', '1', '-o', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
    const noNode = join(work.path, 'empty-path');
    mkdirSync(noNode, { recursive: true });
    const bare = await run(['reports', 'list', '--limit', '2', '-o', 'json'], { PATH: noNode });
    expect(bare.stderr).toBe('');
    expect(JSON.parse(bare.stdout)).toHaveLength(2);
    // The files it runs were unpacked once, into a directory named for the build.
    expect(readdirSync(join(cache, 'rsapi')).filter((name) => name.startsWith('sea-'))).toHaveLength(1);
  });

  it('a bulk create with a journal, resumed: the second run skips the URLs the first created and creates none twice', async () => {
    const dir = join(work.path, 'bulk');
    mkdirSync(dir, { recursive: true });
    const urls = join(dir, 'urls.txt');
    const journal = join(dir, 'urls.journal');
    writeFileSync(urls, 'https://bulk.example/1\nhttps://down.example/2\nhttps://bulk.example/3\n');
    const first = await run(['reports', 'create', '--from-file', urls, '--journal', journal, '-o', 'json']);
    expect(first.code).toBe(5);
    expect(first.stderr).toContain('created 2, failed 1 (exit 5)\n');
    const second = await run(['reports', 'create', '--from-file', urls, '--journal', journal, '-o', 'json']);
    expect(second.stderr).toContain('skipping 2 URLs already created');
    expect(second.stderr).toContain('created 0, failed 1 (exit 5), skipped 2 (journal)');
    const listed = await run(['reports', 'list', '--search', 'bulk.example', '--all', '-o', 'json']);
    const created = (JSON.parse(listed.stdout) as { url: string }[]).map((report) => report.url).sort();
    expect(created).toEqual(['https://bulk.example/1', 'https://bulk.example/3']);
  });

  it('--record into SQLite, then `history runs` lists the run, with no ExperimentalWarning', async () => {
    const history = join(work.path, 'history.db');
    const recorded = await run(['reports', 'list', '--limit', '3', '--record', '--history', history, '-o', 'json']);
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    const runs = await run(['history', 'runs', '--history', history, '-o', 'json']);
    expect(runs.stderr).toBe('');
    expect(JSON.parse(runs.stdout)).toMatchObject([{ command: 'reports list', reports: 3 }]);
  });

  it.skipIf(pg.missing !== undefined && !process.env.CI)('--record into PostgreSQL, then `history runs` lists the run', async () => {
    const recorded = await run(['reports', 'list', '--limit', '2', '--record', '--history', pg.url(), '-o', 'json']);
    expect(recorded.stderr).toBe('');
    const runs = await run(['history', 'runs', '--history', pg.url(), '-o', 'json']);
    expect(runs.stderr).toBe('');
    expect(JSON.parse(runs.stdout)).toMatchObject([{ command: 'reports list', reports: 2 }]);
  });

  it('`rsapi mcp` answers initialize and lists its tools over stdio, then ends at EOF', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sea', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const result = await run(['mcp'], {}, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    expect(result.code).toBe(0);
    const answers = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: { tools?: { name: string }[] } });
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1]?.result.tools?.map((tool) => tool.name)).toContain('list_reports');
  });

  it('`completion bash` prints the script the npm install prints', async () => {
    const npm = spawnSync(process.execPath, [BIN, 'completion', 'bash'], { env: cleanEnv(), encoding: 'utf8' });
    const result = await run(['completion', 'bash']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(npm.stdout);
  });

  it('a cache directory it cannot write: it runs from a temporary copy, removed when it exits', async () => {
    const blocked = join(work.path, 'not-a-dir');
    writeFileSync(blocked, '');
    const tmp = join(work.path, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const result = await run(['reports', 'list', '--limit', '1', '-o', 'json'], { XDG_CACHE_HOME: blocked, TMPDIR: tmp });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toHaveLength(1);
    expect(readdirSync(tmp).filter((name) => name.startsWith('rsapi-sea-'))).toEqual([]);
  });

  it('four first runs at once each succeed, and leave one complete copy and no partial one', async () => {
    const shared = join(work.path, 'shared-cache');
    const results = await Promise.all(Array.from({ length: 4 }, () => run(['config', 'path'], { XDG_CACHE_HOME: shared })));
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(join(shared, 'rsapi'))).toEqual([expect.stringMatching(/^sea-[\w.-]+$/)]);
  });
});
