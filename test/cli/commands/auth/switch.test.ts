// `auth switch`'s plan (planAuthSwitch): argv -> the stored profile named, or one picked at a terminal's prompt; an
// unknown name, and no name with nobody to ask, refused before the settings file is changed.
import { describe, expect, it } from 'vitest';
import { planAuthSwitch } from '../../../../src/cli/commands/auth/switch.js';
import type { UsageError } from '../../../../src/errors.js';
import { planOf } from '../../../helpers/plan.js';
import { tempHomePerTest } from '../../../helpers/settings.js';

const home = tempHomePerTest('rsapi-switch-', 'config');

const plan = (argv: string[], tty?: boolean) =>
  planOf(
    ['auth', 'switch', ...argv],
    (ctx, _opts, [name]: [string | undefined]) => planAuthSwitch(ctx, { name }),
    { RSAPI_CONFIG_DIR: home.settings.dir },
    tty,
  );

/** The plan's refusal, with its hint. */
const refusal = (argv: string[]) =>
  plan(argv).then(
    () => undefined,
    (error: unknown) => ({ message: (error as UsageError).message, hint: (error as UsageError).hint }),
  );

describe('auth switch: argv -> plan', () => {
  it('a stored profile by name; without one, on a terminal, the prompt picks', async () => {
    home.settings.store({ default: { timeout: 5 }, staging: { output: 'json' } });
    expect(await plan(['staging'])).toEqual({ name: 'staging' });
    expect(await plan([], true)).toEqual({ name: undefined });
  });

  it('refused by the plan, naming the stored profiles, before the settings file is changed', async () => {
    home.settings.store({ default: { timeout: 5 }, staging: { output: 'json' }, empty: {} });
    expect(await refusal(['stagign'])).toEqual({ message: 'no profile "stagign"; stored profiles: default, staging, empty', hint: 'did you mean "staging"?' });
    expect(await refusal([])).toEqual({ message: 'give the profile to switch to', hint: 'stored profiles: default, staging, empty' });
  });

  it('nothing stored: nothing to switch to, even on a terminal', async () => {
    await expect(plan([], true)).rejects.toThrow(/^no profile is stored yet$/);
    await expect(plan(['nope'])).rejects.toThrow(/^no profile "nope"; no profile is stored yet$/);
  });
});
