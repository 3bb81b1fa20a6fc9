// `rsapi config get KEY`: one stored value of the profile (the key masked); nothing, exit 0, when it is not set.
import { Argument } from '@commander-js/extra-typings';
import { displaySetting, SETTING_KEYS, type SettingKey } from '../../../config/keys.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../runtime/handler.js';

export function registerGet(config: ParentCommand, invocation: Invocation): void {
  const command = config
    .command('get')
    .description('Print one stored setting of the profile (prints nothing when it is not set)')
    .addArgument(new Argument('<key>', 'setting name').choices(SETTING_KEYS));
  command.addHelpText(
    'after',
    `
Only the settings file is read: RSAPI_* variables and flags do not show here (see \`rsapi auth status\`).

Examples:
  $ rsapi config get base-url
  $ rsapi config get output --profile staging
  $ [ -n "$(rsapi config get timeout)" ] || rsapi config set timeout 60`,
  );
  handle(invocation, command, { plan: (ctx, _opts, [key]) => planConfigGet(ctx, { key }), run: runConfigGet });
}

export type ConfigGetOptions = { key: SettingKey };

/** What `config get` prints: one setting of the profile. */
export interface ConfigGetPlan {
  key: SettingKey;
}

/** `config get` checks nothing beyond its argument's choices (commander's). */
export function planConfigGet(_ctx: CommandContext, opts: ConfigGetOptions): ConfigGetPlan {
  return { key: opts.key };
}

/** Prints the stored value of one setting (the key masked), nothing when it is not set. */
export async function runConfigGet(ctx: CommandContext, plan: ConfigGetPlan) {
  const value = displaySetting(plan.key, ctx.settings().stored[plan.key]);
  if (value !== undefined) ctx.io.stdout.write(`${value}\n`);
}
