// `rsapi auth switch [NAME]`: makes a stored profile the active one; without NAME on a terminal, offers the stored profiles.
import { withoutCredentials } from '../../../api/http/base-url.js';
import { UsageError } from '../../runtime/errors.js';
import { maskKey } from '../../../config/keys.js';
import { unknownProfile } from '../../../config/resolve.js';
import { profileOf, readStoredConfig, storedActiveProfile, storedProfileNames } from '../../../config/store.js';
import { setActiveProfile } from '../../../config/write.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../../runtime/handler.js';
import { canPrompt, promptSelect } from '../../terminal/prompts.js';

export function registerSwitch(auth: ParentCommand, invocation: Invocation): void {
  const command = auth
    .command('switch')
    .description('Make a stored profile the active one (used when neither --profile nor RSAPI_PROFILE names one)')
    .argument('[name]', 'the profile; without it, a terminal offers the stored ones');
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi auth switch staging
  $ rsapi auth switch                 # pick from the stored profiles
  $ rsapi auth status --all           # every profile, and which one is active`,
  );
  handle(invocation, command, { plan: (ctx, _opts, [name]) => planAuthSwitch(ctx, { name }), run: runAuthSwitch });
}

export type AuthSwitchOptions = { name?: string };

/** What `auth switch` makes active: the stored profile named, or (undefined) the one picked at the terminal's prompt. */
export interface AuthSwitchPlan {
  name: string | undefined;
}

/** Every check of `auth switch` that needs no network: before a profile is offered or the settings file changed. */
export function planAuthSwitch(ctx: CommandContext, opts: AuthSwitchOptions): AuthSwitchPlan {
  const names = storedProfileNames(readStoredConfig(ctx.io.env));
  if (opts.name !== undefined) {
    if (!names.includes(opts.name)) throw unknownProfile(opts.name, names);
    return { name: opts.name };
  }
  if (names.length === 0) throw new UsageError('no profile is stored yet', { hint: 'run `rsapi auth login` (add --profile NAME for another one)' });
  if (!canPrompt(ctx.io)) throw new UsageError('give the profile to switch to', { hint: `stored profiles: ${names.join(', ')}` });
  return { name: undefined };
}

/** Makes the named profile active; without a name, a terminal offers the stored ones. */
export async function runAuthSwitch(ctx: CommandContext, plan: AuthSwitchPlan) {
  const env = ctx.io.env;
  const config = readStoredConfig(env);
  const names = storedProfileNames(config);
  const active = storedActiveProfile(config) ?? 'default';
  let name = plan.name;
  if (name === undefined) {
    const choices = names.map((profile) => ({
      value: profile,
      name: `${profile}${profile === active ? ' (active)' : ''}  ${withoutCredentials(profileOf(config, profile)['base-url'] ?? '')}`,
    }));
    name = await promptSelect(ctx.io, 'Profile to make active', choices, names.includes(active) ? active : undefined);
  }
  const path = await setActiveProfile(name, env, ctx.locks);
  const settings = profileOf(config, name);
  const key = settings['api-key'] ? `key ${maskKey(settings['api-key'])}` : 'no key stored';
  ctx.note(`Active profile: ${name} (${settings['base-url'] ? withoutCredentials(settings['base-url']) : 'no base URL'}, ${key}); saved in ${path}`);
  if (env.RSAPI_PROFILE && env.RSAPI_PROFILE !== name) ctx.note(`note: RSAPI_PROFILE=${env.RSAPI_PROFILE} in this shell still takes precedence`);
}
