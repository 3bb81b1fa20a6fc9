// The settings a profile holds: their names, how a typed value is checked and stored, and how each is shown.
import { normaliseBaseUrl, withoutCredentials } from '../api/http/base-url.js';
import { redactedUrl } from '../api/http/connection-url.js';
import { UsageError } from '../errors.js';
import { OUTPUT_FORMATS } from '../output/format-names.js';
import type { ProfileSettings } from './store.js';

/** Every key a profile may hold, in the order `config list` shows them. */
export const SETTING_KEYS = ['base-url', 'api-key', 'timeout', 'retries', 'output', 'record', 'history'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/**
 * What each setting takes, in the words of `config --help`, `config set --help` and docs/configuration.md (all
 * written from this table, so a new setting cannot be left out of them). Undefined: not set by `config set`.
 */
export const SETTING_VALUES: Readonly<Record<SettingKey, string | undefined>> = {
  'base-url': 'the service address',
  'api-key': undefined,
  timeout: 'seconds',
  retries: '0-10',
  output: OUTPUT_FORMATS.join(', '),
  record: 'true or false, as --record',
  history: 'a SQLite path or a postgres:// URL, as --history',
};

/** The settings `config set` stores, in the order `config list` shows them (the key only through `auth login`). */
export const SETTABLE_KEYS: readonly SettingKey[] = SETTING_KEYS.filter((key) => SETTING_VALUES[key] !== undefined);

/** A day: longer is surely a typo, and beyond Node's timers. */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** Profile names are object keys in the file and words on the command line: keep them plain. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (PROFILE_NAME.test(name)) return name;
  throw new UsageError(`invalid profile name "${name}"`, {
    hint: 'use letters, digits, dot, dash and underscore (up to 64), starting with a letter or digit',
  });
}

/**
 * A value typed by the user, checked and converted to what is stored. The key never comes this way:
 * a key on the command line lands in shell history and the process list.
 */
export function parseSettingValue(key: SettingKey, raw: string): string | number | boolean {
  switch (key) {
    case 'record':
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw new UsageError(`record must be true or false, not "${raw}"`);
    case 'history':
      if (raw.trim() === '') throw new UsageError('history must be a path or a postgres:// URL');
      return raw.trim();
    case 'base-url':
      return normaliseBaseUrl(raw);
    case 'timeout': {
      const seconds = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
        throw new UsageError(`timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, not "${raw}"`);
      }
      return seconds;
    }
    case 'retries': {
      const retries = Number(raw);
      if (!/^\s*\d+\s*$/.test(raw) || retries > 10) throw new UsageError(`retries must be a whole number from 0 to 10, not "${raw}"`);
      return retries;
    }
    case 'output':
      if ((OUTPUT_FORMATS as readonly string[]).includes(raw)) return raw;
      throw new UsageError(`output must be one of ${OUTPUT_FORMATS.join(', ')}, not "${raw}"`);
    case 'api-key':
      throw new UsageError('the API key is stored only by `rsapi auth login`', {
        hint: 'run `rsapi auth login` (it prompts, masked) or `rsapi auth login --with-token < key-file`; a key on the command line lands in shell history',
      });
  }
}

/**
 * A value read back from the settings file, checked as if typed: a hand-edited file with a bad
 * timeout, retries or output is a usage error naming the file and key, not a strange failure later.
 */
export function storedSetting<K extends 'timeout' | 'retries' | 'output'>(
  settings: ProfileSettings,
  key: K,
  where: { profile: string; path: string },
): ProfileSettings[K] {
  const value = settings[key];
  if (value === undefined || value === null) return undefined;
  try {
    return parseSettingValue(key, String(value)) as ProfileSettings[K];
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`the settings file ${where.path}, profile "${where.profile}": ${error.message}`, {
      hint: `fix it with \`rsapi config set ${key} VALUE\` or remove it with \`rsapi config unset ${key}\``,
    });
  }
}

/** A stored value as users may see it: the key masked to its last 4 characters. */
export function displaySetting(key: SettingKey, value: ProfileSettings[SettingKey]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (key === 'api-key') return maskKey(String(value));
  // A hand-edited file may hold a base URL with credentials in it: never shown.
  if (key === 'base-url') return withoutCredentials(String(value));
  // A history URL's password is a secret, as the key is.
  if (key === 'history') return redactedUrl(String(value));
  return String(value);
}

/** The key as users may see it: only its last 4 characters. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `****${key.slice(-4)}`;
}

/**
 * A key goes in an HTTP header: a control character (a pasted line end, an escape) or anything beyond
 * printable ASCII cannot be sent, and would otherwise fail as a "network failure" after every retry.
 * A usage error, naming where the key came from, never the key.
 */
export function checkApiKey(key: string, what: string): void {
  const bad = /[^\x21-\x7e]/.exec(key);
  if (!bad) return;
  const char = bad[0].charCodeAt(0);
  const kind = char < 0x20 || char === 0x7f ? 'a control character' : char === 0x20 ? 'a space' : 'a character beyond printable ASCII';
  throw new UsageError(`${what} holds ${kind}; it cannot be sent in an HTTP header`, {
    hint: 'check the key for a stray line end or escape from copying; API keys are printable ASCII',
  });
}
