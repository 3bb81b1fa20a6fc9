// Pacing to the service's rate limit over loopback: bulk create, --all, stats and multi-delete against the throttled mock meet at most one 429.
import { describe, expect, it } from 'vitest';
import type { MockFixture } from '../helpers/mock.js';
import { mockPerTest } from '../helpers/mock.js';
import { runInProcess } from '../helpers/run.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

const mock = mockPerTest({ seed: 0 });

/**
 * A throttle of `limit` a second, whose window runs on `clock` as the run's waits do: the mock's window and the
 * client's pacing share one virtual time, so waiting out windows costs no real time.
 */
function throttled(clock: VirtualClock, limit: number, seed = 0, flavor: 'seed' | 'phprank' = 'seed'): Promise<MockFixture> {
  return mock({ flavor, seed, rateLimit: limit, rateLimitWindowMs: 1_000, clock });
}

function refusals(fixture: MockFixture): number {
  return fixture.server.requests.filter((request) => request.status === 429).length;
}

function counted(fixture: MockFixture): number {
  return fixture.server.requests.filter((request) => request.status !== 429).length;
}

describe('pacing to X-RateLimit-*', () => {
  it.each(['seed', 'phprank'] as const)(
    '%s flavor: reports create of 25 URLs, --concurrency 8, 10 a second: every one created, at most one 429, no faster than the limit',
    async (flavor) => {
      const clock = new VirtualClock();
      const fixture = await throttled(clock, 10, 0, flavor);
      const urls = Array.from({ length: 25 }, (_, index) => `https://example.com/paced/${index + 1}`);
      const started = clock.now();
      const result = await runInProcess({
        argv: ['reports', 'create', '--from-file', '-', '--concurrency', '8', '-o', 'json'],
        env: fixture.env,
        stdin: urls.join('\n'),
        clock,
      });
      const ms = clock.now() - started;
      expect(result.stderr).not.toMatch(/HTTP 429/);
      expect(result.code).toBe(0);
      expect(fixture.server.reports()).toHaveLength(25);
      expect(refusals(fixture)).toBeLessThanOrEqual(1);
      // Three windows at least (in virtual time): 25 requests at 10 a window. A client that waited a minute per window would take far longer.
      expect(ms).toBeGreaterThanOrEqual(2_000);
      expect(ms).toBeLessThan(8_000);
    },
  );

  it.each([
    ['reports list --all (pages fetched ahead)', ['reports', 'list', '--all', '--per-page', '10', '-o', 'json'], 120],
    ['reports stats', ['reports', 'stats', '-o', 'json'], 1_050],
  ])('%s: at most one 429 while the pages go past the limit', async (_name, argv, seed) => {
    const clock = new VirtualClock();
    const fixture = await throttled(clock, 6, seed);
    const result = await runInProcess({ argv, env: fixture.env, clock });
    expect(result.code).toBe(0);
    expect(counted(fixture)).toBeGreaterThan(6);
    expect(refusals(fixture)).toBeLessThanOrEqual(1);
  });

  it('--retries 0: reports list --all over four windows finishes (exit 0); the one 429 that finds the window is waited out', async () => {
    const clock = new VirtualClock();
    const fixture = await throttled(clock, 3, 110);
    const result = await runInProcess({ argv: ['reports', 'list', '--all', '--per-page', '10', '--retries', '0', '-o', 'json'], env: fixture.env, clock });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(110);
    expect(counted(fixture)).toBe(11);
    expect(refusals(fixture)).toBeLessThanOrEqual(1);
  });

  it('reports delete of 15 ids with --concurrency 8 at 6 a second: all deleted, at most one 429', async () => {
    const clock = new VirtualClock();
    const fixture = await throttled(clock, 6, 15);
    const ids = fixture.server.reports().map((report) => String(report.id));
    const result = await runInProcess({ argv: ['reports', 'delete', ...ids, '--yes', '--concurrency', '8'], env: fixture.env, clock });
    expect(result.code).toBe(0);
    expect(fixture.server.reports()).toHaveLength(0);
    expect(refusals(fixture)).toBeLessThanOrEqual(1);
  });

  it('-v says each wait for the end of a window, once however many requests wait', async () => {
    const clock = new VirtualClock();
    const fixture = await throttled(clock, 2);
    const urls = Array.from({ length: 5 }, (_, index) => `https://example.com/said/${index + 1}`);
    const result = await runInProcess({
      argv: ['-v', 'reports', 'create', '--from-file', '-', '--concurrency', '3', '-o', 'json'],
      env: fixture.env,
      stdin: urls.join('\n'),
      clock,
    });
    expect(result.code).toBe(0);
    expect(fixture.server.reports()).toHaveLength(5);
    // The first window's end is found by the one 429; the second's is known, and waited out.
    const said = result.stderr.split('\n').filter((line) => line.includes('rate limit'));
    expect(said).toEqual([expect.stringMatching(/^rsapi: the service's rate limit \(2 requests a window\) is used up; waiting [12] s for the next window$/)]);
  });
});
