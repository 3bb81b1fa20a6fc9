// Prompts under a real pseudo-terminal (script(1)): auth login asks for base URL and key, the key and passwords never echo.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { tempHomePerTest } from '../helpers/settings.js';
import { runOnTerminal, type Answer, type TerminalResult } from '../helpers/terminal.js';

const KEY = 'pty-login-key-Vb6Nm2Kd9Rt4';

let mock: MockFixture;
const home = tempHomePerTest('rsapi-pty-', 'config');
let env: Record<string, string | undefined>;

beforeAll(async () => {
  mock = await startMock({ apiKey: KEY });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  env = { HOME: home.path, RSAPI_CONFIG_DIR: home.settings.dir, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' };
});

/** Runs rsapi on a pseudo-terminal with this test's `env`, typing each answer once its prompt shows. */
function onTerminal(args: string[], answers: Answer[]): Promise<TerminalResult> {
  return runOnTerminal(args, { env, answers, keepInputOpen: true });
}

describe('auth login on a terminal', () => {
  it('prompts for the base URL and the key, masks the key, checks it and stores both', async () => {
    const before = mock.server.requests.length;
    const { code, screen } = await onTerminal(
      ['auth', 'login'],
      [
        [/Base URL of the service/, `${mock.server.url}\r`],
        // ctrl+t would reveal the input in some prompt libraries: it must not here.
        [/API key/, `${KEY}\u0014\r`],
      ],
    );
    expect(code).toBe(0);
    expect(screen).toContain('*'.repeat(KEY.length));
    expect(screen).not.toMatch(/toggle visibility/);
    expect(screen).not.toContain(KEY);
    expect(screen).toMatch(/Logged in to 127\.0\.0\.1:\d+ as profile "default" \(key \*\*\*\*9Rt4\)/);
    expect(home.settings.read().profiles).toEqual({ default: { 'base-url': mock.server.baseUrl, 'api-key': KEY, 'key-origin': mock.server.url } });
    expect(mock.server.requests.slice(before).map((request) => request.headers.authorization)).toEqual([`Bearer ${KEY}`]);
  });

  it('offers the stored base URL: Enter keeps it', async () => {
    home.settings.write(JSON.stringify({ profiles: { work: { 'base-url': mock.server.baseUrl, output: 'json' } } }));
    const { code, screen } = await onTerminal(
      ['auth', 'login', '--profile', 'work'],
      [
        [/Base URL of the service.*127\.0\.0\.1/, '\r'],
        [/API key/, `${KEY}\r`],
      ],
    );
    expect(code).toBe(0);
    expect(screen).not.toContain(KEY);
    expect(home.settings.read().profiles).toEqual({ work: { 'base-url': mock.server.baseUrl, output: 'json', 'api-key': KEY, 'key-origin': mock.server.url } });
  });

  it('asks again after an invalid base URL', async () => {
    const { code, screen } = await onTerminal(
      ['auth', 'login'],
      [
        [/Base URL of the service/, 'ftp://nope.example\r'],
        [/only http and https are supported/, `\u0015${mock.server.url}\r`],
        [/API key/, `${KEY}\r`],
      ],
    );
    expect(code).toBe(0);
    expect(home.settings.read().profiles.default?.['base-url']).toBe(mock.server.baseUrl);
    expect(screen).not.toContain(KEY);
  });

  it('with --base-url only the key is asked for; a key rejected three times is not stored (exit 3) and not echoed', async () => {
    const wrong = 'pty-wrong-key-Zq8Wx3Lp';
    const { code, screen } = await onTerminal(
      ['auth', 'login', '--base-url', mock.server.url],
      [
        [/API key/, `${wrong}\r`],
        [/2 tries left[\s\S]*API key/, `${wrong}\r`],
        [/1 try left[\s\S]*API key/, `${wrong}\r`],
      ],
    );
    expect(code).toBe(3);
    expect(screen).not.toMatch(/Base URL of the service/);
    expect(screen).toMatch(/authentication refused/);
    expect(screen).toMatch(/nothing was saved/);
    expect(screen).not.toContain(wrong);
    expect(home.settings.exists()).toBe(false);
  });

  it('takes a hostname: 127.0.0.1:PORT is http:// (loopback), /api/v1 added, what was understood shown', async () => {
    const { port } = new URL(mock.server.url);
    const { code, screen } = await onTerminal(
      ['auth', 'login'],
      [
        [/Base URL of the service/, `127.0.0.1:${port}\r`],
        [/API key/, `${KEY}\r`],
      ],
    );
    expect(code).toBe(0);
    expect(screen).toContain(`rsapi: base URL http://127.0.0.1:${port}/api/v1`);
    expect(home.settings.read().profiles.default?.['base-url']).toBe(mock.server.baseUrl);
  });

  it('a wrong key at the prompt asks again: the right one on the second try is checked and stored', async () => {
    const wrong = 'pty-wrong-key-Hd3Kf8Qs';
    const { code, screen } = await onTerminal(
      ['auth', 'login', '--base-url', mock.server.url],
      [
        [/API key/, `${wrong}\r`],
        [/the service refused that key[\s\S]*2 tries left[\s\S]*API key/, `${KEY}\r`],
      ],
    );
    expect(code).toBe(0);
    expect(screen).not.toContain(wrong);
    expect(screen).not.toContain(KEY);
    expect(home.settings.read().profiles.default?.['api-key']).toBe(KEY);
  });

  it('a key holding a space at the prompt asks again, as a wrong key does', async () => {
    const { code, screen } = await onTerminal(
      ['auth', 'login', '--base-url', mock.server.url],
      [
        [/API key/, 'pty key with spaces\r'],
        [/the API key holds a space; it cannot be sent in an HTTP header; try again \(2 tries left\)[\s\S]*API key/, `${KEY}\r`],
      ],
    );
    expect(code).toBe(0);
    expect(screen).not.toContain(KEY);
    expect(home.settings.read().profiles.default?.['api-key']).toBe(KEY);
  });

  it('Ctrl-C at the key prompt: exit 130, nothing stored', async () => {
    const { code } = await onTerminal(['auth', 'login', '--base-url', mock.server.url], [[/API key/, 'partial\u0003']]);
    expect(code).toBe(130);
    expect(home.settings.exists()).toBe(false);
  });
});

describe('report passwords on a terminal', () => {
  it('--privacy password prompts for the password, masked, and sends it', async () => {
    const password = 'pty-pass-Hw7Jk3';
    const url = `https://example.com/pty-${Date.now()}`;
    env = { ...env, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: KEY };
    const { code, screen } = await onTerminal(['reports', 'create', url, '--privacy', 'password'], [[/Report page password/, `${password}\r`]]);
    expect(code).toBe(0);
    expect(screen).toContain('*'.repeat(password.length));
    expect(screen).not.toContain(password);
    expect(mock.server.reports().find((report) => report.url === url)?.password).toBe(password);
  });
});
