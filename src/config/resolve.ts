// Precedence of each connection setting: flag, then environment, then the profile's stored value.
import { originOf } from '../api/http/base-url.js';
import { RsapiError, UsageError } from '../errors.js';
import { nearest } from '../suggest.js';
import { checkProfileName, parseSettingValue, storedSetting } from './keys.js';
import { profileOf, readStoredConfig, storedActiveProfile, storedProfileNames, type ProfileSettings, type StoredConfig } from './store.js';

export type SettingSource = 'flag' | 'env' | 'profile';
/** Where the profile's name came from: --profile, RSAPI_PROFILE, `auth switch`, or the default. */
export type ProfileSource = 'flag' | 'env' | 'active' | 'default';

export interface ConnectionFlags {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
}

export interface ResolvedSettings {
  profile: string;
  profileSource: ProfileSource;
  /** The names of every stored profile (for messages about an unknown one). */
  storedProfiles: string[];
  baseUrl: string | undefined;
  baseUrlSource: SettingSource | undefined;
  apiKey: string | undefined;
  apiKeySource: SettingSource | undefined;
  /**
   * For a key from the profile: the origin it was stored for (`auth login` records it; a profile stored
   * before that is taken to belong to its stored base URL, saved with it).
   */
  keyOrigin: string | undefined;
  /** The profile's stored values, for defaults such as timeout, retries, output. */
  stored: ProfileSettings;
  /** Why the settings file was passed over (unreadable, not JSON) in a run that needs nothing from it: to warn about. */
  settingsFileProblem?: string;
}

/**
 * The settings file's contents. A run given both the base URL and the key (flags or environment) needs nothing
 * else from it: a broken file is passed over (with the reason, for a warning) instead of blocking, e.g., CI.
 */
function readConfigUnlessNeedless(flags: ConnectionFlags, env: NodeJS.ProcessEnv): { config: StoredConfig; unreadable?: string } {
  try {
    return { config: readStoredConfig(env) };
  } catch (error) {
    const given = (flags.baseUrl || env.RSAPI_BASE_URL) && (flags.apiKey || env.RSAPI_API_KEY);
    if (!given || !(error instanceof RsapiError)) throw error;
    return { config: {}, unreadable: error.message };
  }
}

/** `flags` as commander parsed them: an empty value was refused there (refuseEmptyValues), never passed on to the next source. */
export function resolveSettings(flags: ConnectionFlags, env: NodeJS.ProcessEnv): ResolvedSettings {
  const { config, unreadable } = readConfigUnlessNeedless(flags, env);
  const active = storedActiveProfile(config);
  const [name, profileSource]: [string, ProfileSource] = flags.profile
    ? [flags.profile, 'flag']
    : env.RSAPI_PROFILE
      ? [env.RSAPI_PROFILE, 'env']
      : active
        ? [active, 'active']
        : ['default', 'default'];
  const profile = checkProfileName(name);
  const stored = profileOf(config, profile);
  const baseUrl = pick(flags.baseUrl, env.RSAPI_BASE_URL, stored['base-url']);
  const apiKey = pick(flags.apiKey, env.RSAPI_API_KEY, stored['api-key']);
  return {
    profile,
    profileSource,
    storedProfiles: storedProfileNames(config),
    baseUrl: baseUrl?.value,
    baseUrlSource: baseUrl?.source,
    apiKey: apiKey?.value,
    apiKeySource: apiKey?.source,
    settingsFileProblem: unreadable,
    keyOrigin: apiKey?.source === 'profile' ? (stored['key-origin'] ?? (stored['base-url'] ? originOf(stored['base-url']) : undefined)) : undefined,
    stored,
  };
}

/**
 * A stored key is sent only to the origin it was stored for: after `config set base-url`, RSAPI_BASE_URL or
 * --base-url elsewhere, it stays home. Returns the two origins when they differ (keys from a flag or the
 * environment are the user's explicit choice: never refused here).
 */
export function storedKeyElsewhere(settings: ResolvedSettings): { keyOrigin: string; baseOrigin: string } | undefined {
  if (settings.apiKeySource !== 'profile' || !settings.baseUrl) return undefined;
  const baseOrigin = originOf(settings.baseUrl);
  if (baseOrigin === undefined) return undefined; // not a usable URL: the client says so itself
  const keyOrigin = settings.keyOrigin ?? 'an unknown address';
  return keyOrigin === baseOrigin ? undefined : { keyOrigin, baseOrigin };
}

function pick(flag: string | undefined, env: string | undefined, stored: string | undefined) {
  if (flag) return { value: flag, source: 'flag' as const };
  if (env) return { value: env, source: 'env' as const };
  if (stored) return { value: stored, source: 'profile' as const };
  return undefined;
}

/**
 * A profile chosen by name (--profile, RSAPI_PROFILE, `auth switch`) that is not stored: a typo more often than not.
 * The error lists the stored names and suggests the nearest one. Undefined when the profile is stored or is the default.
 */
export function unknownProfileError(settings: Pick<ResolvedSettings, 'profile' | 'profileSource' | 'storedProfiles'>): UsageError | undefined {
  if (settings.profileSource === 'default' || settings.storedProfiles.includes(settings.profile)) return undefined;
  return unknownProfile(settings.profile, settings.storedProfiles, settings.profileSource);
}

export function unknownProfile(name: string, stored: string[], source?: ProfileSource): UsageError {
  const from = source === 'env' ? ' (from RSAPI_PROFILE)' : source === 'active' ? ' (the active profile, set by `rsapi auth switch`)' : '';
  const near = nearest(name, stored);
  const known = stored.length > 0 ? `stored profiles: ${stored.join(', ')}` : 'no profile is stored yet';
  return new UsageError(`no profile "${name}"${from}; ${known}`, {
    hint: near ? `did you mean "${near}"?` : `create it with \`rsapi auth login --profile ${name}\``,
  });
}

/** The variables that set a run's defaults without a settings file (CI): between the flag and the profile. */
export const SETTING_VARIABLES = { timeout: 'RSAPI_TIMEOUT', retries: 'RSAPI_RETRIES', output: 'RSAPI_OUTPUT' } as const;

/**
 * A default below the flags: RSAPI_TIMEOUT / RSAPI_RETRIES / RSAPI_OUTPUT, else the profile's stored value. Either
 * is checked as if typed; a bad one is a usage error naming the variable or the file. An empty variable is unset.
 */
export function defaultSetting<K extends keyof typeof SETTING_VARIABLES>(
  settings: Pick<ResolvedSettings, 'stored' | 'profile'>,
  key: K,
  env: NodeJS.ProcessEnv,
  path: string,
): ProfileSettings[K] {
  const variable = SETTING_VARIABLES[key];
  const fromEnv = env[variable];
  if (fromEnv === undefined || fromEnv.trim() === '') return storedSetting(settings.stored, key, { profile: settings.profile, path });
  try {
    return parseSettingValue(key, fromEnv) as ProfileSettings[K];
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`${variable}: ${error.message}`, { hint: `fix or unset ${variable}` });
  }
}
