// A service that audits each page before it stores the report, and a timeout shorter than the audit: one report per URL, whatever the concurrency.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../../../src/api/http/clock.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { runInProcess } from '../../../../helpers/run.js';
import { mockPerFile, type MockFixture } from '../../../../helpers/mock.js';

const mock = mockPerFile({ seed: 0 });

/** The mock's report count per URL. */
function countsByUrl(fixture: MockFixture): Map<string, number> {
  const counts = new Map<string, number>();
  for (const report of fixture.server.reports()) counts.set(report.url, (counts.get(report.url) ?? 0) + 1);
  return counts;
}

function pages(host: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `https://${host}/p/${index + 1}`);
}

// The tests wait in real time (undici's timeout, the mock's audit), each on a mock of its own: side by side.
describe.concurrent('slow audits with a short timeout (mock storeDelayMs)', () => {
  it.each([
    { concurrency: 1, count: 4, timeout: 'flag' },
    { concurrency: 10, count: 10, timeout: 'flag' },
    { concurrency: 4, count: 6, timeout: 'stored setting' },
  ])('concurrency $concurrency, timeout from the $timeout: exactly one report per URL, one POST each, exit 0', async ({ concurrency, count, timeout }) => {
    // Twice the timeout: every POST times out well before its report is stored, and the watch (real time, 3 s) finds it.
    const fixture = await mock({ storeDelayMs: 400 });
    const wanted = pages(`c${concurrency}.slow.example`, count);
    // The same page in another form is the same URL.
    const input = [...wanted, wanted[0]!.replace('https://c', 'HTTPS://C')];
    const args = ['reports', 'create', ...input, '--concurrency', String(concurrency), '-q'];
    if (timeout === 'flag') args.push('--timeout', '0.2');
    else {
      mkdirSync(fixture.configDir, { recursive: true });
      writeFileSync(join(fixture.configDir, 'config.json'), JSON.stringify({ profiles: { default: { timeout: 0.2 } } }), { mode: 0o600 });
    }
    const result = await runInProcess({ argv: args, env: fixture.env, clock: systemClock });
    expect(result.stderr).toContain(`created ${count} (${count} found after a lost answer), failed 0, duplicates 1`);
    expect(result.code).toBe(0);
    expect(countsByUrl(fixture)).toEqual(new Map(wanted.map((url) => [url, 1])));
    expect(fixture.server.requests.filter((request) => request.method === 'POST')).toHaveLength(count);
    expect(result.stdout.trim().split('\n')).toHaveLength(count);
  });

  it('one URL: says what it waits for, then prints the report found', async () => {
    const fixture = await mock({ storeDelayMs: 400 });
    const result = await runInProcess({
      argv: ['reports', 'create', 'https://one.slow.example/', '--timeout', '0.2', '--json'],
      env: fixture.env,
      clock: systemClock,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/may still be auditing the page: watching up to 3 s for its report \(it is not sent again\)/);
    expect(JSON.parse(result.stdout)).toMatchObject({ url: 'https://one.slow.example/' });
    expect(fixture.server.reports()).toHaveLength(1);
  });

  it('an audit slower than the watch: unsettled, exit 7, with the hint to check before creating again; never a second POST', async () => {
    const fixture = await mock({ storeDelayMs: 5_000 });
    // The watch's 3 s pass on a fake clock; the report, stored after 5 real seconds, cannot show up before it ends.
    const result = await runInProcess({ argv: ['reports', 'create', 'https://slower.example/', '--timeout', '0.2'], env: fixture.env, clock: new FakeClock() });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/no report showed up within 3 s; the report for https:\/\/slower\.example\/ may still be created/);
    expect(result.stderr).toContain("rsapi reports list --project 'slower.example' --sort-by id --sort desc --limit 10");
    expect(fixture.server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
