// `rsapi config path`: where the settings file is (RSAPI_CONFIG_DIR, else the user's config directory), whether or not it exists yet.
import { configPath } from '../../../config/paths.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../runtime/handler.js';

export function registerPath(config: ParentCommand, invocation: Invocation): void {
  const command = config.command('path').description('Print the path of the settings file (it may not exist yet)');
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi config path
  $ RSAPI_CONFIG_DIR=/tmp/ci-rsapi rsapi config path`,
  );
  handle(invocation, command, { plan: planConfigPath, run: runConfigPath });
}

/** What `config path` prints: where the settings file is (or would be). */
export interface ConfigPathPlan {
  path: string;
}

export function planConfigPath(ctx: CommandContext): ConfigPathPlan {
  return { path: configPath(ctx.io.env) };
}

/** Prints the path of the settings file. */
export async function runConfigPath(ctx: CommandContext, plan: ConfigPathPlan) {
  ctx.io.stdout.write(`${plan.path}\n`);
}
