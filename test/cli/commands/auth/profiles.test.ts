// Profiles: auth switch stores the active one, auth status --all lists them all offline, an unknown name is a clear error.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../../../helpers/mock.js';
import { runInProcess } from '../../../helpers/run.js';
import { tempHomePerTest } from '../../../helpers/settings.js';
import { runOnTerminal } from '../../../helpers/terminal.js';

const KEY = 'profiles-key-Qw3Er5Ty7Ui9';
const STAGING_KEY = 'staging-key-Zx1Cv2Bn3M44';
let mock: MockFixture;
let staging: MockFixture;
const home = tempHomePerTest('rsapi-profiles-', 'config');

beforeAll(async () => {
  mock = await startMock({ apiKey: KEY });
  staging = await startMock({ apiKey: STAGING_KEY, seed: 3 });
});
afterAll(async () => {
  await Promise.all([mock.close(), staging.close()]);
});
beforeEach(() => {
  home.settings.store({
    default: { 'base-url': mock.server.baseUrl, 'api-key': KEY },
    staging: { 'base-url': staging.server.baseUrl, 'api-key': STAGING_KEY, output: 'json' },
    empty: { timeout: 5 },
  });
});

const rsapi = (argv: string[], options: { env?: Record<string, string | undefined>; tty?: boolean; columns?: number } = {}) =>
  runInProcess({ argv, env: { RSAPI_CONFIG_DIR: home.settings.dir, ...options.env }, tty: options.tty, columns: options.columns });

describe('auth switch', () => {
  it('stores the active profile; commands then use it without --profile', async () => {
    const switched = await rsapi(['auth', 'switch', 'staging']);
    expect(switched.code, switched.stderr).toBe(0);
    expect(switched.stderr).toMatch(/^Active profile: staging \(.*127\.0\.0\.1.*, key \*\*\*\*3M44\)/);
    expect(JSON.parse(readFileText())['active-profile']).toBe('staging');
    const before = staging.server.requests.length;
    const listed = await rsapi(['reports', 'list', '--limit', '1']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(1); // staging's stored output: json
    expect(staging.server.requests.length).toBe(before + 1);
    const status = await rsapi(['auth', 'status', '-o', 'tsv']);
    expect(status.stdout).toMatch(/^profile: staging \(active: `rsapi auth switch`\)$/m);
  });

  it('--profile and RSAPI_PROFILE still win over the active profile', async () => {
    await rsapi(['auth', 'switch', 'staging']);
    const flag = await rsapi(['auth', 'status', '--json', '--profile', 'default']);
    expect(JSON.parse(flag.stdout)).toMatchObject({ profile: 'default', profile_source: 'flag', key: '****7Ui9' });
    const env = await rsapi(['auth', 'status', '--json'], { env: { RSAPI_PROFILE: 'default' } });
    expect(JSON.parse(env.stdout)).toMatchObject({ profile: 'default', profile_source: 'env' });
  });

  // An unknown name, and no name with nobody to ask, are refused by the plan: switch.test.ts.

  it('without a name on a terminal, offers the stored profiles to pick from', async () => {
    const { code, screen } = await runOnTerminal(['auth', 'switch'], {
      env: { RSAPI_CONFIG_DIR: home.settings.dir, TERM: 'xterm-256color' },
      size: { columns: 100, rows: 30 },
      answers: [[/Profile to make active[\s\S]*empty/, '\u001b[B\r']],
    });
    expect(code).toBe(0);
    expect(screen).toMatch(/default \(active\)/);
    expect(screen).toMatch(/staging/);
    expect(screen).toMatch(/Active profile: staging/);
    expect(JSON.parse(readFileText())['active-profile']).toBe('staging');
  });
});

describe('an unknown profile', () => {
  it('--profile defualt: says no such profile, lists the stored ones and suggests default (exit 2, no request)', async () => {
    const before = mock.server.requests.length;
    const result = await rsapi(['reports', 'list', '--profile', 'defualt']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('rsapi: no profile "defualt"; stored profiles: default, staging, empty\nhint: did you mean "default"?\n');
    expect(mock.server.requests.length).toBe(before);
  });

  it('RSAPI_PROFILE with no near miss: says where the name came from and how to create it', async () => {
    const result = await rsapi(['auth', 'status'], { env: { RSAPI_PROFILE: 'production' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^rsapi: no profile "production" \(from RSAPI_PROFILE\); stored profiles: default, staging, empty\nhint: create it with `rsapi auth login --profile production`/,
    );
  });

  it('a profile given by name need not be stored when flags or the environment give the base URL and key', async () => {
    const result = await rsapi(['reports', 'list', '--limit', '1', '--profile', 'ci'], { env: mock.env });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe('auth status --all', () => {
  it('lists every stored profile with its base URL, the key masked, and the active one; no request', async () => {
    await rsapi(['auth', 'switch', 'staging']);
    const before = mock.server.requests.length + staging.server.requests.length;
    const result = await rsapi(['auth', 'status', '--all', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { profile: 'default', active: false, base_url: mock.server.baseUrl, key: '****7Ui9' },
      { profile: 'staging', active: true, base_url: staging.server.baseUrl, key: '****3M44' },
      { profile: 'empty', active: false, base_url: null, key: null },
    ]);
    expect(result.stdout).not.toContain(KEY);
    expect(result.stdout).not.toContain(STAGING_KEY);
    expect(mock.server.requests.length + staging.server.requests.length).toBe(before);
  });

  it('on a terminal: a table marking the active profile with *', async () => {
    const result = await rsapi(['auth', 'status', '--all', '--no-color'], { tty: true, columns: 100 });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^active +profile +base_url +key$/);
    expect(lines[1]).toMatch(new RegExp(`^\\* +default +${mock.server.baseUrl.replace(/[.]/g, '\\.')} +\\*{4}7Ui9$`));
    expect(lines[3]).toMatch(/^ +empty$/);
    expect(result.stdout).not.toContain(KEY);
  });

  it('-q prints the names, one a line', async () => {
    const result = await rsapi(['auth', 'status', '--all', '-q']);
    expect(result.stdout).toBe('default\nstaging\nempty\n');
  });
});

function readFileText(): string {
  return readFileSync(home.settings.path, 'utf8');
}
