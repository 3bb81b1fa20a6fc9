// auth login (--with-token, checked before saving), auth status (sources, masked key, verdict, exit codes), auth logout.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../helpers/mock.js';
import { refusedPort } from '../../../helpers/raw-server.js';
import { tempHomePerTest } from '../../../helpers/settings.js';

const KEY = 'auth-test-key-5a1b2c3d4e5f6071';

let mock: MockFixture;
/** A loopback port with nothing listening on it. */
let closedUrl: string;
const home = tempHomePerTest('rsapi-home-', 'settings');
let env: Record<string, string | undefined>;

beforeAll(async () => {
  mock = await startMock({ apiKey: KEY });
  closedUrl = `http://127.0.0.1:${await refusedPort()}`;
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  env = { HOME: home.path, RSAPI_CONFIG_DIR: home.settings.dir };
});

function requestsSince(count: number) {
  return mock.server.requests.slice(count);
}

describe('auth login --with-token', () => {
  it('checks the key with one read, then stores base URL and key (file 0600) and says so', async () => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', mock.server.url], env, stdin: `${KEY}\n` });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Logged in to ${new URL(mock.server.url).host} as profile "default" (key ****6071)\n`);
    expect(result.stdout).toBe('');
    const seen = requestsSince(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/api/v1/reports', query: { per_page: '10' }, status: 200 });
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(home.settings.read()).toEqual({ profiles: { default: { 'base-url': mock.server.baseUrl, 'api-key': KEY, 'key-origin': mock.server.url } } });
    expect(statSync(home.settings.path).mode & 0o777).toBe(0o600);
  });

  it('takes the base URL from RSAPI_BASE_URL, trims the line end, and stores in --profile', async () => {
    const result = await runInProcess({
      argv: ['auth', 'login', '--with-token', '--profile', 'staging'],
      env: { ...env, RSAPI_BASE_URL: `${mock.server.url}/api/v1/` },
      stdin: `  ${KEY}\r\nsecond line ignored\n`,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/as profile "staging"/);
    expect(home.settings.read().profiles).toEqual({ staging: { 'base-url': mock.server.baseUrl, 'api-key': KEY, 'key-origin': mock.server.url } });
  });

  it('a rejected key saves nothing (exit 3) and leaves an earlier login in place', async () => {
    home.settings.store({ default: { 'base-url': mock.server.baseUrl, 'api-key': KEY, timeout: 5 } });
    const before = readFileSync(home.settings.path, 'utf8');
    const wrong = 'wrong-key-000000000000';
    const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', mock.server.url], env, stdin: `${wrong}\n` });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^rsapi: authentication refused.*HTTP 401/);
    expect(result.stderr).toMatch(/nothing was saved/);
    expect(result.stderr).not.toContain(wrong);
    expect(readFileSync(home.settings.path, 'utf8')).toBe(before);
  });

  it('a rejected key on a fresh setup creates no file at all', async () => {
    const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', mock.server.url], env, stdin: 'wrong-key-111111111111\n' });
    expect(result.code).toBe(3);
    expect(home.settings.exists()).toBe(false);
  });

  it('an unreachable service saves nothing (exit 7) and suggests --no-verify', async () => {
    const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', closedUrl], env, stdin: `${KEY}\n` });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/could not connect/);
    expect(result.stderr).toMatch(/nothing was saved.*--no-verify/);
    expect(home.settings.exists()).toBe(false);
  });

  it('--no-verify stores without sending anything', async () => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--no-verify', '--base-url', closedUrl], env, stdin: `${KEY}\n` });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/not checked/);
    expect(mock.server.requests.length).toBe(before);
    expect(home.settings.read().profiles.default).toEqual({ 'base-url': `${closedUrl}/api/v1`, 'api-key': KEY, 'key-origin': closedUrl });
  });

  it("keeps the profile's other settings", async () => {
    home.settings.store({ default: { output: 'json', retries: 1 } });
    const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', mock.server.url], env, stdin: `${KEY}\n` });
    expect(result.code).toBe(0);
    expect(home.settings.read().profiles.default).toEqual({
      output: 'json',
      retries: 1,
      'base-url': mock.server.baseUrl,
      'api-key': KEY,
      'key-origin': mock.server.url,
    });
  });

  // The refusals of the plan (--api-key, no terminal, no or a bad base URL) are asserted on it: login.test.ts.
  it.each([
    ['an empty standard input', ['auth', 'login', '--with-token', '--base-url', 'https://rank.example.com'], '', /no API key on standard input/],
    ['a blank key', ['auth', 'login', '--with-token', '--base-url', 'https://rank.example.com'], '   \n', /empty/],
  ])('exit 2 before any request with %s', async (_name, args, input, message) => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv: args, env, stdin: input });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(home.settings.exists()).toBe(false);
    expect(mock.server.requests.length).toBe(before);
  });

  it('says when RSAPI_API_KEY will still take precedence over the stored key', async () => {
    const result = await runInProcess({
      argv: ['auth', 'login', '--with-token', '--base-url', mock.server.url],
      env: { ...env, RSAPI_API_KEY: 'env-key-zzzzzzzzzzzz' },
      stdin: `${KEY}\n`,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/RSAPI_API_KEY is set and takes precedence/);
    expect(home.settings.read().profiles.default?.['api-key']).toBe(KEY);
  });
});

