// `auth login`'s plan (planAuthLogin): argv -> the profile, where the base URL and the key come from, whether the key is
// checked; and the refusals, before a key is asked for, read or sent.
import { describe, expect, it } from 'vitest';
import { planAuthLogin } from '../../../../src/cli/commands/auth/login.js';
import type { InProcessOptions } from '../../../helpers/run.js';
import { planOf } from '../../../helpers/plan.js';

const plan = (argv: string[], env: Record<string, string | undefined> = {}, tty?: InProcessOptions['tty']) =>
  planOf(['auth', 'login', ...argv], planAuthLogin, env, tty);

describe('auth login: argv -> plan', () => {
  it('--with-token: the key from stdin, the base URL given (normalised) or known, in the profile named', async () => {
    expect(await plan(['--with-token', '--base-url', 'https://rank.example.com', '--profile', 'staging'])).toEqual({
      profile: 'staging',
      baseUrl: { url: 'https://rank.example.com/api/v1' },
      interactive: false,
      verify: true,
    });
    const fromEnv = await plan(['--with-token', '--no-verify'], { RSAPI_BASE_URL: '127.0.0.1:19501' });
    expect(fromEnv).toEqual({ profile: 'default', baseUrl: { url: 'http://127.0.0.1:19501/api/v1' }, interactive: false, verify: false });
  });

  it('on a terminal without --base-url: asked for at the prompt, the known one offered; with it, not asked', async () => {
    const asked = await plan([], { RSAPI_BASE_URL: 'https://known.example.com/api/v1' }, true);
    expect(asked).toEqual({ profile: 'default', baseUrl: { offered: 'https://known.example.com/api/v1' }, interactive: true, verify: true });
    expect((await plan([], {}, true)).baseUrl).toEqual({ offered: undefined });
    expect((await plan(['--base-url', 'rank.example.com'], {}, true)).baseUrl).toEqual({ url: 'https://rank.example.com/api/v1' });
  });

  it.each([
    [
      'the key as --api-key',
      ['--with-token', '--api-key', 'plan-login-key-0123', '--base-url', 'https://rank.example.com'],
      undefined,
      /^auth login does not take the key from --api-key$/,
    ],
    ['no terminal and no --with-token', ['--base-url', 'https://rank.example.com'], undefined, /^no terminal to ask for the key on$/],
    [
      '--with-token from a terminal with no screen for a prompt',
      ['--with-token'],
      { stdin: true },
      /^standard input is a terminal: the API key would show as it is typed$/,
    ],
    ['no base URL anywhere', ['--with-token'], undefined, /^no base URL to log in to$/],
    ['a bad base URL', ['--with-token', '--base-url', 'ftp://rank.example.com'], undefined, /only http and https/],
  ] as const)('refused by the plan, before the key is asked for or read: %s', async (_name, argv, tty, message) => {
    await expect(plan([...argv], {}, tty)).rejects.toThrow(message);
  });
});
