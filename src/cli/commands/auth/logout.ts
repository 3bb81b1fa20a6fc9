// `rsapi auth logout`: forgets the profile's stored key; its base URL and defaults stay.
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
  handle(invocation, command, { plan: planAuthLogout, run: runAuthLogout });
}

/** What `auth logout` forgets: the stored key of a stored profile (or of the default one). */
export interface AuthLogoutPlan {
  profile: string;
}

/** Every check of `auth logout` that needs no network: before the settings file is changed. */
export function planAuthLogout(ctx: CommandContext): AuthLogoutPlan {
  // `--profile defualt` would forget nothing and leave the real key stored: a typo, refused with the near miss.
  const settings = ctx.settings();
  const unknown = unknownProfileError(settings);
  if (unknown) throw unknown;
  return { profile: settings.profile };
}

/** Forgets the profile's stored key; its base URL and defaults stay. */
export async function runAuthLogout(ctx: CommandContext, plan: AuthLogoutPlan) {
  const { profile } = plan;
  const { apiKeySource, stored } = ctx.settings();
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
