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
  handle(invocation, command, (ctx, _opts, [key]) => configGetRun(ctx, { key }));
}

/** Prints the stored value of one setting (the key masked), nothing when it is not set. */
export async function configGetRun(ctx: CommandContext, { key }: { key: SettingKey }) {
  const value = displaySetting(key, ctx.settings().stored[key]);
  if (value !== undefined) ctx.io.stdout.write(`${value}\n`);
}
