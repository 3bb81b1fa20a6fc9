// What the built CLI loads before it answers: --version and --help stay clear of the modules only requests and files need.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { promisify } from 'node:util';
import { BIN, NODE, cleanEnv } from '../helpers/cli.js';
import { startMock } from '../helpers/mock.js';

const run = promisify(execFile);

const dir = mkdtempSync(join(tmpdir(), 'rsapi-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Node's own list of the built-in modules it loaded, written at exit by a preloaded hook. */
function builtinsLoadedBy(args: string[]): { stdout: string; modules: string[] } {
  const hook = join(dir, 'hook.cjs');
  const out = join(dir, `modules-${args.join('-')}.txt`);
  writeFileSync(hook, "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));");
  const result = spawnSync(NODE, ['--require', hook, BIN, ...args], { env: cleanEnv({ MODULES_OUT: out }), encoding: 'utf8' });
  expect(result.status).toBe(0);
  return { stdout: result.stdout, modules: readFileSync(out, 'utf8').split('\n') };
}

/** The sources (src/… paths, from the chunks' source maps) of every chunk of dist/ the built CLI loads for `args`. */
function sourcesLoadedBy(args: string[]): string[] {
  const { command, out } = loadTracing(args);
  const result = spawnSync(NODE, command, { env: cleanEnv({ LOADED_OUT: out }), encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return sourcesOf(loadedChunks(out));
}

/** Node's arguments to run the built CLI with `args`, each file it loads appended to `out`. */
function loadTracing(args: string[]): { command: string[]; out: string } {
  const loader = join(dir, 'loader.mjs');
  const register = join(dir, 'register.mjs');
  const out = join(dir, `loaded-${args.join('-')}.txt`);
  writeFileSync(
    loader,
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.LOADED_OUT, `${url}\\n`); return next(url, context); }\n",
  );
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(loader).href)});\n`);
  writeFileSync(out, '');
  const main = join(BIN, '..', '..', 'dist', 'main.js');
  return { command: ['--import', pathToFileURL(register).href, main, ...args], out };
}

/** The files of dist/ in a load trace. */
function loadedChunks(out: string): string[] {
  const chunks = readFileSync(out, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:') && url.includes('/dist/'));
  expect(chunks.length).toBeGreaterThan(3);
  return chunks;
}

function sourcesOf(chunks: string[]): string[] {
  return chunks.flatMap((url) => {
    try {
      return (JSON.parse(readFileSync(new URL(`${url}.map`), 'utf8')) as { sources: string[] }).sources.map((source) => source.replace(/^(\.\.\/)+/, ''));
    } catch {
      return []; // a chunk of bundler helpers only has no map
    }
  });
}

describe('start-up', () => {
  it('--version writes the version and loads neither streams nor V8 settings', () => {
    const { stdout, modules } = builtinsLoadedBy(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    for (const name of ['NativeModule stream', 'NativeModule v8', 'NativeModule crypto', 'NativeModule child_process']) expect(modules).not.toContain(name);
  });

  it('--help loads no child_process, crypto, V8 settings, HTTP or TLS', () => {
    const { stdout, modules } = builtinsLoadedBy(['--help']);
    expect(stdout).toContain('Usage: rsapi');
    for (const name of ['NativeModule child_process', 'NativeModule crypto', 'NativeModule v8', 'NativeModule http', 'NativeModule tls']) {
      expect(modules).not.toContain(name);
    }
  });

  it('the root help the CLI itself renders (on a terminal) loads no renderer, record model, check or list option', () => {
    const sources = sourcesLoadedBy(['--help']);
    expect(sources).toContain('src/cli/program.ts');
    const needless = [
      'src/output/formats.ts',
      'src/output/table/table.ts',
      'src/api/model/report-model.ts',
      'src/api/model/checks.ts',
      'src/cli/flags/verb-options.ts',
    ];
    expect(sources.filter((source) => needless.includes(source))).toEqual([]);
  });

  it('reports list --help loads its own verb and no other verb of reports (create, its journal and sitemaps; stats; delete)', () => {
    const sources = sourcesLoadedBy(['reports', 'list', '--help']);
    expect(sources).toContain('src/cli/commands/reports/list.ts');
    const others = sources.filter((source) => /^src\/cli\/commands\/reports\/(create\/|stats|delete|show|update)/.test(source));
    expect(others).toEqual([]);
    // node:crypto costs a verb's start-up (~6 ms): the modules every list loads take it on first use only.
    expect(builtinsLoadedBy(['reports', 'list', '--help']).modules).not.toContain('NativeModule crypto');
  });

  it('reports list -o json (one page, against the mock) loads no check filter nor report file writer, in few files', async () => {
    const mock = await startMock();
    try {
      const { command, out } = loadTracing(['reports', 'list', '-o', 'json']);
      const result = await run(NODE, command, { env: cleanEnv({ ...mock.env, LOADED_OUT: out }), encoding: 'utf8' });
      expect(result.stdout).toContain('"id"');
      const chunks = loadedChunks(out);
      const sources = sourcesOf(chunks);
      expect(sources).toContain('src/cli/commands/reports/list.ts');
      const flagOnly = [
        'src/cli/reading/check-filter.ts', // --failing-check, --passing-check, --per-check
        'src/cli/report-files/junit.ts',
        'src/cli/report-files/summary.ts',
        'src/cli/report-files/codequality.ts',
        'src/cli/report-files/html/page.ts',
      ];
      expect(sources.filter((source) => flagOnly.includes(source))).toEqual([]);
      // Each file costs the module loader a resolve, read, compile and link: scripts/build.mjs keeps the modules loaded
      // after program.ts and runtime/handler.ts in their hub's chunk, the small chunks loaded after the handler in its
      // chunk, and imports the program's and the verb's chunks past their facades; undici's Agent and request API are
      // one import (src/api/http/undici-parts.ts), one chunk (63 files, then 37, 21, 19, now 14).
      expect(chunks.length).toBeLessThanOrEqual(14);
    } finally {
      await mock.close();
    }
  });

  it('a plain reports list -o json loads no gate nor judge; a gate flag loads them', async () => {
    const mock = await startMock();
    try {
      const gateModules = (sources: string[]) => sources.filter((source) => /^src\/cli\/verdicts\/(gates|judge)\.ts$/.test(source));
      const sourcesOfList = async (args: string[]) => {
        const { command, out } = loadTracing(['reports', 'list', '-o', 'json', ...args]);
        await run(NODE, command, { env: cleanEnv({ ...mock.env, LOADED_OUT: out }), encoding: 'utf8' }).catch((error: { code?: number }) => {
          if (error.code !== 10) throw error; // the gate failing is the gate judging
        });
        return sourcesOf(loadedChunks(out));
      };
      expect(gateModules(await sourcesOfList([]))).toEqual([]);
      // The check can fail: with a gate flag the same list does load them.
      expect(gateModules(await sourcesOfList(['--min-score', '50']))).toEqual(['src/cli/verdicts/judge.ts', 'src/cli/verdicts/gates.ts']);
      // No performance timeline (perf_hooks and its modules) for a plain list either.
      const modules = join(dir, 'modules-list.txt');
      const hook = join(dir, 'hook.cjs');
      writeFileSync(hook, "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));");
      await run(NODE, ['--require', hook, BIN, 'reports', 'list', '-o', 'json'], { env: cleanEnv({ ...mock.env, MODULES_OUT: modules }), encoding: 'utf8' });
      expect(readFileSync(modules, 'utf8').split('\n')).not.toContain('NativeModule perf_hooks');
    } finally {
      await mock.close();
    }
  });

  it('a plain reports list -o json over http:// loads no HTTP/2, TLS nor crypto', async () => {
    const mock = await startMock();
    try {
      // undici's client loads node:http2 (which brings TLS and crypto along, ~5 ms) for connections rsapi never asks
      // for: the build gives it a node:http2 loaded on first use (scripts/lazy-http2.mjs).
      const modules = join(dir, 'modules-list-http.txt');
      const hook = join(dir, 'hook.cjs');
      writeFileSync(hook, "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));");
      const result = await run(NODE, ['--require', hook, BIN, 'reports', 'list', '-o', 'json'], {
        env: cleanEnv({ ...mock.env, MODULES_OUT: modules }),
        encoding: 'utf8',
      });
      expect(result.stdout).toContain('"id"');
      const heavy = ['NativeModule http2', 'NativeModule tls', 'NativeModule crypto'];
      expect(
        readFileSync(modules, 'utf8')
          .split('\n')
          .filter((name) => heavy.includes(name)),
      ).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('the MCP SDK is loaded by `rsapi mcp` alone: not by the root help nor by another verb', () => {
    const sdk = (sources: string[]) => sources.filter((source) => source.includes('@modelcontextprotocol/') || source.startsWith('src/mcp/'));
    expect(sdk(sourcesLoadedBy(['--help']))).toEqual([]);
    expect(sdk(sourcesLoadedBy(['reports', 'list', '--help']))).toEqual([]);
    expect(sdk(sourcesLoadedBy(['mcp', '--help']))).toEqual([]);
    // The server itself (its stdin at an end at once) does load it: the check above can fail.
    expect(sdk(sourcesLoadedBy(['mcp']))).toEqual(expect.arrayContaining(['src/mcp/server.ts', expect.stringContaining('@modelcontextprotocol/sdk/')]));
  });

  it('history trend --help loads its own verb and no other verb of history, nor the CI files, run parts or zlib', () => {
    // `history trend` answers in a few tens of ms (the bench's row against `config path`): merge's run parts (zlib),
    // the reporter of diff's CI files and the other verbs are not its to load.
    const sources = sourcesLoadedBy(['history', 'trend', '--help']);
    expect(sources).toContain('src/cli/commands/history/trend.ts');
    const others = sources.filter((source) => /^src\/cli\/commands\/history\/(diff|merge|html|show|runs|prune|export|import)/.test(source));
    expect(others).toEqual([]);
    // The reporter (CI files), its baseline and page history, and run parts: the verbs that write or merge runs load them.
    const heavy = ['src/cli/report-files/reporter.ts', 'src/cli/report-files/page-history.ts', 'src/history/parts/part.ts'];
    expect(sources.filter((source) => heavy.includes(source))).toEqual([]);
    expect(builtinsLoadedBy(['history', 'trend', '--help']).modules).not.toContain('NativeModule zlib');
  });

  it('the root help and the help of reports list and history diff load neither node:sqlite, pg nor a store', () => {
    // The history's errors (exit-codes.ts maps them) and its location parser (secrets.ts redacts a URL's password) are small and plain.
    const light = ['src/history/errors.ts', 'src/history/location.ts'];
    const stores = ['src/history/sqlite.ts', 'src/history/postgres.ts', 'src/history/sql-store.ts', 'src/history/open.ts'];
    for (const args of [['--help'], ['reports', 'list', '--help'], ['history', 'diff', '--help']]) {
      const sources = sourcesLoadedBy(args);
      const heavy = (source: string) =>
        stores.includes(source) ||
        source.includes('node_modules/pg') ||
        (args[0] !== 'history' && source.startsWith('src/history/') && !light.includes(source));
      expect(sources.filter(heavy)).toEqual([]);
      expect(builtinsLoadedBy(args).modules.filter((name) => /sqlite/i.test(name))).toEqual([]);
    }
  });

  it('a temp dir where the compile cache cannot be made (TMPDIR=/proc) neither hangs nor fails a command', async () => {
    const mock = await startMock();
    try {
      // Node 22 and 24, asked to make their compile cache under /proc, loop forever (26 gives up): main.ts makes it first.
      const tmp = existsSync('/proc/self') ? '/proc' : join(dir, 'missing', 'tmp');
      const result = await run(NODE, [BIN, 'reports', 'list', '-o', 'json'], {
        env: cleanEnv({ ...mock.env, TMPDIR: tmp }),
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(result.stdout).toContain('"id"');
      expect(result.stderr).toBe('');
    } finally {
      await mock.close();
    }
  });

  it('--version on a full disk is one line and exit 1', () => {
    const result = spawnSync(NODE, [BIN, '--version'], { env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    expect(result.status).toBe(0);
    const full = spawnSync('sh', ['-c', `"$0" "$1" --version > /dev/full`, NODE, BIN], { env: cleanEnv(), encoding: 'utf8' });
    expect(full.status).toBe(1);
    expect(full.stderr).toBe('rsapi: cannot write the output: no space left on the device (ENOSPC)\n');
  });
});
