// `config set`'s plan (planConfigSet): argv -> the value checked and normalised, the profile written to (created or
// not); a bad value and a --profile one edit from a stored one refused before the settings file is changed.
import { describe, expect, it } from 'vitest';
import { planConfigSet } from '../../../../src/cli/commands/config/set.js';
import { planOf } from '../../../helpers/plan.js';
import { tempHomePerTest } from '../../../helpers/settings.js';

const home = tempHomePerTest('rsapi-config-set-', 'config');

const plan = (argv: string[], env: Record<string, string | undefined> = {}) =>
  planOf(['config', 'set', ...argv], (ctx, _opts, [key, value]: [never, string]) => planConfigSet(ctx, { key, value }), {
    RSAPI_CONFIG_DIR: home.settings.dir,
    ...env,
  });

describe('config set: argv -> plan', () => {
  it('the value as stored (a number, a boolean, a base URL normalised), in the default profile or one created', async () => {
    expect(await plan(['timeout', '60'])).toEqual({ key: 'timeout', value: 60, profile: 'default', creates: false });
    expect((await plan(['record', '1'])).value).toBe(true);
    expect((await plan(['base-url', 'rank.example.com'])).value).toBe('https://rank.example.com/api/v1');
    home.settings.store({ default: { timeout: 5 } });
    expect(await plan(['output', 'json', '--profile', 'staging'])).toEqual({ key: 'output', value: 'json', profile: 'staging', creates: true });
    expect(await plan(['output', 'json'], { RSAPI_PROFILE: 'default' })).toMatchObject({ profile: 'default', creates: false });
  });

  it('refused by the plan, before the settings file is changed', async () => {
    await expect(plan(['timeout', 'soon'])).rejects.toThrow(/^timeout must be a number of seconds above 0 and at most \d+, not "soon"$/);
    await expect(plan(['retries', '11'])).rejects.toThrow(/^retries must be a whole number from 0 to 10, not "11"$/);
    await expect(plan(['api-key', 'typed-key-0123'])).rejects.toThrow(/^the API key is stored only by `rsapi auth login`$/);
    home.settings.store({ default: { timeout: 5 } });
    await expect(plan(['timeout', '3', '--profile', 'defualt'])).rejects.toThrow(/^no profile "defualt"; stored profiles: default$/);
    // The value is checked first: a bad value under a mistyped profile is the value's refusal.
    await expect(plan(['timeout', 'soon', '--profile', 'defualt'])).rejects.toThrow(/^timeout must be/);
    expect(home.settings.read()).toEqual({ profiles: { default: { timeout: 5 } } });
  });
});
