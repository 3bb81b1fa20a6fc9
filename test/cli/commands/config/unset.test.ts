// `config unset`'s plan (planConfigUnset): argv -> the setting and the stored profile it is removed from; a --profile
// that is not stored refused before the settings file is changed.
import { describe, expect, it } from 'vitest';
import { planConfigUnset } from '../../../../src/cli/commands/config/unset.js';
import { planOf } from '../../../helpers/plan.js';
import { tempHomePerTest } from '../../../helpers/settings.js';

const home = tempHomePerTest('rsapi-config-unset-', 'config');

const plan = (...argv: string[]) =>
  planOf(['config', 'unset', ...argv], (ctx, _opts, [key]: [never]) => planConfigUnset(ctx, { key }), { RSAPI_CONFIG_DIR: home.settings.dir });

describe('config unset: argv -> plan', () => {
  it('the setting, and the profile: the default one, or one stored', async () => {
    expect(await plan('output')).toEqual({ key: 'output', profile: 'default' });
    home.settings.store({ staging: { output: 'json' } });
    expect(await plan('output', '--profile', 'staging')).toEqual({ key: 'output', profile: 'staging' });
  });

  it('refused by the plan: a profile that is not stored', async () => {
    await expect(plan('output', '--profile', 'nope')).rejects.toThrow(/^no profile "nope"; no profile is stored yet$/);
    home.settings.store({ default: { timeout: 5 } });
    await expect(plan('timeout', '--profile', 'defualt')).rejects.toThrow(/^no profile "defualt"; stored profiles: default$/);
  });
});
