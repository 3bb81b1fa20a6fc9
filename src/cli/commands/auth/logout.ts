import { configPath } from '../../../config/paths.js';
import { unknownProfileError } from '../../../config/resolve.js';
import { updateProfile } from '../../../config/write.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../runtime/handler.js';

export function registerLogout(auth: ParentCommand, invocation: Invocation): void {
  const command = auth.command('logout').description("Forget the profile's stored API key (its base URL and defaults stay)");
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi auth logout
  $ rsapi auth logout --profile staging`,
  );
  handle(invocation, command, (ctx) => authLogoutRun(ctx));
}

/** Every check of `auth logout` that needs no network: before the settings file is changed. */
export function validateAuthLogout(ctx: CommandContext): void {
  // `--profile defualt` would forget nothing and leave the real key stored: a typo, refused with the near miss.
  const unknown = unknownProfileError(ctx.settings());
  if (unknown) throw unknown;
}

/** Forgets the profile's stored key; its base URL and defaults stay. */
export async function authLogoutRun(ctx: CommandContext) {
  validateAuthLogout(ctx);
  const { profile, apiKeySource, stored } = ctx.settings();
  const env = ctx.io.env;
  if (stored['api-key'] === undefined) {
    ctx.note(`no key stored for profile "${profile}"; nothing to forget`);
  } else {
    await updateProfile(profile, (stored) => ({ ...stored, 'api-key': undefined, 'key-origin': undefined }), env, ctx.locks);
    ctx.note(`Logged out: forgot the key of profile "${profile}" (${configPath(env)})`);
  }
  if (apiKeySource === 'env' || apiKeySource === 'flag') {
    ctx.note(`note: a key still comes from ${apiKeySource === 'env' ? 'RSAPI_API_KEY' : '--api-key'} in this shell`);
  }
}
