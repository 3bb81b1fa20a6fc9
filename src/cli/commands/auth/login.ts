// `rsapi auth login`: asks for (or reads from stdin) a base URL and key, checks the key with the service, and stores both in a profile.
import { normaliseBaseUrl } from '../../../api/http/base-url.js';
import { AuthError, NetworkError, RsapiError } from '../../../api/errors.js';
import { ExitCode, exitCodeOf, hintOf } from '../../runtime/exit-codes.js';
import { UsageError } from '../../runtime/errors.js';
import { updateProfile } from '../../../config/write.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { canPrompt, promptSecret, promptText, readSecretFromStdin, refuseSecretFromTerminalStdin } from '../../terminal/prompts.js';
import { checkApiKey, maskKey } from '../../../config/keys.js';
import { checkKey } from './verify.js';

function declareLogin(auth: ParentCommand) {
  return auth
    .command('login')
    .description('Store an API key in a profile, once the service has accepted it')
    .option('--with-token', 'read the key from standard input (its first line) instead of prompting')
    .option('--no-verify', 'store the key without checking it with the service');
}

export type AuthLoginOptions = OptionsOf<ReturnType<typeof declareLogin>>;

export function registerLogin(auth: ParentCommand, invocation: Invocation): void {
  const command = declareLogin(auth);
  command.addHelpText(
    'after',
    `
The base URL comes from --base-url; else, on a terminal, a prompt (offering RSAPI_BASE_URL or the
stored one); else RSAPI_BASE_URL or the stored one. The key is written only to the settings file
(\`rsapi config path\`, mode 0600); --api-key is refused here, as it would land in shell history.

Examples:
  $ rsapi auth login
  $ rsapi auth login --base-url https://rank.example.com --profile staging
  $ printenv RANK_TOKEN | rsapi auth login --with-token --base-url https://rank.example.com
  $ rsapi auth login --with-token --no-verify < key.txt`,
  );
  handle(invocation, command, { plan: planAuthLogin, run: runAuthLogin });
}

/** What `auth login` will do: the profile it stores in, where the base URL and the key come from, whether the key is checked. */
export interface AuthLoginPlan {
  profile: string;
  /** The base URL (normalised), or, on a terminal without --base-url, asked for at a prompt offering the known one. */
  baseUrl: { url: string } | { offered: string | undefined };
  /** Asked for at a prompt (a terminal, no --with-token); else read from stdin's first line. */
  interactive: boolean;
  /** Checked with one read before it is stored (no --no-verify). */
  verify: boolean;
}

/** Every check of `auth login` that needs no network: before the key is asked for or read from stdin. */
export function planAuthLogin(ctx: CommandContext, opts: AuthLoginOptions): AuthLoginPlan {
  if (ctx.globals.apiKey !== undefined) {
    throw new UsageError('auth login does not take the key from --api-key', {
      hint: 'type it at the prompt, or pipe it in with --with-token; a key on the command line lands in shell history',
    });
  }
  if (!opts.withToken && !canPrompt(ctx.io)) {
    throw new UsageError('no terminal to ask for the key on', { hint: 'pipe the key in: `rsapi auth login --with-token < key.txt`' });
  }
  if (opts.withToken) {
    refuseSecretFromTerminalStdin(ctx.io, 'API key');
    // With nobody to ask, the base URL must be known already.
    if (!ctx.globals.baseUrl && !ctx.settings().baseUrl) {
      throw new UsageError('no base URL to log in to', { hint: 'pass --base-url https://rank.example.com (or set RSAPI_BASE_URL)' });
    }
  }
  const interactive = canPrompt(ctx.io) && !opts.withToken;
  const { profile, baseUrl: known } = ctx.settings();
  // Non-interactive, the checks above leave --base-url or a known one.
  const given = ctx.globals.baseUrl || (interactive ? undefined : known);
  const baseUrl = given === undefined ? { offered: known } : { url: normaliseBaseUrl(given) };
  return { profile, baseUrl, interactive, verify: opts.verify };
}

