// A profile name a typo away from a stored one is refused by auth logout, config set and config unset (exit 2, near miss);
// config set on a new name creates it and says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/cli.js';

let home: ReturnType<typeof tempDir>;
let env: Record<string, string>;

beforeEach(async () => {
  home = tempDir('rsapi-profiles-');
  env = { HOME: home.path, RSAPI_CONFIG_DIR: join(home.path, 'cfg') };
  // A stored default profile with a base URL (the key is not needed for these).
  const set = await runInProcess({ argv: ['config', 'set', 'base-url', 'https://rank.example.com'], env });
  expect(set.code, set.stderr).toBe(0);
});
afterEach(() => home.cleanup());

function storedProfiles(): string[] {
  const config = JSON.parse(readFileSync(join(env.RSAPI_CONFIG_DIR!, 'config.json'), 'utf8')) as { profiles: Record<string, unknown> };
  return Object.keys(config.profiles);
}

describe('a mistyped --profile', () => {
  it.each([
    { name: 'auth logout', argv: ['auth', 'logout', '--profile', 'defualt'] },
    { name: 'config set', argv: ['config', 'set', 'timeout', '3', '--profile', 'defualt'] },
    { name: 'config unset', argv: ['config', 'unset', 'timeout', '--profile', 'defualt'] },
  ])('$name: exit 2 with "did you mean", nothing stored', async ({ argv }) => {
    const result = await runInProcess({ argv, env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('rsapi: no profile "defualt"; stored profiles: default\n');
    expect(result.stderr).toContain('hint: did you mean "default"?');
    expect(storedProfiles()).toEqual(['default']);
  });

  it('RSAPI_PROFILE=defualt is refused the same way by config set', async () => {
    const result = await runInProcess({ argv: ['config', 'set', 'timeout', '3'], env: { ...env, RSAPI_PROFILE: 'defualt' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no profile "defualt" (from RSAPI_PROFILE)');
  });
});

describe('config set on a new profile name', () => {
  it('creates it and says so on stderr', async () => {
    const result = await runInProcess({ argv: ['config', 'set', 'timeout', '3', '--profile', 'staging'], env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('creating profile "staging"\ntimeout = 3 (profile "staging")\n');
    expect(storedProfiles().sort()).toEqual(['default', 'staging']);
    const again = await runInProcess({ argv: ['config', 'set', 'timeout', '4', '--profile', 'staging'], env });
    expect(again.stderr).toBe('timeout = 4 (profile "staging")\n');
  });

  it('a new name two edits from a stored one (fifth beside sixth) is created, not refused', async () => {
    expect((await runInProcess({ argv: ['config', 'set', 'timeout', '3', '--profile', 'sixth'], env })).code).toBe(0);
    const result = await runInProcess({ argv: ['config', 'set', 'timeout', '3', '--profile', 'fifth'], env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('creating profile "fifth"');
  });

  it('a name of a numbered set (c3 beside c2, eu2 beside eu) is created; one a letter off (Default, defaul) is refused', async () => {
    expect((await runInProcess({ argv: ['config', 'set', 'timeout', '3', '--profile', 'c2'], env })).code).toBe(0);
    for (const profile of ['c3', 'c12', 'default2']) {
      const result = await runInProcess({ argv: ['config', 'set', 'timeout', '3', '--profile', profile], env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`creating profile "${profile}"`);
    }
    for (const profile of ['Default', 'defaul', 'cc2']) {
      const result = await runInProcess({ argv: ['config', 'set', 'timeout', '3', '--profile', profile], env });
      expect(result.code, profile).toBe(2);
    }
  });

  it('auth logout of the stored default profile without a key still says there is nothing to forget (exit 0)', async () => {
    const result = await runInProcess({ argv: ['auth', 'logout'], env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('nothing to forget');
  });
});
