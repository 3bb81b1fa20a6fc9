// `rsapi config list`: the profile's stored settings as key=value lines (or one JSON object), the key masked.
import { renderDocument } from '../../../output/index.js';
import { displaySetting, SETTING_KEYS } from '../../../config/keys.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../runtime/handler.js';

export function registerList(config: ParentCommand, invocation: Invocation): void {
  const command = config.command('list').alias('ls').description('Print the stored settings of the profile, the key masked');
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi config list
  $ rsapi config list --profile staging --json`,
  );
  handle(invocation, command, { plan: planConfigList, run: runConfigList });
}

/** What `config list` prints: the profile's stored settings, the key (and a history URL's password) masked. */
export interface ConfigListPlan {
  profile: string;
  shown: Record<string, string | number | boolean>;
}

/** Every check of `config list` (the output flags), and the settings it prints, read from the settings file. */
export function planConfigList(ctx: CommandContext): ConfigListPlan {
  ctx.checkOutputFlags('tool');
  const { profile, stored } = ctx.settings();
  const shown: Record<string, string | number | boolean> = {};
  for (const key of SETTING_KEYS) {
    const value = stored[key];
    // Numbers stay numbers in JSON; only the key is changed, to its masked form.
    if (value !== undefined) shown[key] = key === 'api-key' || key === 'history' ? (displaySetting(key, value) as string) : value;
  }
  return { profile, shown };
}

/** Prints the profile's stored settings, the key masked. */
export async function runConfigList(ctx: CommandContext, plan: ConfigListPlan) {
  const { shown } = plan;
  const text = () =>
    Object.entries(shown)
      .map(([key, value]) => `${key}=${value}\n`)
      .join('');
  ctx.io.stdout.write(ctx.secrets.redact(await renderDocument(ctx.format('tool'), { value: shown, text })));
}