describe('auth status', () => {
  it('reports profile, base URL and key with their sources, and that the service accepts the key', async () => {
    home.settings.store({ default: { 'base-url': mock.server.baseUrl, 'api-key': KEY } });
    const result = await runInProcess({ argv: ['auth', 'status'], env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [`profile: default`, `base URL: ${mock.server.baseUrl} (from profile)`, `key: ****6071 (from profile)`, `service: accepts the key`, ''].join('\n'),
    );
  });

  it('names env and flag as sources', async () => {
    const fromEnv = await runInProcess({ argv: ['auth', 'status'], env: { ...env, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: KEY } });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).toMatch(/^base URL: .* \(from env\)$/m);
    expect(fromEnv.stdout).toMatch(/^key: \*\*\*\*6071 \(from env\)$/m);
    const fromFlag = await runInProcess({ argv: ['auth', 'status', '--base-url', mock.server.url, '--api-key', KEY], env });
    expect(fromFlag.stdout).toMatch(/^base URL: .* \(from flag\)$/m);
    expect(fromFlag.stdout).toMatch(/^key: \*\*\*\*6071 \(from flag\)$/m);
  });

  it('a refused key: exit 3, "refused the key (HTTP 401)", only the last 4 characters shown', async () => {
    const wrong = 'refused-key-abcdefgh-WXYZ';
    const result = await runInProcess({ argv: ['auth', 'status'], env: { ...env, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: wrong } });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^service: refused the key \(HTTP 401\)$/m);
    expect(result.stdout).toMatch(/^key: \*\*\*\*WXYZ \(from env\)$/m);
    expect(result.stderr).toMatch(/^rsapi: authentication refused/);
    expect(result.stdout + result.stderr).not.toContain(wrong.slice(0, -4));
  });

  it('no key anywhere: exit 3 with a hint, and nothing is sent', async () => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv: ['auth', 'status'], env: { ...env, RSAPI_BASE_URL: mock.server.url } });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^key: none$/m);
    expect(result.stdout).toMatch(/^service: not checked$/m);
    expect(result.stderr).toMatch(/no API key configured for profile "default"/);
    expect(result.stderr).toMatch(/^hint: run `rsapi auth login`/m);
    expect(mock.server.requests.length).toBe(before);
  });

  it('an unreachable service: exit 7', async () => {
    const result = await runInProcess({ argv: ['auth', 'status', '--retries', '0'], env: { ...env, RSAPI_BASE_URL: closedUrl, RSAPI_API_KEY: KEY } });
    expect(result.code).toBe(7);
    expect(result.stdout).toMatch(/^service: unreachable/m);
  });

  it('--json prints one object', async () => {
    const result = await runInProcess({
      argv: ['auth', 'status', '--json', '--profile', 'ci'],
      env: { ...env, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: KEY },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      profile: 'ci',
      profile_source: 'flag',
      base_url: mock.server.baseUrl,
      base_url_source: 'env',
      key: '****6071',
      key_source: 'env',
      accepted: true,
      status: null,
      error: null,
      account: null,
    });
    const refused = await runInProcess({
      argv: ['auth', 'status', '--json'],
      env: { ...env, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: 'nope-nope-nope-nope' },
    });
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stdout)).toMatchObject({ accepted: false, status: 401 });
  });
});

describe('auth logout', () => {
  it('forgets the key, keeps the base URL and the other settings', async () => {
    home.settings.store({ default: { 'base-url': mock.server.baseUrl, 'api-key': KEY, output: 'csv' }, other: { 'api-key': KEY } });
    const result = await runInProcess({ argv: ['auth', 'logout'], env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/forgot the key of profile "default"/);
    expect(home.settings.read().profiles).toEqual({ default: { 'base-url': mock.server.baseUrl, output: 'csv' }, other: { 'api-key': KEY } });
    const status = await runInProcess({ argv: ['auth', 'status'], env });
    expect(status.code).toBe(3);
  });

  it('with no key stored: exit 0, and says there was nothing to forget', async () => {
    home.settings.store({ staging: { 'base-url': mock.server.baseUrl } });
    const result = await runInProcess({ argv: ['auth', 'logout', '--profile', 'staging'], env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/no key stored for profile "staging"/);
    expect(home.settings.read().profiles).toEqual({ staging: { 'base-url': mock.server.baseUrl } });
  });

  it('of a profile that is not stored: exit 2, nothing written (a typo, not "nothing to forget")', async () => {
    const result = await runInProcess({ argv: ['auth', 'logout', '--profile', 'staging'], env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no profile "staging"; no profile is stored yet/);
    expect(home.settings.exists()).toBe(false);
  });

  it('login, status, logout round trip', async () => {
    expect((await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', mock.server.url], env, stdin: KEY })).code).toBe(0);
    expect((await runInProcess({ argv: ['reports', 'list', '-q'], env })).stdout.trim().split('\n')).toHaveLength(10);
    expect((await runInProcess({ argv: ['auth', 'status'], env })).code).toBe(0);
    expect((await runInProcess({ argv: ['auth', 'logout'], env })).code).toBe(0);
    const after = await runInProcess({ argv: ['reports', 'list'], env });
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/no API key configured/);
  });
});

describe('a base URL given as host:port', () => {
  it('--base-url takes the forms the login prompt takes: 127.0.0.1:PORT is http:// with /api/v1 added, for auth login and any command', async () => {
    const { port } = new URL(mock.server.url);
    const login = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', `127.0.0.1:${port}`], env, stdin: `${KEY}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(home.settings.read().profiles.default?.['base-url']).toBe(mock.server.baseUrl);
    const list = await runInProcess({ argv: ['reports', 'list', '-q', '--base-url', `localhost:${port}`, '--api-key', KEY], env });
    expect(list.code, list.stderr).toBe(0);
    const fromEnv = await runInProcess({ argv: ['reports', 'list', '-q'], env: { ...env, RSAPI_BASE_URL: `127.0.0.1:${port}`, RSAPI_API_KEY: KEY } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
  });
});
