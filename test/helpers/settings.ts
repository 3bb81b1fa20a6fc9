// A temp HOME per test with a settings dir in it, and the settings file rsapi keeps there: read back or written beforehand.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { tempDir } from './cli.js';

/** Profile name -> settings, as in the file. */
export type Profiles = Record<string, Record<string, unknown>>;

/** `config.json` in the directory that RSAPI_CONFIG_DIR names. */
export class SettingsFile {
  readonly path: string;

  constructor(readonly dir: string) {
    this.path = join(dir, 'config.json');
  }

  exists(): boolean {
    return existsSync(this.path);
  }

  /** What rsapi stored. */
  read(): { profiles: Profiles } {
    return JSON.parse(readFileSync(this.path, 'utf8'));
  }

  /** Stores `profiles` the way rsapi does (mode 0600), creating the directory. */
  store(profiles: Profiles): void {
    this.write(JSON.stringify({ profiles }), 0o600);
  }

  /** Writes `text` as the file, creating the directory; without `mode` the file gets the process default. */
  write(text: string, mode?: number): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.path, text, mode === undefined ? undefined : { mode });
  }
}

export interface TempHome {
  /** The temp directory of the current test. */
  readonly path: string;
  /** The settings file under `path`, in the directory named when the home was declared; nothing is created up front. */
  readonly settings: SettingsFile;
}

/**
 * Call at the top level of a test file: each test gets a fresh temp dir (`prefix`), removed after it, with the
 * settings dir at `settingsDir` inside. Fields are read inside tests and hooks, never at declaration time.
 */
export function tempHomePerTest(prefix: string, settingsDir: string): TempHome {
  let current: { path: string; settings: SettingsFile; cleanup: () => void } | undefined;
  beforeEach(() => {
    const dir = tempDir(prefix);
    current = { path: dir.path, settings: new SettingsFile(join(dir.path, settingsDir)), cleanup: dir.cleanup };
  });
  afterEach(() => {
    current?.cleanup();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('the temp home exists only while a test runs');
    return current;
  };
  return {
    get path() {
      return now().path;
    },
    get settings() {
      return now().settings;
    },
  };
}
