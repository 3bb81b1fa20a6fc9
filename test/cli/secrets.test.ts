// Credentials in use and kept safe: flag > env > profile precedence, no key in any output or file, no key sent to
// another origin, the plain-http warning, no key in a process's argv, and deletes refused without a terminal.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { runInProcess, type InProcessResult } from '../helpers/run.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { refusedPort, startRawServer, type RawServer, type SeenRequest } from '../helpers/raw-server.js';
import { tempHomePerTest } from '../helpers/settings.js';

/** Distinctive enough that finding it anywhere is a leak, never a coincidence. */
const CANARY = 'rsapi-canary-Q7x9Zk2mW4pL8vN3';
const PASSWORD = 'pw-canary-Hj5Tr8Lq2';

/** The temp dir of each test; it holds HOME, TMPDIR and the XDG dirs of the runs, and their settings dir. */
const home = tempHomePerTest('rsapi-secrets-', 'config');
let env: Record<string, string | undefined>;

beforeEach(() => {
  for (const dir of ['home', 'tmp', 'xdg']) mkdirSync(join(home.path, dir));
  env = {
    HOME: join(home.path, 'home'),
    TMPDIR: join(home.path, 'tmp'),
    XDG_CONFIG_HOME: join(home.path, 'xdg'),
    XDG_CACHE_HOME: join(home.path, 'xdg'),
    RSAPI_CONFIG_DIR: home.settings.dir,
  };
});

