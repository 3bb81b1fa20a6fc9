// Concurrent writers of the stored settings never lose each other's changes, and the file stays 0600.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockFiles } from '../../src/config/lock-file.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { SettingsFile } from '../helpers/settings.js';

const TRIALS = 5;
const LOGINS = ['first', 'second', 'third', 'fourth'];
const SETS = ['fifth', 'sixth'];

describe('concurrent settings writers', () => {
  it(`four auth logins and two config sets at the same moment keep all six changes (${TRIALS} trials)`, async () => {
    const lost: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const home = tempDir('rsapi-race-');
      try {
        const dir = join(home.path, 'settings');
        const env = { RSAPI_CONFIG_DIR: dir };
        const login = (profile: string) =>
          runCli(['auth', 'login', '--base-url', `https://${profile}.example.com`, '--with-token', '--no-verify', '--profile', profile], {
            env,
            input: `key-of-${profile}-0123456789\n`,
          });
        const set = (profile: string) => runCli(['config', 'set', 'timeout', '42', '--profile', profile], { env });
        const results = await Promise.all([...LOGINS.map(login), ...SETS.map(set)]);
        for (const result of results) expect(result.code, result.stderr).toBe(0);
        const settings = new SettingsFile(dir);
        const { profiles } = settings.read();
        for (const profile of LOGINS) {
          if (profiles[profile]?.['api-key'] !== `key-of-${profile}-0123456789`) lost.push(`trial ${trial}: ${profile}`);
        }
        for (const profile of SETS) if (profiles[profile]?.timeout !== 42) lost.push(`trial ${trial}: ${profile}`);
        expect(statSync(settings.path).mode & 0o777).toBe(0o600);
      } finally {
        home.cleanup();
      }
    }
    expect(lost).toEqual([]);
  }, 120_000);

  it('ten pairs of `auth login` and `config set` of one new profile each (c1 to c10), at once: all exit 0, every profile whole', async () => {
    const home = tempDir('rsapi-race-pairs-');
    try {
      const dir = join(home.path, 'settings');
      const env = { RSAPI_CONFIG_DIR: dir };
      const profiles = Array.from({ length: 10 }, (_, index) => `c${index + 1}`);
      // c3 beside a stored c2 was taken for a typo of it: "no profile c3; stored profiles: c2", exit 2.
      const results = await Promise.all(
        profiles.flatMap((profile) => [
          runCli(['auth', 'login', '--base-url', `https://${profile}.example.com`, '--with-token', '--no-verify', '--profile', profile], {
            env,
            input: `key-of-${profile}-0123456789\n`,
            timeoutMs: 60_000,
          }),
          runCli(['config', 'set', 'timeout', '9', '--profile', profile], { env, timeoutMs: 60_000 }),
        ]),
      );
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const stored = new SettingsFile(dir).read().profiles;
      for (const profile of profiles) {
        expect(stored[profile], profile).toMatchObject({
          'api-key': `key-of-${profile}-0123456789`,
          'base-url': `https://${profile}.example.com/api/v1`,
          timeout: 9,
        });
      }
    } finally {
      home.cleanup();
    }
  }, 120_000);

  it('withLock runs one holder at a time and waits for the other', async () => {
    const dir = tempDir('rsapi-lock-');
    try {
      const lock = join(dir.path, 'x.lock');
      const order: string[] = [];
      const locks = new LockFiles();
      const hold = (name: string) =>
        locks.withLock(
          lock,
          5_000,
          async () => {
            order.push(`${name} in`);
            await new Promise((resolve) => setTimeout(resolve, 30));
            order.push(`${name} out`);
          },
          () => new Error('timed out'),
        );
      await Promise.all([hold('a'), hold('b')]);
      expect(order).toEqual(['a in', 'a out', 'b in', 'b out']);
    } finally {
      dir.cleanup();
    }
  });
});
