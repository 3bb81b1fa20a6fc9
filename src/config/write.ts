// Writing the stored settings through `conf` (loaded only here): a 0600 file in a directory created 0700, one writer at a time.
import { chmodSync, mkdirSync } from 'node:fs';
import { RsapiError } from '../errors.js';
import { UsageError } from '../errors.js';
import type { LockFiles } from './lock-file.js';
import { checkProfileName } from './keys.js';
import { configDir, configPath } from './paths.js';
import type { ProfileSettings, StoredConfig } from './store.js';

/** Changes one profile: `change` gets a copy of its settings and returns what to store. */
export async function updateProfile(
  profile: string,
  change: (settings: ProfileSettings) => ProfileSettings,
  env: NodeJS.ProcessEnv,
  locks: LockFiles,
): Promise<string> {
  checkProfileName(profile);
  const dir = configDir(env);
  // conf creates missing directories with the default mode; create ours first so it is not world-readable.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Read, change and write under the lock: two `auth login`s (or a login and a `config set`) at the same
  // moment each write the other's change too; conf's atomic rename keeps the file whole for readers.
  return underLock(env, locks, async () => {
    const store = await openStore(dir, env);
    const profiles = { ...plainObject(store.get('profiles')) } as Record<string, ProfileSettings>;
    const current = { ...plainObject(Object.hasOwn(profiles, profile) ? profiles[profile] : undefined) } as ProfileSettings;
    const next = withoutUndefined(change(current));
    if (Object.keys(next).length > 0) profiles[profile] = next;
    else delete profiles[profile];
    store.set('profiles', profiles);
    // A file created by hand (or by an older version) keeps its mode through conf's atomic rename: tighten it.
    chmodSync(store.path, 0o600);
    return store.path;
  });
}

/** Makes `profile` the active one (`rsapi auth switch`); returns the file's path. */
export async function setActiveProfile(profile: string, env: NodeJS.ProcessEnv, locks: LockFiles): Promise<string> {
  checkProfileName(profile);
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return underLock(env, locks, async () => {
    const store = await openStore(dir, env);
    store.set('active-profile', profile);
    chmodSync(store.path, 0o600);
    return store.path;
  });
}

/** How long a writer waits for another to finish with the settings file before giving up. */
const SETTINGS_LOCK_WAIT_MS = 10_000;

function underLock<T>(env: NodeJS.ProcessEnv, locks: LockFiles, work: () => Promise<T>): Promise<T> {
  const path = configPath(env);
  return locks.withLock(`${path}.lock`, SETTINGS_LOCK_WAIT_MS, work, (holder) => lockedError(path, holder));
}

interface SettingsStore {
  path: string;
  get(key: 'profiles'): unknown;
  set(key: 'profiles', value: Record<string, ProfileSettings>): void;
  set(key: 'active-profile', value: string): void;
}

async function openStore(dir: string, env: NodeJS.ProcessEnv): Promise<SettingsStore> {
  const { default: Conf } = await import('conf');
  try {
    // No dot-notation: profile names may contain dots, and we always write `profiles` whole.
    return new Conf<StoredConfig>({ cwd: dir, configName: 'config', configFileMode: 0o600, accessPropertiesByDotNotation: false });
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new UsageError(`the settings file ${configPath(env)} is not valid JSON`, {
        hint: 'fix or delete it; `rsapi config path` prints where it is',
      });
    }
    throw error;
  }
}

function plainObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function withoutUndefined(settings: ProfileSettings): ProfileSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as ProfileSettings;
}

/** The settings file stayed locked by another rsapi, named by its pid when the lock file tells it. */
function lockedError(path: string, holder: number): RsapiError {
  const by = `another rsapi${holder > 0 ? ` (pid ${holder})` : ''}`;
  return new RsapiError(`the settings file ${path} stayed locked by ${by} for ${SETTINGS_LOCK_WAIT_MS / 1000} s; nothing was changed`, {
    hint: `try again; if no other rsapi runs, remove ${path}.lock`,
  });
}