describe('precedence: flag > env > profile, by what the server received', () => {
  const KEY = 'precedence-key-0001';
  const servers: Record<'flag' | 'env' | 'profile', MockFixture> = {} as never;
  beforeAll(async () => {
    for (const source of ['flag', 'env', 'profile'] as const) servers[source] = await startMock({ apiKey: KEY });
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  });

  /** Every non-empty combination of sources, and the one that must win. */
  const combinations = [
    ['flag', 'env', 'profile'],
    ['flag', 'env'],
    ['flag', 'profile'],
    ['env', 'profile'],
    ['flag'],
    ['env'],
    ['profile'],
  ].map((sources) => [sources.join(' > '), sources] as const);

  function counts(): Record<string, number> {
    return Object.fromEntries(Object.entries(servers).map(([source, fixture]) => [source, fixture.server.requests.length]));
  }

  it.each(combinations)('base URL from %s', async (_label, sources: readonly string[]) => {
    if (sources.includes('profile')) home.settings.store({ default: { 'base-url': servers.profile.server.baseUrl } });
    const flag = sources.includes('flag') ? ['--base-url', servers.flag.server.url] : [];
    const before = counts();
    // The global flag goes after the subcommand here: it must work in either place.
    const result = await runInProcess({ argv: ['reports', 'list', '-q', ...flag], env: { ...env, RSAPI_API_KEY: KEY, RSAPI_BASE_URL: sources.includes('env') ? servers.env.server.url : undefined } });
    expect(result.code).toBe(0);
    const after = counts();
    const winner = sources[0];
    for (const source of ['flag', 'env', 'profile']) expect(after[source]! - before[source]!).toBe(source === winner ? 1 : 0);
  });

  it.each(combinations)('API key from %s', async (_label, sources: readonly string[]) => {
    const keys = { flag: 'key-from-flag-1111', env: 'key-from-env-2222', profile: 'key-from-profile-3333' };
    const target = servers.flag.server;
    if (sources.includes('profile')) home.settings.store({ default: { 'api-key': keys.profile, 'key-origin': target.url } });
    const flag = sources.includes('flag') ? ['--api-key', keys.flag] : [];
    const before = target.requests.length;
    await runInProcess({ argv: [...flag, 'reports', 'list', '--retries', '0', '--base-url', target.url], env: { ...env, RSAPI_API_KEY: sources.includes('env') ? keys.env : undefined } });
    const seen = target.requests.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${keys[sources[0] as keyof typeof keys]}`);
  });

  it.each([
    [['flag', 'env'], 'flag'],
    [['flag'], 'flag'],
    [['env'], 'env'],
    [[], 'profile'],
  ] as const)('profile from %j: the "%s" profile is used', async (sources, winner) => {
    home.settings.store({
      'p-flag': { 'base-url': servers.flag.server.baseUrl, 'api-key': KEY },
      'p-env': { 'base-url': servers.env.server.baseUrl, 'api-key': KEY },
      default: { 'base-url': servers.profile.server.baseUrl, 'api-key': KEY },
    });
    const flag = (sources as readonly string[]).includes('flag') ? ['--profile', 'p-flag'] : [];
    const before = counts();
    const result = await runInProcess({ argv: [...flag, 'reports', 'list', '-q'], env: { ...env, RSAPI_PROFILE: (sources as readonly string[]).includes('env') ? 'p-env' : undefined } });
    expect(result.code).toBe(0);
    const after = counts();
    for (const source of ['flag', 'env', 'profile']) expect(after[source]! - before[source]!).toBe(source === winner ? 1 : 0);
  });
});

describe('the key never leaks', () => {
  let good: MockFixture;
  let limited: MockFixture;
  let failing: MockFixture;
  let otherKey: MockFixture;
  let closedUrl: string;
  beforeAll(async () => {
    good = await startMock({ apiKey: CANARY });
    limited = await startMock({ apiKey: CANARY, rateLimit: 1, rateLimitWindowMs: 60_000 });
    failing = await startMock({ apiKey: CANARY, failRate: 1 });
    otherKey = await startMock({ apiKey: 'some-other-key-entirely' });
    closedUrl = `http://127.0.0.1:${await refusedPort()}`;
  });
  afterAll(async () => {
    await Promise.all([good.close(), limited.close(), failing.close(), otherKey.close()]);
  });

  function filesUnder(dir: string): string[] {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  }

  it('in no output of successes, every error class, --verbose, RSAPI_DEBUG=1, config list or auth status; in no file but the config', async () => {
    const started = Date.now();
    const at = (fixture: MockFixture) => ({ ...env, RSAPI_BASE_URL: fixture.server.url });
    const viaEnv = (fixture: MockFixture) => ({ ...at(fixture), RSAPI_API_KEY: CANARY });
    const debug = { RSAPI_DEBUG: '1' };
    const notADirectory = join(home.path, 'tmp', 'a-file');
    writeFileSync(notADirectory, 'not a directory');
    const runs: [string[], Record<string, string | undefined>, number, string?][] = [
      // Logging in stores the key in the profile that the later runs use.
      [['auth', 'login', '--with-token', '--base-url', good.server.url, '--verbose'], env, 0, `${CANARY}\n`],
      [['reports', 'list', '--verbose'], env, 0],
      [['reports', 'list', '--all', '-o', 'json', '--verbose'], { ...env, ...debug }, 0],
      [['reports', 'create', `https://example.com/leak-${Date.now()}`, '--privacy', 'password', '--password-stdin', '--verbose'], env, 0, `${PASSWORD}\n`],
      [['reports', 'show', '999999', '--verbose'], { ...env, ...debug }, 4],
      [['api', 'POST', '/reports', '-f', 'url=not-a-url', '--verbose'], { ...env, ...debug }, 5],
      [['reports', 'list', '--retries', '0'], viaEnv(limited), 0],
      [['reports', 'list', '--retries', '0', '--verbose'], { ...viaEnv(limited), ...debug }, 6],
      [['reports', 'list', '--retries', '1', '--verbose'], { ...viaEnv(failing), ...debug }, 8],
      // A key given on purpose goes to any address (the stored one would be refused elsewhere: exit 3).
      [['reports', 'list', '--retries', '0', '--verbose', '--base-url', closedUrl], { ...env, RSAPI_API_KEY: CANARY, ...debug }, 7],
      [['reports', 'list', '--verbose'], { ...viaEnv(otherKey), ...debug }, 3],
      [['auth', 'status', '--verbose'], { ...viaEnv(otherKey), ...debug }, 3],
      [['reports', 'list', '--min-score', '101'], env, 10],
      [['reports', 'create', 'not-a-url', '--verbose'], { ...env, ...debug }, 2],
      [['--api-key', CANARY, 'reports', 'lst'], at(good), 2],
      [['reports', 'list', `--api-key=${CANARY}`, '--per-page', '7'], at(good), 2],
      [['config', 'set', 'api-key', CANARY], env, 2],
      [['reports', 'list', '--verbose'], { ...viaEnv(good), RSAPI_CONFIG_DIR: notADirectory, ...debug }, 1],
      [['reports', 'delete', '1'], env, 2],
      [['config', 'list'], env, 0],
      [['config', 'list', '--json'], env, 0],
      [['config', 'get', 'api-key'], env, 0],
      [['auth', 'status'], env, 0],
      [['auth', 'status', '--json', '--verbose'], { ...env, ...debug }, 0],
      [['auth', 'status'], viaEnv(good), 0],
    ];
    const results: InProcessResult[] = [];
    for (const [args, runEnv, code, input] of runs) {
      const result = await runInProcess({ argv: args, env: runEnv, stdin: input });
      expect({ args, code: result.code }).toEqual({ args, code });
      results.push(result);
    }
    for (const result of results) {
      expect(result.stdout).not.toContain(CANARY);
      expect(result.stderr).not.toContain(CANARY);
      expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    }
    // The runs did show the key where they should: masked to its last 4 characters.
    const everything = results.map((result) => result.stdout + result.stderr).join('\n');
    expect(everything).toContain(`****${CANARY.slice(-4)}`);
    // The stack traces of --verbose / RSAPI_DEBUG=1 were printed (so they were checked too).
    expect(everything).toMatch(/\n\s+at /);
    expect(good.server.reports().some((report) => report.password === PASSWORD)).toBe(true);

    const configFile = home.settings.path;
    expect(readFileSync(configFile, 'utf8')).toContain(CANARY);
    const written = filesUnder(home.path).filter((file) => file !== configFile);
    for (const file of written) expect({ file, leaked: readFileSync(file, 'utf8').includes(CANARY) }).toEqual({ file, leaked: false });
    const cwdFiles = readdirSync(process.cwd(), { withFileTypes: true }).filter(
      (entry) => entry.isFile() && statSync(join(process.cwd(), entry.name)).mtimeMs >= started,
    );
    for (const entry of cwdFiles) expect(readFileSync(join(process.cwd(), entry.name), 'utf8')).not.toContain(CANARY);
  });

  it('is never in the argv of rsapi or any process under it (key from env, from stdin, from the profile)', async () => {
    const slow = await startMock({ apiKey: CANARY, latencyMs: 700 });
    try {
      home.settings.store({ default: { 'base-url': slow.server.baseUrl, 'api-key': CANARY } });
      const cases: [string[], Record<string, string | undefined>, string][] = [
        [['reports', 'list'], { ...env, RSAPI_BASE_URL: slow.server.url, RSAPI_API_KEY: CANARY, RSAPI_CONFIG_DIR: join(home.path, 'none') }, ''],
        [['reports', 'list'], env, ''],
        [['auth', 'login', '--with-token', '--base-url', slow.server.url], env, `${CANARY}\n`],
      ];
      for (const [args, runEnv, input] of cases) {
        const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(runEnv), stdio: ['pipe', 'ignore', 'ignore'] });
        child.stdin.end(input);
        const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
        // Wait until the request is under way (the mock is holding it), then look at every process in the tree.
        const before = slow.server.requests.length;
        while (slow.server.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 20));
        const tree = processTree(child.pid!);
        expect(tree.length).toBeGreaterThanOrEqual(1);
        for (const pid of tree) {
          const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          expect(argv.join(' ')).toContain('rsapi');
          expect(argv.some((word) => word.includes(CANARY))).toBe(false);
        }
        expect(await exited).toBe(0);
      }
    } finally {
      await slow.close();
    }
  });
});

