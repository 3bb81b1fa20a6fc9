// `rsapi config set KEY VALUE`: checks the value, then stores it in the profile (never the key: see auth login).
import { Argument } from '@commander-js/extra-typings';
import { originOf } from '../../../api/http/base-url.js';
import { urlPasswords } from '../../../history/location.js';
import { parseSettingValue, SETTABLE_KEYS, SETTING_KEYS, type SettingKey } from '../../../config/keys.js';
import { unknownProfileError, type ResolvedSettings } from '../../../config/resolve.js';
import { editDistance } from '../../../suggest.js';
import { updateProfile } from '../../../config/write.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../runtime/handler.js';

export function registerSet(config: ParentCommand, invocation: Invocation): void {
  const command = config
    .command('set')
    .description(`Store a setting in the profile (${SETTABLE_KEYS.join(', ')})`)
    .addArgument(new Argument('<key>', 'setting name').choices(SETTING_KEYS))
    .argument('<value>', 'its value');
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi config set base-url https://rank.example.com
  $ rsapi config set timeout 60 --profile staging
  $ rsapi config set output json`,
  );
  handle(invocation, command, { plan: (ctx, _opts, [key, value]) => planConfigSet(ctx, { key, value }), run: runConfigSet });
}

export type ConfigSetOptions = { key: SettingKey; value: string };

/** What `config set` stores: the value as checked and normalised, and the profile, which may be created. */
export interface ConfigSetPlan {
  key: SettingKey;
  value: string | number | boolean;
  profile: string;
  /** The profile is not stored yet: `config set` creates it, and says so. */
  creates: boolean;
}

/** Every check of `config set`: the value, and a --profile one edit away from a stored one, before the settings file is changed. */
export function planConfigSet(ctx: CommandContext, opts: ConfigSetOptions): ConfigSetPlan {
  // A key typed here is refused, but it is still a key: keep it out of every message.
  if (opts.key === 'api-key') ctx.secrets.register(opts.value);
  if (opts.key === 'history') for (const password of urlPasswords(opts.value)) ctx.secrets.register(password);
  const value = parseSettingValue(opts.key, opts.value);
  const settings = ctx.settings();
  const profile = profileToWrite(settings);
  if (profile === 'typo') throw unknownProfileError(settings);
  return { key: opts.key, value, profile: settings.profile, creates: profile === 'new' };
}

/** Stores the checked value in the profile. */
export async function runConfigSet(ctx: CommandContext, plan: ConfigSetPlan) {
  const { key, value, profile } = plan;
  const { stored } = ctx.settings();
  if (plan.creates) ctx.note(`creating profile "${profile}"`);
  await updateProfile(profile, (stored) => ({ ...stored, [key]: value }), ctx.io.env, ctx.locks);
  ctx.note(`${key} = ${value} (profile "${profile}")`);
  const keyOrigin = stored['key-origin'] ?? (stored['base-url'] ? originOf(stored['base-url']) : undefined);
  if (key === 'base-url' && stored['api-key'] && keyOrigin !== originOf(String(value))) {
    ctx.note(
      `note: the stored key belongs to ${keyOrigin ?? 'another address'} and is not sent to ${originOf(String(value))}; ` +
        'run `rsapi auth login` to store one for it',
    );
  }
}

/**
 * The profile `config set` writes to: stored (or the default, created silently on the first setting), or new. A
 * profile named on purpose (--profile, RSAPI_PROFILE) that is not stored is created by `config set`, and said so;
 * one a typo (one edit) away from a stored profile (`defualt`) is refused with the near miss instead (`auth login --profile`
 * creates such a name deliberately).
 */
function profileToWrite(settings: ResolvedSettings): 'stored' | 'new' | 'typo' {
  if (settings.profileSource === 'default' || settings.storedProfiles.includes(settings.profile)) return 'stored';
  // One edit away (a swap, a dropped or doubled letter): `defualt`, not `fifth` beside `sixth`; and not `c3` beside
  // `c2`, one of a numbered set (ten `auth login`s and `config set`s of c1 to c10 at once were refused as typos).
  const name = settings.profile.toLowerCase();
  const typo = (stored: string) => editDistance(name, stored) <= 1 && !digitsApart(name, stored);
  return settings.storedProfiles.some((stored) => typo(stored.toLowerCase())) ? 'typo' : 'new';
}

/** Whether two names differ in digits alone (`c1` and `c6`, `eu` and `eu2`): names of a numbered set, never a typo. */
function digitsApart(a: string, b: string): boolean {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const [left, right] = [a.slice(start, a.length - end), b.slice(start, b.length - end)];
  return left + right !== '' && /^\d*$/.test(left) && /^\d*$/.test(right);
}
