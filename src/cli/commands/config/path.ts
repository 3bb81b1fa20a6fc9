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
  handle(invocation, command, (ctx) => configPathRun(ctx));
}

/** Prints the path of the settings file. */
export async function configPathRun(ctx: CommandContext) {
  ctx.io.stdout.write(`${configPath(ctx.io.env)}\n`);
}