/** A process and all its descendants, from /proc. */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  return tree;
}

describe('redirects are not followed', () => {
  let target: MockFixture;
  let redirector: RawServer;
  let seenByRedirector: SeenRequest[] = [];
  let status = 302;
  beforeAll(async () => {
    target = await startMock({ apiKey: CANARY });
    redirector = await startRawServer((request, response) => {
      seenByRedirector.push(request);
      response.writeHead(status, { location: `${target.server.url}${request.url}` });
      response.end();
    });
  });
  afterAll(async () => {
    await Promise.all([target.close(), redirector.close()]);
  });

  it.each([301, 302, 303, 307, 308])('a %i to another origin: exit 8, and that origin never sees a request or the key', async (code) => {
    status = code;
    seenByRedirector = [];
    const result = await runInProcess({ argv: ['reports', 'list', '--verbose'], env: { ...env, RSAPI_BASE_URL: redirector.url, RSAPI_API_KEY: CANARY } });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/redirect/);
    expect(result.stderr).toMatch(/^hint: check the base URL/m);
    expect(seenByRedirector).toHaveLength(1);
    expect(target.server.requests).toHaveLength(0);
    expect(result.stdout + result.stderr).not.toContain(CANARY);
  });
});

describe('the plain-http warning', () => {
  let mock: MockFixture;
  let proxy: RawServer;
  const tunnels: string[] = [];
  beforeAll(async () => {
    mock = await startMock();
    // A loopback proxy that tunnels every CONNECT to the mock: the ".invalid" host is never resolved or reached.
    proxy = await startRawServer((_request, response) => {
      response.writeHead(502);
      response.end();
    });
    proxy.server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(Number(new URL(mock.server.url).port), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  afterAll(async () => {
    await Promise.all([mock.close(), proxy.close()]);
  });

  const WARNING = /^rsapi: warning: rsapi-test\.invalid is reached over plain http; the API key travels unencrypted$/m;

  it('appears on stderr, once, for http:// to a non-loopback host', async () => {
    const result = await runInProcess({ argv: ['reports', 'list', '-q', '--retries', '0'], env: { ...env, RSAPI_BASE_URL: 'http://rsapi-test.invalid', RSAPI_API_KEY: mock.server.apiKey, HTTP_PROXY: proxy.url } });
    expect(result.stderr).toMatch(WARNING);
    expect(result.stderr.match(/warning/g)).toHaveLength(1);
  });

  it('such a host is reached through HTTP_PROXY (a loopback tunnel here), never resolved by rsapi', async () => {
    tunnels.length = 0;
    const result = await runInProcess({ argv: ['reports', 'list', '-q', '--retries', '0'], env: { ...env, RSAPI_BASE_URL: 'http://rsapi-test.invalid', RSAPI_API_KEY: mock.server.apiKey, HTTP_PROXY: proxy.url } });
    expect(result.stderr).toMatch(WARNING);
    expect(tunnels).toEqual(['rsapi-test.invalid:80']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(10);
  });

  it('appears when auth login stores such an address unchecked', async () => {
    const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--no-verify', '--base-url', 'http://rsapi-test.invalid'], env,
      stdin: 'some-key-123456789\n' });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(WARNING);
  });

  it('does not appear for loopback http, nor for https', async () => {
    const loopback = await runInProcess({ argv: ['reports', 'list', '-q'], env: { ...env, ...mock.env } });
    expect(loopback.code).toBe(0);
    expect(loopback.stderr).toBe('');
    for (const baseUrl of ['http://localhost:1', 'http://[::1]:1', 'http://127.0.0.2:1', 'https://rsapi-test.invalid']) {
      const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--no-verify', '--base-url', baseUrl], env, stdin: 'some-key-123456789\n' });
      expect(result.code).toBe(0);
      expect(result.stderr).not.toMatch(/warning/);
    }
  });
});

describe('destructive commands without a terminal', () => {
  let mock: MockFixture;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  it.each([
    ['reports delete', ['reports', 'delete', '5']],
    ['reports delete, several', ['reports', 'delete', '6', '7']],
    ['reports delete from stdin', ['reports', 'delete', '-']],
    ['projects delete', ['projects', 'delete', 'example.com']],
  ])('%s without --yes: exit 2 and nothing deleted', async (_name, args) => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv: args, env: { ...env, ...mock.env }, stdin: '8\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refusing to delete/);
    expect(result.stderr).toMatch(/--yes/);
    expect(mock.server.requests.slice(before).filter((request) => request.method === 'DELETE')).toHaveLength(0);
    const ids = mock.server.reports().map((report) => report.id);
    for (const id of [5, 6, 7, 8]) expect(ids).toContain(id);
    expect(mock.server.projects().map((project) => project.project)).toContain('example.com');
  });

  it('with --yes the same command deletes', async () => {
    const result = await runInProcess({ argv: ['reports', 'delete', '5', '--yes'], env: { ...env, ...mock.env } });
    expect(result.code).toBe(0);
    expect(mock.server.reports().map((report) => report.id)).not.toContain(5);
  });
});
