// The built binary against a service answering 503 to everything (creates and look-ups alike): the bulk create's breaker
// ends the run within a minute with exit 8, naming the journal, and the journal resumes it once the service is healthy,
// one report per URL (the creates whose answers were lost are found, never sent again).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFailingFront, type FailingFront } from '../helpers/failing-front.js';
import { mockPerTest } from '../helpers/mock.js';
import { scratchMaker } from '../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });
const fronts: FailingFront[] = [];
afterEach(async () => {
  for (const front of fronts.splice(0)) await front.close();
});

const URLS = Array.from({ length: 40 }, (_, index) => `https://failing.example/page/${index + 1}`);
const scratch = scratchMaker('rsapi-failing-service-', { 'urls.txt': `${URLS.join('\n')}\n` });

describe('a service answering 503 to everything', () => {
  it('40 URLs end within 60 s with exit 8 naming the journal; resumed once healthy, the service holds one report per URL', async () => {
    const fixture = await mock();
    const front = await startFailingFront(fixture.server.url);
    fronts.push(front);
    front.failing = true;
    const dir = scratch();
    const journal = join(dir, 'urls.journal');
    const env = { ...fixture.env, HOME: dir, RSAPI_BASE_URL: front.url };
    // The defaults (a create waits 120 s for its answer, and its report is watched for as long): only the breaker can
    // end this run within the minute.
    const argv = ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--journal', journal, '-o', 'ndjson'];
    const startedAt = performance.now();
    const failed = await runCli(argv, { env, timeoutMs: 150_000 });
    const seconds = (performance.now() - startedAt) / 1000;
    expect(failed.code, failed.stderr).toBe(8);
    expect(seconds).toBeLessThan(60);

    const posts = front.requests.filter((request) => request.method === 'POST').length;
    expect(posts).toBe(front.storedUnanswered);
    expect(posts).toBeGreaterThan(0);
    expect(posts).toBeLessThan(URLS.length);
    expect(failed.stderr).toMatch(
      /^rsapi: the service answered HTTP 503 to \d+ requests in a row over \d+ s: starting no new URL; watching the ones under way for up to 30 s$/m,
    );
    expect(failed.stderr).toContain(`${URLS.length - posts} URLs not started, ${posts} unsettled: resume with --journal ${journal} once it answers`);
    // Each URL sent is unsettled in the journal (its report may exist), so the resume looks it up first.
    const last = new Map(
      readFileSync(journal, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string; status: string; maybeCreated?: boolean })
        .map((entry) => [entry.url, entry]),
    );
    expect([...last.values()].map((entry) => [entry.status, entry.maybeCreated])).toEqual(Array(posts).fill(['failed', true]));

    front.failing = false;
    const resumed = await runCli(argv, { env, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trim().split('\n')).toHaveLength(URLS.length);
    const stored = fixture.server
      .reports()
      .map((report) => report.url)
      .filter((url) => url.startsWith('failing.example/'));
    expect(stored.sort()).toEqual(URLS.map((url) => url.replace('https://', '')).sort());
  }, 150_000);
});
