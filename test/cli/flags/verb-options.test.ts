// Values rsapi refuses before any request: contradictory or empty flags, out-of-range numbers, a hand-broken settings file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../helpers/fake-clock.js';
import { sendJson, startRawServer } from '../../helpers/raw-server.js';
import { runInProcess } from '../../helpers/run.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

async function refused(args: string[], env: Record<string, string> = {}) {
  const before = mock.server.requests.length;
  const result = await runInProcess({ argv: args, env: { ...mock.env, ...env } });
  expect(result.code, result.stderr).toBe(2);
  expect(mock.server.requests.length).toBe(before);
  expect(result.stdout).toBe('');
  return result.stderr;
}

describe('refused before any request (exit 2)', () => {
  it('--json with a different -o', async () => {
    expect(await refused(['reports', 'list', '--json', '-o', 'csv'])).toMatch(/--json and -o csv ask for different formats/);
  });

  it('an empty --base-url or --api-key, rather than falling back to the environment', async () => {
    expect(await refused(['--base-url', '', 'reports', 'list'])).toMatch(/--base-url is empty/);
    expect(await refused(['reports', 'list', '--api-key', ''])).toMatch(/--api-key is empty/);
  });

  it('a --timeout beyond a day', async () => {
    expect(await refused(['reports', 'list', '--timeout', '99999999999'])).toMatch(/at most 86400/);
  });

  it('a hand-edited settings file with a bad timeout, naming the file and the key', async () => {
    const file = join(mock.configDir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { timeout: 'abc' } } }), { mode: 0o600 });
    try {
      const stderr = await refused(['reports', 'list']);
      expect(stderr).toContain(file);
      expect(stderr).toMatch(/timeout must be/);
      expect(stderr).toMatch(/config unset timeout/);
    } finally {
      writeFileSync(file, '{}');
    }
  });
});

describe('accepted as meant', () => {
  it('a base URL ending in /API/V1 in capitals is the API prefix, not a path before it', async () => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv: ['reports', 'list', '--limit', '1'], env: { ...mock.env, RSAPI_BASE_URL: `${mock.server.url}/API/V1/` } });
    expect(result.code, result.stderr).toBe(0);
    expect(mock.server.requests.slice(before).map((r) => r.path)).toEqual(['/api/v1/reports']);
  });

  it('a long wait for a retry is said on stderr without --verbose', async () => {
    // Rate limited for 3 s, as Laravel says it; the wait passes on a fake clock.
    const limited = await startRawServer((_request, response, index) =>
      index === 1 ? sendJson(response, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '3' }) : sendJson(response, 200, { data: [] }),
    );
    try {
      const clock = new FakeClock();
      const env = { RSAPI_BASE_URL: `${limited.url}/api/v1`, RSAPI_API_KEY: 'input-checks-key-0123' };
      const result = await runInProcess({ argv: ['reports', 'list', '--retries', '1'], env, clock });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/^rsapi: GET \/api\/v1\/reports: HTTP 429; retrying in 3 s \(attempt 2\)$/m);
      expect(clock.sleeps).toContain(3_000);
      expect(limited.requests).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });
});
