// `rsapi config unset KEY`: removes one stored setting from the profile.
import { Argument } from '@commander-js/extra-typings';
import { SETTING_KEYS, type SettingKey } from '../../../config/keys.js';
import { unknownProfileError } from '../../../config/resolve.js';
import { updateProfile } from '../../../config/write.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../runtime/handler.js';

export function registerUnset(config: ParentCommand, invocation: Invocation): void {
  const command = config
    .command('unset')
    .description('Remove a stored setting from the profile (unset api-key = auth logout)')
    .addArgument(new Argument('<key>', 'setting name').choices(SETTING_KEYS));
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi config unset output
  $ rsapi config unset base-url --profile staging`,
  );
  handle(invocation, command, { plan: (ctx, _opts, [key]) => planConfigUnset(ctx, { key }), run: runConfigUnset });
}

export type ConfigUnsetOptions = { key: SettingKey };

/** What `config unset` removes: one setting of a stored profile. */
export interface ConfigUnsetPlan {
  key: SettingKey;
  profile: string;
}

/** Every check of `config unset`: a --profile that is not stored (a typo) is refused before the settings file is changed. */
export function planConfigUnset(ctx: CommandContext, opts: ConfigUnsetOptions): ConfigUnsetPlan {
  const settings = ctx.settings();
  const unknown = unknownProfileError(settings);
  if (unknown) throw unknown;
  return { key: opts.key, profile: settings.profile };
}

/** Removes one stored setting from the profile. */
export async function runConfigUnset(ctx: CommandContext, plan: ConfigUnsetPlan) {
  const { key, profile } = plan;
  if (ctx.settings().stored[key] === undefined) {
    ctx.note(`${key} is not set in profile "${profile}"`);
    return;
  }
  await updateProfile(profile, (stored) => ({ ...stored, [key]: undefined }), ctx.io.env, ctx.locks);
  ctx.note(`${key} removed from profile "${profile}"`);
}
