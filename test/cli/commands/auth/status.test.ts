// `auth status`'s plan (planAuthStatus): argv -> every stored profile (--all) or the one in use; a --profile that is a
// typo and the output flags refused before the key is checked with the service.
import { describe, expect, it } from 'vitest';
import { planAuthStatus } from '../../../../src/cli/commands/auth/status.js';
import { planOf } from '../../../helpers/plan.js';

const plan = (argv: string[], env?: Record<string, string | undefined>) => planOf(['auth', 'status', ...argv], planAuthStatus, env);

describe('auth status: argv -> plan', () => {
  it('the profile in use, or every stored one with --all (a profile that is not stored then is no matter)', async () => {
    expect(await plan(['--profile', 'ci'])).toEqual({ all: false, profile: 'ci' });
    expect(await plan([])).toEqual({ all: false, profile: 'default' });
    expect(await plan(['--all', '--profile', 'nope'], {})).toEqual({ all: true });
  });

  it('refused by the plan, before the key is checked', async () => {
    await expect(plan(['--profile', 'nope'], { RSAPI_BASE_URL: 'http://127.0.0.1:9' })).rejects.toThrow(/^no profile "nope"; no profile is stored yet$/);
    await expect(plan(['--json', '-o', 'csv'])).rejects.toThrow(/^--json and -o csv ask for different formats$/);
    await expect(plan(['--all', '-q', '--json'])).rejects.toThrow(/cannot be combined with --json/);
  });
});
