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
  handle(invocation, command, (ctx, _opts, [key, value]) => configSetRun(ctx, { key, value }));
}

/** Every check of `config set`: the value, and a --profile one edit away from a stored one, before the settings file is changed. */
export function validateConfigSet(ctx: CommandContext, opts: { key: SettingKey; value: string }): void {
  // A key typed here is refused, but it is still a key: keep it out of every message.
  if (opts.key === 'api-key') ctx.secrets.register(opts.value);
  if (opts.key === 'history') for (const password of urlPasswords(opts.value)) ctx.secrets.register(password);
  parseSettingValue(opts.key, opts.value);
  if (profileToWrite(ctx.settings()) === 'typo') throw unknownProfileError(ctx.settings());
}

/** Checks the value, then stores it in the profile. */
export async function configSetRun(ctx: CommandContext, opts: { key: SettingKey; value: string }) {
  validateConfigSet(ctx, opts);
  const { key } = opts;
  const value = parseSettingValue(key, opts.value);
  const settings = ctx.settings();
  const { profile, stored } = settings;
  if (profileToWrite(settings) === 'new') ctx.note(`creating profile "${profile}"`);
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
  // One edit away (a swap, a dropped or doubled letter): `defualt`, not `fifth` beside `sixth`.
  const name = settings.profile.toLowerCase();
  return settings.storedProfiles.some((stored) => editDistance(name, stored.toLowerCase()) <= 1) ? 'typo' : 'new';
}
