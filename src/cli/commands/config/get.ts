// `rsapi config get KEY`: one stored value of the profile (the key masked); nothing, exit 0, when it is not set.
import { Argument, type Command } from 'commander';
import { displaySetting, SETTING_KEYS, type SettingKey } from '../../../config/keys.js';
import { handle } from '../../handler.js';

export function registerGet(config: Command): void {
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
  handle(command, async (ctx, self) => {
    const key = self.args[0] as SettingKey;
    const value = displaySetting(key, ctx.settings().stored[key]);
    if (value !== undefined) ctx.io.stdout.write(`${value}\n`);
  });
}
