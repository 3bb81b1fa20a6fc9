// Reading the stored settings file: plain fs + JSON, so commands that only read never load `conf`.
import { readFileSync } from 'node:fs';
import { RsapiError } from '../errors.js';
import { UsageError } from '../errors.js';
import { configPath } from './paths.js';

/** The settings one profile may hold. Keys are the names users type in `rsapi config set`. */
export interface ProfileSettings {
  'base-url'?: string;
  'api-key'?: string;
  /** The origin (scheme://host:port) the key was stored for by `auth login`: it is sent nowhere else. */
  'key-origin'?: string;
  timeout?: number;
  retries?: number;
  output?: string;
  /** `config set record true`: every command that reads reports records them in the history. */
  record?: boolean;
  /** Where the history lives: a SQLite path or a postgres:// URL (its password a secret, shown masked). */
  history?: string;
}

/** The whole file, as conf writes it. */
export interface StoredConfig {
  profiles?: Record<string, ProfileSettings>;
  /** The profile `rsapi auth switch` made active: used when neither --profile nor RSAPI_PROFILE names one. */
  'active-profile'?: string;
}

export function readStoredConfig(env: NodeJS.ProcessEnv): StoredConfig {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new RsapiError(`cannot read the settings file ${path}: ${code ?? String(error)}`, {
      cause: error,
      hint: "check RSAPI_CONFIG_DIR and the file's permissions; `rsapi config path` prints where it is",
    });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as StoredConfig) : {};
  } catch {
    throw new UsageError(`the settings file ${path} is not valid JSON`, {
      hint: 'fix or delete it; `rsapi config path` prints where it is',
    });
  }
}

export function readProfile(profile: string, env: NodeJS.ProcessEnv): ProfileSettings {
  return profileOf(readStoredConfig(env), profile);
}

/** One profile's settings from the file's contents; {} when it is not stored. */
export function profileOf(config: StoredConfig, profile: string): ProfileSettings {
  const profiles = config.profiles;
  // hasOwn: a profile called "constructor" must not find Object's.
  const settings = profiles && Object.hasOwn(profiles, profile) ? profiles[profile] : undefined;
  return typeof settings === 'object' && settings !== null ? settings : {};
}

/** The names of the stored profiles, in the file's order. */
export function storedProfileNames(config: StoredConfig): string[] {
  const profiles = config.profiles;
  return typeof profiles === 'object' && profiles !== null ? Object.keys(profiles) : [];
}

/** The active profile's name as stored, if it is a string (a hand-edited file may hold anything). */
export function storedActiveProfile(config: StoredConfig): string | undefined {
  const active = config['active-profile'];
  return typeof active === 'string' && active !== '' ? active : undefined;
}
