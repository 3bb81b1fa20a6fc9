// Flags shared by `reports create` and `reports update`: privacy by name or number, and where a password comes from.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import { PRIVACY, type Privacy } from '../../api/reports.js';
import { canPrompt, promptSecret, readSecretFromFile, readSecretFromStdin, refuseSecretFromTerminalStdin, type SecretRegister } from '../terminal/prompts.js';
import type { Terminal } from '../terminal/terminal.js';
import { choiceOption, type DeclaredOptions } from './options.js';

const PRIVACY_CHOICES = ['public', 'private', 'password', '0', '1', '2'];

export function addPrivacyOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return command
    .addOption(choiceOption('--privacy <privacy>', 'report page privacy', PRIVACY_CHOICES, parsePrivacy))
    .addOption(new Option('--password-stdin', 'read the report page password from standard input (privacy password)').conflicts('passwordFile'))
    .option('--password-file <path>', 'read the report page password from the first line of a file (privacy password)');
}

export type PrivacyFlags = DeclaredOptions<typeof addPrivacyOptions<[], {}, {}>>;

function parsePrivacy(value: string): Privacy {
  if (value in PRIVACY) return PRIVACY[value as keyof typeof PRIVACY];
  return Number(value) as Privacy;
}

/**
 * The privacy flags' part of a verb's plan, before stdin or a file is read: a password source without
 * --privacy password, --password-stdin from a terminal with no screen for a prompt, and (`required`: a create)
 * --privacy password with no source and nobody to ask.
 */
export function checkPasswordFlags(io: Terminal, flags: PrivacyFlags, options: { required: boolean }): void {
  const given = flags.passwordStdin || flags.passwordFile !== undefined;
  if (given && flags.privacy !== PRIVACY.password) throw new UsageError('a password goes only with --privacy password (2)');
  if (flags.passwordStdin) refuseSecretFromTerminalStdin(io, 'password');
  if (options.required && flags.privacy === PRIVACY.password && !given && !canPrompt(io)) {
    throw new UsageError('--privacy password needs a password', { hint: 'give it with --password-stdin or --password-file PATH' });
  }
}

/**
 * The password, when privacy is `password`: from stdin, a file, or a masked prompt on a terminal (the flags checked
 * by checkPasswordFlags). Never from a flag value, so it shows neither in shell history nor in the process list.
 */
export async function resolvePassword(
  io: Terminal,
  flags: PrivacyFlags,
  options: { secrets: SecretRegister; signal?: AbortSignal },
): Promise<string | undefined> {
  if (flags.passwordStdin) return readSecretFromStdin(io, options.secrets, 'password', options.signal);
  if (flags.passwordFile !== undefined) return readSecretFromFile(flags.passwordFile, options.secrets, 'password');
  if (flags.privacy !== PRIVACY.password || !canPrompt(io)) return undefined;
  return promptSecret(io, options.secrets, 'Report page password');
}
