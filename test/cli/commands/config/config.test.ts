// Stored settings: where the file goes and with what mode, config get/set/unset/list/path, profiles, stored defaults in use.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { runInProcess } from '../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../helpers/mock.js';
import { tempHomePerTest } from '../../../helpers/settings.js';

const home = tempHomePerTest('rsapi-home-', 'settings');
let env: Record<string, string | undefined>;

beforeEach(() => {
  env = { HOME: home.path, XDG_CONFIG_HOME: undefined, RSAPI_CONFIG_DIR: home.settings.dir };
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the settings file', () => {
  it('is created with mode 0600 in RSAPI_CONFIG_DIR (directory 0700), and nothing lands in HOME', async () => {
    const result = await runInProcess({ argv: ['config', 'set', 'timeout', '45'], env });
    expect(result.code).toBe(0);
    const file = home.settings.path;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home.settings.dir).mode & 0o777).toBe(0o700);
    expect(filesUnder(home.path)).toEqual([file]);
    expect(home.settings.read()).toEqual({ profiles: { default: { timeout: 45 } } });
  });

  it('without RSAPI_CONFIG_DIR it follows HOME (here a temp dir), under .config/rsapi', async () => {
    const noDir = { ...env, RSAPI_CONFIG_DIR: undefined };
    const path = await runInProcess({ argv: ['config', 'path'], env: noDir });
    expect(path.stdout.trim()).toBe(join(home.path, '.config', 'rsapi', 'config.json'));
    expect((await runInProcess({ argv: ['config', 'set', 'output', 'csv'], env: noDir })).code).toBe(0);
    expect(statSync(path.stdout.trim()).mode & 0o777).toBe(0o600);
  });

  it('a file with a loose mode is tightened to 0600 when rsapi writes it', async () => {
    home.settings.write('{"profiles":{"default":{"retries":1}}}', 0o644);
    expect((await runInProcess({ argv: ['config', 'set', 'retries', '3'], env })).code).toBe(0);
    expect(statSync(home.settings.path).mode & 0o777).toBe(0o600);
    expect(home.settings.read().profiles.default).toEqual({ retries: 3 });
  });

  it('config path prints the file path even before it exists', async () => {
    const result = await runInProcess({ argv: ['config', 'path'], env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${home.settings.path}\n`);
    expect(existsSync(home.settings.dir)).toBe(false);
  });

  it('a file that is not JSON is a usage error naming it', async () => {
    home.settings.write('{not json');
    for (const args of [
      ['config', 'list'],
      ['config', 'set', 'timeout', '5'],
    ]) {
      const result = await runInProcess({ argv: args, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(home.settings.path);
    }
    expect(readFileSync(home.settings.path, 'utf8')).toBe('{not json');
  });
});

describe('config set / get / unset / list', () => {
  it('stores each setting checked and normalised, and get prints it back', async () => {
    const sets: [string, string, unknown][] = [
      ['base-url', 'https://rank.example.com/', 'https://rank.example.com/api/v1'],
      ['timeout', '2.5', 2.5],
      ['retries', '0', 0],
      ['output', 'ndjson', 'ndjson'],
    ];
    for (const [key, value] of sets) expect((await runInProcess({ argv: ['config', 'set', key, value], env })).code).toBe(0);
    expect(home.settings.read().profiles.default).toEqual(Object.fromEntries(sets.map(([key, , value]) => [key, value])));
    for (const [key, , value] of sets) {
      const result = await runInProcess({ argv: ['config', 'get', key], env });
      expect(result).toMatchObject({ code: 0, stdout: `${String(value)}\n` });
    }
  });

  it.each([
    ['timeout', '0'],
    ['timeout', 'soon'],
    ['retries', '11'],
    ['retries', '1.5'],
    ['output', 'xml'],
    ['base-url', 'ftp://rank.example.com'],
    ['base-url', 'not a url'],
  ])('refuses %s=%s with exit 2 and writes nothing', async (key, value) => {
    const result = await runInProcess({ argv: ['config', 'set', key, value], env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^rsapi: /);
    expect(home.settings.exists()).toBe(false);
  });

  it('an unknown key is exit 2 naming the valid keys', async () => {
    for (const verb of ['get', 'set', 'unset']) {
      const result = await runInProcess({ argv: ['config', verb, 'colour', ...(verb === 'set' ? ['on'] : [])], env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/base-url, api-key, timeout, retries, output/);
    }
  });

  it('config set api-key is refused with a hint to log in, and the value is not echoed or stored', async () => {
    const key = 'typed-on-the-command-line-9f8e7d';
    const result = await runInProcess({ argv: ['config', 'set', 'api-key', key], env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/auth login/);
    expect(result.stdout + result.stderr).not.toContain(key);
    expect(home.settings.exists()).toBe(false);
  });

  it('get of a setting that is not stored prints nothing and exits 0', async () => {
    const result = await runInProcess({ argv: ['config', 'get', 'timeout'], env });
    expect(result).toMatchObject({ code: 0, stdout: '' });
  });

  it('list prints key=value lines with the key masked; --json one object', async () => {
    const profile = { 'base-url': 'https://rank.example.com/api/v1', 'api-key': 'stored-key-abcdef-7788', retries: 4 };
    home.settings.write(JSON.stringify({ profiles: { default: profile } }));
    const list = await runInProcess({ argv: ['config', 'list'], env });
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('base-url=https://rank.example.com/api/v1\napi-key=****7788\nretries=4\n');
    const json = await runInProcess({ argv: ['config', 'list', '--json'], env });
    expect(JSON.parse(json.stdout)).toEqual({ 'base-url': 'https://rank.example.com/api/v1', 'api-key': '****7788', retries: 4 });
    const get = await runInProcess({ argv: ['config', 'get', 'api-key'], env });
    expect(get.stdout).toBe('****7788\n');
    for (const result of [list, json, get]) expect(result.stdout + result.stderr).not.toContain('stored-key-abcdef');
  });

  it('unset removes one setting and keeps the others', async () => {
    await runInProcess({ argv: ['config', 'set', 'timeout', '9'], env });
    await runInProcess({ argv: ['config', 'set', 'output', 'json'], env });
    const result = await runInProcess({ argv: ['config', 'unset', 'timeout'], env });
    expect(result.code).toBe(0);
    expect(home.settings.read().profiles.default).toEqual({ output: 'json' });
    const again = await runInProcess({ argv: ['config', 'unset', 'timeout'], env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/not set/);
  });
});

describe('profiles', () => {
  it('--profile and RSAPI_PROFILE pick the profile each verb works on; default is "default"', async () => {
    await runInProcess({ argv: ['config', 'set', 'timeout', '1'], env });
    await runInProcess({ argv: ['config', 'set', 'timeout', '2', '--profile', 'staging'], env });
    await runInProcess({ argv: ['config', 'set', 'timeout', '3'], env: { ...env, RSAPI_PROFILE: 'ci' } });
    expect(home.settings.read().profiles).toEqual({ default: { timeout: 1 }, staging: { timeout: 2 }, ci: { timeout: 3 } });
    expect((await runInProcess({ argv: ['--profile', 'staging', 'config', 'get', 'timeout'], env })).stdout).toBe('2\n');
    expect((await runInProcess({ argv: ['config', 'list'], env: { ...env, RSAPI_PROFILE: 'ci' } })).stdout).toBe('timeout=3\n');
    expect((await runInProcess({ argv: ['config', 'list', '--profile', 'staging'], env: { ...env, RSAPI_PROFILE: 'ci' } })).stdout).toBe('timeout=2\n');
  });

  it('a profile name that is not a plain word is exit 2', async () => {
    await runInProcess({ argv: ['config', 'set', 'timeout', '1'], env });
    for (const name of ['../escape', '__proto__', 'a b', 'x'.repeat(65)]) {
      const viaFlag = await runInProcess({ argv: ['config', 'set', 'timeout', '2', '--profile', name], env });
      const viaEnv = await runInProcess({ argv: ['config', 'list'], env: { ...env, RSAPI_PROFILE: name } });
      for (const result of [viaFlag, viaEnv]) {
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/invalid profile name/);
      }
    }
    expect(home.settings.read().profiles).toEqual({ default: { timeout: 1 } });
  });
});

describe('stored defaults are used', () => {
  let mock: MockFixture;
  let failing: MockFixture;
  beforeAll(async () => {
    mock = await startMock();
    failing = await startMock({ failRate: 1 });
  });
  afterAll(async () => {
    await Promise.all([mock.close(), failing.close()]);
  });

  it('output: a stored format applies; a flag overrides it', async () => {
    await runInProcess({ argv: ['config', 'set', 'output', 'json'], env });
    const connection = { ...env, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: mock.server.apiKey };
    const asJson = await runInProcess({ argv: ['reports', 'list'], env: connection });
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toHaveLength(10);
    const asCsv = await runInProcess({ argv: ['reports', 'list', '-o', 'csv'], env: connection });
    expect(asCsv.stdout.split('\n')[0]).toMatch(/^id,/);
  });

  it("output: a profile's stored format leaves config list, auth status and auth status --all as they are (they follow -o only)", async () => {
    const connection = { ...env, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: mock.server.apiKey };
    const documents = [
      ['config', 'list', '--profile', 'staging'],
      ['auth', 'status', '--profile', 'staging'],
      ['auth', 'status', '--all'],
    ];
    await runInProcess({ argv: ['config', 'set', 'timeout', '9', '--profile', 'staging'], env });
    const shown = async (tty: boolean) => Promise.all(documents.map((argv) => runInProcess({ argv, env: connection, tty, columns: 100 })));
    const [before, piped] = [await shown(true), await shown(false)];
    expect(before[0]?.stdout).toBe('timeout=9\n');
    expect((await runInProcess({ argv: ['config', 'set', 'output', 'json', '--profile', 'staging'], env })).code).toBe(0);
    const [after, pipedAfter] = [await shown(true), await shown(false)];
    for (const [index, result] of after.entries()) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.replace('timeout=9\noutput=json\n', 'timeout=9\n')).toBe(before[index]?.stdout);
      expect(pipedAfter[index]?.stdout.replace('timeout=9\noutput=json\n', 'timeout=9\n')).toBe(piped[index]?.stdout);
    }
    expect(after[1]?.stdout).toMatch(/^profile: staging/);
    // -o still decides, and the stored format still applies to records.
    expect(JSON.parse((await runInProcess({ argv: ['config', 'list', '--profile', 'staging', '-o', 'json'], env })).stdout)).toEqual({
      timeout: 9,
      output: 'json',
    });
    expect(JSON.parse((await runInProcess({ argv: ['reports', 'list', '--profile', 'staging'], env: connection })).stdout)).toHaveLength(10);
  });

  it('retries: a stored 0 means one attempt; --retries overrides it', async () => {
    await runInProcess({ argv: ['config', 'set', 'retries', '0'], env });
    const connection = { ...env, RSAPI_BASE_URL: failing.server.url, RSAPI_API_KEY: failing.server.apiKey };
    const before = failing.server.requests.length;
    expect((await runInProcess({ argv: ['reports', 'list'], env: connection })).code).toBe(8);
    expect(failing.server.requests.length - before).toBe(1);
    const again = failing.server.requests.length;
    // The backoff between the three attempts passes on a fake clock.
    expect((await runInProcess({ argv: ['reports', 'list', '--retries', '2'], env: connection, clock: new FakeClock() })).code).toBe(8);
    expect(failing.server.requests.length - again).toBe(3);
  });

  it('timeout: a stored timeout bounds each request', async () => {
    const slow = await startMock({ latencyMs: 3000 });
    try {
      await runInProcess({ argv: ['config', 'set', 'timeout', '0.3'], env });
      const started = Date.now();
      const result = await runInProcess({
        argv: ['reports', 'list', '--retries', '0'],
        env: { ...env, RSAPI_BASE_URL: slow.server.url, RSAPI_API_KEY: slow.server.apiKey },
      });
      expect(result.code).toBe(7);
      expect(result.stderr).toMatch(/timed out/);
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      await slow.close();
    }
  });
});
