// `rsapi auth status`: profile, base URL and key in use (masked), where each came from, whether the service accepts the key, and its account where it tells.
import { renderDocument } from '../../../output/index.js';
import { normaliseBaseUrl, withoutCredentials } from '../../../api/http/base-url.js';
import type { ApiClient } from '../../../api/client.js';
import { ApiError, AuthError, InterruptedError, RsapiError } from '../../../api/errors.js';
import { MissingKeyError } from '../../runtime/errors.js';
import { unknownProfileError, type ProfileSource, type SettingSource } from '../../../config/resolve.js';
import { printAllProfiles } from './profiles.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { maskKey } from '../../../config/keys.js';
import { checkKey } from './verify.js';

/** What `--json` prints: one object. */
interface AuthStatus {
  profile: string;
  profile_source: ProfileSource;
  base_url: string | null;
  base_url_source: SettingSource | null;
  key: string | null;
  key_source: SettingSource | null;
  /** null when not checked (no key or no base URL). */
  accepted: boolean | null;
  status: number | null;
  error: string | null;
  /** The key's account, where the service has GET /account (phpRank); null elsewhere or when not checked. */
  account: { name: string | null; plan: string | null } | null;
}

function declareStatus(auth: ParentCommand) {
  return auth
    .command('status')
    .description('Show the profile, base URL and key in use, and whether the service accepts the key')
    .option('--all', 'list every stored profile (base URL, masked key, which is active) without contacting any service');
}

export type AuthStatusOptions = OptionsOf<ReturnType<typeof declareStatus>>;

export function registerStatus(auth: ParentCommand, invocation: Invocation): void {
  const command = declareStatus(auth);
  command.addHelpText(
    'after',
    `
Exit 0 when the service accepts the key, 3 when it refuses it (or the account's plan has no API
access) or no key is configured, 7 when the service cannot be reached. Where the service tells
(phpRank's GET /account, one request more), the account's name and plan are shown too.

Examples:
  $ rsapi auth status
  $ rsapi auth status --profile staging --json
  $ rsapi auth status --all
  $ RSAPI_API_KEY=... rsapi auth status       # check a key without storing it`,
  );
  handle(invocation, command, { plan: planAuthStatus, run: runAuthStatus });
}

/** What `auth status` shows: every stored profile (--all, no request), or the one in use, its key checked with the service. */
export type AuthStatusPlan = { all: true } | { all: false; profile: string };

/** Every check of `auth status` that needs no network: before the key is checked with the service. */
export function planAuthStatus(ctx: CommandContext, opts: AuthStatusOptions): AuthStatusPlan {
  ctx.checkOutputFlags('tool');
  if (opts.all) return { all: true };
  // Nothing configured under a --profile that is a typo: the near miss, not a "no key" to puzzle over.
  const settings = ctx.settings();
  const unknown = !settings.baseUrl || !settings.apiKey ? unknownProfileError(settings) : undefined;
  if (unknown) throw unknown;
  return { all: false, profile: settings.profile };
}

/** The profile, base URL and key in use and whether the service accepts the key; with --all, every stored profile. */
export async function runAuthStatus(ctx: CommandContext, plan: AuthStatusPlan) {
  if (plan.all) return printAllProfiles(ctx);
  const settings = ctx.settings();
  const status: AuthStatus = {
    profile: plan.profile,
    profile_source: settings.profileSource,
    base_url: settings.baseUrl ? displayBaseUrl(settings.baseUrl) : null,
    base_url_source: settings.baseUrlSource ?? null,
    key: settings.apiKey ? maskKey(settings.apiKey) : null,
    key_source: settings.apiKeySource ?? null,
    accepted: null,
    status: null,
    error: null,
    account: null,
  };
  const failure = await check(ctx, status);
  await printStatus(ctx, status);
  if (failure) throw failure;
}

/** Fills in the service's verdict; returns the error that decides the exit code, if any. */
async function check(ctx: CommandContext, status: AuthStatus): Promise<unknown> {
  if (!ctx.settings().apiKey) return MissingKeyError.forProfile(status.profile);
  let client: ApiClient;
  try {
    client = ctx.client();
  } catch (error) {
    return error; // no usable base URL: not checked, and the error says why
  }
  try {
    await checkKey(client);
    status.accepted = true;
    status.account = await accountOf(client);
    return undefined;
  } catch (error) {
    if (!(error instanceof RsapiError)) throw error;
    if (error instanceof AuthError) status.accepted = false;
    if (error instanceof ApiError) status.status = error.status ?? null;
    status.error = error.message;
    return error;
  }
}

/** The account's name and plan (one request more); null where the service has no /account or cannot tell it now. */
async function accountOf(client: ApiClient): Promise<AuthStatus['account']> {
  try {
    const account = await client.account.get();
    return account ? { name: account.name ?? null, plan: account.plan ?? null } : null;
  } catch (error) {
    // The key is accepted: an account the service cannot show now is no failure of this check; Ctrl-C still is.
    if (error instanceof InterruptedError) throw error;
    return null;
  }
}

async function printStatus(ctx: CommandContext, status: AuthStatus): Promise<void> {
  const text = () =>
    `${[
      `profile: ${status.profile}${PROFILE_SOURCE[status.profile_source]}`,
      `base URL: ${status.base_url ? `${status.base_url} (from ${status.base_url_source})` : 'none'}`,
      `key: ${status.key ? `${status.key} (from ${status.key_source})` : 'none'}`,
      `service: ${verdict(status)}`,
      ...(status.account ? [`account: ${status.account.name ?? 'unnamed'}${status.account.plan === null ? '' : ` (plan: ${status.account.plan})`}`] : []),
    ].join('\n')}\n`;
  // The error may quote the service: on a terminal, escaped like any service text.
  ctx.io.stdout.write(ctx.secrets.redact(await renderDocument(ctx.format('tool'), { value: status, text }, { terminal: ctx.io.stdoutIsTTY })));
}

const PROFILE_SOURCE: Record<ProfileSource, string> = {
  flag: ' (from --profile)',
  env: ' (from RSAPI_PROFILE)',
  active: ' (active: `rsapi auth switch`)',
  default: '',
};

function verdict(status: AuthStatus): string {
  if (status.accepted === true) return 'accepts the key';
  // A 403 on reading the key's own list: the key is known, its account or plan has no API access.
  if (status.accepted === false && status.status === 403) return 'refused API access to this account (HTTP 403): its plan may not include the API';
  if (status.accepted === false) return `refused the key (HTTP ${status.status})`;
  if (status.error === null) return 'not checked';
  if (status.status === null) return `unreachable (${status.error})`;
  return `could not check the key (${status.error})`;
}

/** The base URL as it will be used; an invalid one is shown as given (the check then reports it). */
function displayBaseUrl(value: string): string {
  try {
    return normaliseBaseUrl(value);
  } catch {
    // Refused (credentials in it, or not a URL): shown as given, credentials masked.
    return withoutCredentials(value);
  }
}