/** Asks for (or reads) the base URL and key, checks the key with one read unless --no-verify, and stores both. */
export async function runAuthLogin(ctx: CommandContext, plan: AuthLoginPlan) {
  const { profile, interactive } = plan;
  const baseUrl = 'url' in plan.baseUrl ? plan.baseUrl.url : await askBaseUrl(ctx, plan.baseUrl.offered);
  const apiKey = plan.verify ? await verifiedKey(ctx, baseUrl, interactive) : await loginKey(ctx, interactive);
  if (!plan.verify) ctx.warnIfPlainHttp(baseUrl);
  // The key is bound to this origin: a base URL changed later does not carry it elsewhere.
  const keyOrigin = new URL(baseUrl).origin;
  await updateProfile(profile, (stored) => ({ ...stored, 'base-url': baseUrl, 'api-key': apiKey, 'key-origin': keyOrigin }), ctx.io.env, ctx.locks);
  const checked = plan.verify ? '' : ', not checked';
  ctx.note(`Logged in to ${new URL(baseUrl).host} as profile "${profile}" (key ${maskKey(apiKey)}${checked})`);
  const source = ctx.settings().apiKeySource;
  if (source === 'env') ctx.note('note: RSAPI_API_KEY is set and takes precedence over the stored key while it is');
}

/** The base URL asked for at the prompt, the known one offered. */
async function askBaseUrl(ctx: CommandContext, known: string | undefined): Promise<string> {
  // A hostname is enough, as gh takes one (and as --base-url does): `rank.example.com` is https://, `127.0.0.1:19501` http://.
  const answer = await promptText(ctx.io, 'Base URL of the service (or its hostname)', known, (value) => {
    try {
      normaliseBaseUrl(value);
      return true;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  });
  const baseUrl = normaliseBaseUrl(answer);
  // What was understood, when it is not what was typed.
  if (baseUrl !== answer.trim()) ctx.note(`rsapi: base URL ${baseUrl}`);
  return baseUrl;
}

async function loginKey(ctx: CommandContext, interactive: boolean): Promise<string> {
  const raw = interactive ? await promptSecret(ctx.io, ctx.secrets, 'API key') : await readSecretFromStdin(ctx.io, ctx.secrets, 'API key', ctx.signal);
  const key = raw.trim();
  if (!key) throw new UsageError('the API key is empty; nothing saved');
  ctx.secrets.register(key);
  checkApiKey(key, 'the API key');
  return key;
}

/** Tries at the prompt before a refused key ends the run (exit 3), as gh gives. */
const KEY_TRIES = 3;

/**
 * The key, checked with the service before it is stored. At the prompt a key the service refuses is asked for again,
 * up to KEY_TRIES times; any other failure (and a refused key read from stdin) ends the run with nothing stored.
 */
async function verifiedKey(ctx: CommandContext, baseUrl: string, interactive: boolean): Promise<string> {
  for (let tries = 1; ; tries++) {
    let why: string;
    try {
      // A key no header can carry (a space, a control character: loginKey's UsageError) is as wrong as one the
      // service refuses: asked again.
      const apiKey = await loginKey(ctx, interactive);
      await verifyBeforeSaving(ctx, baseUrl, apiKey);
      return apiKey;
    } catch (error) {
      if (error instanceof AuthError && error.refusal === 'key') why = `the service refused that key (HTTP ${error.status})`;
      else if (error instanceof UsageError) why = error.message;
      else throw error;
      if (!interactive || tries >= KEY_TRIES) throw error;
    }
    const left = KEY_TRIES - tries;
    ctx.note(`rsapi: ${why}; try again (${left} ${left === 1 ? 'try' : 'tries'} left)`);
  }
}

/** One read with the new key, no retries; on any failure nothing is stored and the error says so. */
async function verifyBeforeSaving(ctx: CommandContext, baseUrl: string, apiKey: string): Promise<void> {
  try {
    await checkKey(ctx.connect(baseUrl, apiKey, { retries: 0 }));
  } catch (error) {
    // A 403 on the read (refusal 'plan') is the account's plan, not the key: its own hint says so.
    if (error instanceof AuthError && error.refusal === 'key') {
      error.hint = 'nothing was saved; check the key is right and belongs to this service';
    } else if (error instanceof NetworkError) {
      error.hint = `nothing was saved; ${hintOf(error) ?? 'check the base URL'} (or store it unchecked with --no-verify)`;
    } else if (error instanceof RsapiError && exitCodeOf(error) !== ExitCode.interrupted) {
      error.hint = `nothing was saved${hintOf(error) ? `; ${hintOf(error)}` : ''}`;
    }
    throw error;
  }
}
