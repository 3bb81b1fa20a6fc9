// `rsapi config`: the stored settings of a profile (those of SETTING_KEYS; the key only masked).
import { SETTABLE_KEYS, SETTING_VALUES } from '../../../config/keys.js';
import { wrapText } from '../help-topics.js';
import type { ParentCommand, Invocation } from '../../runtime/handler.js';
import { registerGet } from './get.js';
import { registerList } from './list.js';
import { registerPath } from './path.js';
import { registerSet } from './set.js';
import { registerUnset } from './unset.js';

export function registerConfig(program: ParentCommand, invocation: Invocation): void {
  const config = program.command('config').description('Read and change stored settings of a profile (--profile)');
  config.addHelpText(
    'after',
    `
${settingsText()}

Examples:
  $ rsapi config list
  $ rsapi config set output json --profile ci
  $ rsapi config unset timeout
  $ rsapi config path`,
  );
  registerGet(config, invocation);
  registerSet(config, invocation);
  registerUnset(config, invocation);
  registerList(config, invocation);
  registerPath(config, invocation);
}

/** The settings and what each takes, from the settings table: `Settings: base-url (the service address), ...`. */
export function settingsText(): string {
  const settings = SETTABLE_KEYS.map((key) => `${key} (${SETTING_VALUES[key]})`).join(', ');
  return wrapText(`Settings: ${settings}; api-key is stored only by \`rsapi auth login\` and always shown masked.`, 80);
}
