// Lost answers and resumes across runs against the mock in the phpRank flavor: redirected pages keep their own reports, a killed run's resume watches as long as it would have, and no resume creates a second report.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../mock/http.js';
import { systemClock } from '../../../../../src/api/http/clock.js';
import { BIN, cleanEnv, NODE } from '../../../../helpers/cli.js';
import { startMock, type MockFixture } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';
import { historyLocation } from '../../../../../src/history/location.js';
import { openHistory } from '../../../../../src/history/open.js';
import { scratchMaker } from '../../../../helpers/scratch.js';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const scratch = scratchMaker('rsapi-resume-');

/** A site on loopback whose pages under /old/ moved to /new/ (301), as the phpRank mock assumes of an `old` segment. */
async function movedSite(): Promise<{ origin: string; probes: string[] }> {
  const probes: string[] = [];
  const server: Server = createServer((request, response) => {
    probes.push(`${request.method} ${request.url}`);
    if (request.headers.authorization !== undefined) response.writeHead(500).end('a key was sent to the page');
    else if (request.url?.includes('/old/')) response.writeHead(301, { location: request.url.replace('/old/', '/new/') }).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<html>page</html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, probes };
}

async function phpRank(options: Parameters<typeof startMock>[0] = {}): Promise<MockFixture & { seeded: number; posts: () => number }> {
  const fixture = await startMock({ flavor: 'phprank', seed: 12, rateLimit: 10_000, ...options });
  closers.push(() => fixture.close());
  const seeded = fixture.server.reports().length;
  return { ...fixture, seeded, posts: () => fixture.server.requests.filter((request) => request.method === 'POST').length };
}

function urlFile(urls: string[]): string {
  const file = join(scratch(), 'urls.txt');
  writeFileSync(file, `${urls.join('\n')}\n`);
  return file;
}

/** Input URL -> the stored URL of the report it was given, from -o json output (a list in input order). */
function given(stdout: string, urls: string[]): Map<string, string> {
  const records = JSON.parse(stdout) as { url: string }[];
  return new Map(urls.map((url, index) => [url, records[index]?.url ?? '']));
}

const onLoopback = { RSAPI_FOLLOW_PAGES: undefined };

describe('slow audits whose answers are lost, pages that redirect (old/X -> new/X)', () => {
  it.each([2, 6])(
    '%i URLs at concurrency 4, their redirects retraced by rsapi: each gets the report of its own final page, none another one',
    async (count) => {
      const site = await movedSite();
      const mock = await phpRank({ storeDelayMs: 500 });
      const urls = Array.from({ length: count }, (_, index) => `${site.origin}/old/${String.fromCharCode(97 + index)}`);
      const run = await runInProcess({
        argv: ['reports', 'create', '--from-file', urlFile(urls), '--timeout', '0.2', '--concurrency', '4', '-o', 'json'],
        env: { ...mock.env, ...onLoopback },
        clock: systemClock,
      });
      expect(run.code).toBe(0);
      const host = new URL(site.origin).host;
      for (const [url, stored] of given(run.stdout, urls)) expect(stored).toBe(`${host}${new URL(url).pathname.replace('/old/', '/new/')}`);
      expect(run.stderr).toContain(`created ${count} (${count} found after a lost answer)`);
      expect(run.stderr).toMatch(/found under the URL the page redirects to/);
      expect(mock.posts()).toBe(count);
      expect(mock.server.reports()).toHaveLength(mock.seeded + count);
      expect(site.probes.some((probe) => probe.startsWith('HEAD /old/'))).toBe(true);
    },
  );

  it('2 URLs whose redirects rsapi cannot retrace (RSAPI_FOLLOW_PAGES=0): both unsettled rather than swapped, and every resume keeps them so, creating nothing', async () => {
    const mock = await phpRank({ storeDelayMs: 400 });
    const urls = ['https://www.acme.example/old/a', 'https://www.acme.example/old/b'];
    const journal = join(scratch(), 'journal.ndjson');
    const argv = ['reports', 'create', '--from-file', urlFile(urls), '--timeout', '0.1', '--concurrency', '2', '--journal', journal, '-o', 'ndjson'];
    const first = await runInProcess({ argv, env: mock.env, clock: systemClock });
    expect(first.code).toBe(7);
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain('unsettled 2');
    expect(first.stderr).not.toMatch(/-> report/);
    const resumed = await runInProcess({ argv, env: mock.env, clock: systemClock });
    expect(resumed.code).toBe(7);
    expect(resumed.stdout).toBe('');
    expect(resumed.stderr).toMatch(/2 reports created since it was sent could be its page's after a redirect/);
    expect(mock.posts()).toBe(2);
    expect(mock.server.reports()).toHaveLength(mock.seeded + 2);
  });
});

describe('a page that redirects to another URL of the same run (old/x -> new/x, both given)', () => {
  it.each([
    ['retraced by rsapi', onLoopback],
    ['not retraced (RSAPI_FOLLOW_PAGES=0)', {}],
  ])('answers lost, the run resumed until settled (%s): two reports, one per URL, never a third POST', async (_name, follow) => {
    const site = await movedSite();
    const mock = await phpRank({ storeDelayMs: 400 });
    const urls = [`${site.origin}/old/x`, `${site.origin}/new/x`];
    const journal = join(scratch(), 'journal.ndjson');
    const argv = ['reports', 'create', '--from-file', urlFile(urls), '--timeout', '0.1', '--concurrency', '2', '--journal', journal, '-o', 'ndjson'];
    const env = { ...mock.env, ...follow };
    let last = await runInProcess({ argv: [...argv, '--retries', '0'], env, clock: systemClock });
    // Not retraced, the first run cannot tell whose each report is; each resume settles what it can.
    for (let round = 0; round < 3 && !/created 0, failed 0|created 2/.test(last.stderr); round++) last = await runInProcess({ argv, env, clock: systemClock });
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    const created = lines.map((line) => JSON.parse(line) as { url: string; status: string; id?: number }).filter((entry) => entry.status === 'created');
    expect(created.map((entry) => entry.url).sort()).toEqual([...urls].sort());
    expect(new Set(created.map((entry) => entry.id)).size).toBe(2);
    expect(mock.posts()).toBe(2);
    expect(mock.server.reports()).toHaveLength(mock.seeded + 2);
  });
});

describe('a run killed while its POST is held (SIGKILL), then resumed with a shorter --timeout', () => {
  it("the resume watches until the earlier send + that run's timeout + the settle window: the held POST's report is found, none sent again", async () => {
    // The audit takes 4.5 s; the killed run waited up to 6 s for its answer. A resume with --timeout 1 would have
    // watched until the send + 3 s (its own settle window) and sent it again.
    const mock = await phpRank({ storeDelayMs: 4_500 });
    const journal = join(scratch(), 'journal.ndjson');
    const url = 'https://held.example/pricing';
    const child = spawn(NODE, [BIN, 'reports', 'create', url, '--timeout', '6', '--journal', journal], { env: cleanEnv(mock.env), stdio: 'ignore' });
    closers.push(() => child.kill('SIGKILL'));
    while (!(existsSync(journal) && readFileSync(journal, 'utf8').includes('"sending"'))) await delay(10);
    while (mock.posts() === 0) await delay(10);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const sending = JSON.parse(readFileSync(journal, 'utf8').trim().split('\n').at(-1)!) as { status: string; timeoutMs?: number };
    expect(sending).toMatchObject({ status: 'sending', timeoutMs: 6_000 });

    const resumed = await runInProcess({
      argv: ['reports', 'create', url, '--timeout', '1', '--journal', journal, '-o', 'ndjson'],
      env: mock.env,
      clock: systemClock,
    });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ url: 'held.example/pricing' });
    expect(mock.posts()).toBe(1);
    expect(mock.server.reports()).toHaveLength(mock.seeded + 1);
  }, 30_000);
});

describe('a resume that sends after its watch, SIGKILLed while that POST is held, then resumed again at once', () => {
  it('the POST has a `sending` line of its own: the next resume watches from it, finds the held report, and sends nothing', async () => {
    // The first run was killed between its `sending` line and its request (the line alone). The resume watches until that
    // line + 1 s + the settle window (3 s), then sends; the service stores the report 3 s after the POST, which the next
    // resume (--timeout 2) watches for until 5 s after it. Journaled only at the resume's start, that POST left the next
    // resume a window already over: one look-up, nothing yet, a second report.
    const mock = await phpRank({ storeDelayMs: 3_000 });
    const journal = join(scratch(), 'journal.ndjson');
    const url = 'https://resent.example/pricing';
    writeFileSync(journal, `${JSON.stringify({ url, status: 'sending', newestIdBefore: 0, timeoutMs: 1_000, at: new Date().toISOString() })}\n`);
    const argv = ['reports', 'create', url, '--timeout', '2', '--journal', journal];
    const child = spawn(NODE, [BIN, ...argv], { env: cleanEnv(mock.env), stdio: 'ignore' });
    closers.push(() => child.kill('SIGKILL'));
    while (mock.posts() === 0) await delay(10);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { status: string }).status)).toEqual(['sending', 'sending', 'sending']);

    const resumed = await runInProcess({ argv: [...argv, '-o', 'ndjson'], env: mock.env, clock: systemClock });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ url: 'resent.example/pricing' });
    // What the wait is, in words that stay true: this run sent nothing yet, and sends only if no report shows up.
    expect(resumed.stderr).toMatch(
      /shows 1 URL an earlier run sent without learning the outcome: it is looked up first, watching up to \d+ s for a report an earlier send may still make, and sent only if no report shows up/,
    );
    expect(resumed.stderr).toMatch(
      /resent\.example\/pricing: an earlier run sent it and did not learn its outcome: watching up to \d+ s for its report, and sending it only if none shows up/,
    );
    expect(resumed.stderr).not.toContain('it is not sent again');
    expect(mock.posts()).toBe(1);
    expect(mock.server.reports()).toHaveLength(mock.seeded + 1);
  }, 30_000);
});

describe('a resumed run with --record -q: the reports an earlier run created are read back, not held whole', () => {
  it("their readings in the history are those of the reports as the service holds them, passed checks' values hashed as ever", async () => {
    const mock = await phpRank();
    const urls = Array.from({ length: 6 }, (_, i) => `https://resumed.example/page-${i}`);
    // An earlier run of the journal created the first three, then stopped (no `ended` line).
    const first = await runInProcess({ argv: ['reports', 'create', ...urls.slice(0, 3), '-o', 'json'], env: mock.env });
    expect(first.code).toBe(0);
    const journal = join(scratch(), 'journal.ndjson');
    const at = new Date().toISOString();
    const made = JSON.parse(first.stdout) as { id: number }[];
    writeFileSync(
      journal,
      urls
        .slice(0, 3)
        .map((url, i) => `${JSON.stringify({ url, status: 'created', id: made[i]?.id, at })}\n`)
        .join(''),
    );
    const history = join(scratch(), 'history.db');
    const resumed = await runInProcess({
      argv: ['reports', 'create', '--from-file', urlFile(urls), '--journal', journal, '--record', '--history', history, '-q'],
      env: mock.env,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('skipping 3 URLs already created');
    // The same reports read whole by a listing, into another history: every reading the same, checks and all.
    const listed = join(scratch(), 'listed.db');
    expect((await runInProcess({ argv: ['reports', 'list', '--all', '--record', '--history', listed, '-q'], env: mock.env })).code).toBe(0);
    const readings = async (path: string) => {
      const store = await openHistory(historyLocation(path), { readOnly: true });
      try {
        const [run] = await store.runs();
        const snapshots = await store.snapshotsOf(run?.id ?? 0);
        return new Map(snapshots.map((snapshot) => [snapshot.identity, [snapshot.score, snapshot.label, snapshot.checksText]]));
      } finally {
        await store.close();
      }
    };
    const [ofResumed, ofListed] = [await readings(history), await readings(listed)];
    expect(ofResumed.size).toBe(6);
    for (const [identity, reading] of ofResumed) expect(reading, identity).toEqual(ofListed.get(identity));
    expect([...ofResumed.values()].every(([, , checks]) => typeof checks === 'string' && checks.includes('+'))).toBe(true);
  });
});

describe('a service that answers 503 to creates and look-ups alike (--fail-rate 0.6, --retries 0)', () => {
  it('exit 8, as the exit-code table says for a server fault; one short line a URL, what unsettled means and the hint once', async () => {
    // Seeded: which requests fail is the same each run (a run whose every look-up failed stops early, as it should).
    const mock = await phpRank({ failRate: 0.6, random: seededRandom(5) });
    const urls = Array.from({ length: 12 }, (_, index) => `https://flaky.example/p/${index}`);
    const run = await runInProcess({ argv: ['reports', 'create', '--from-file', urlFile(urls), '--retries', '0', '-o', 'json'], env: mock.env });
    expect(run.code).toBe(8);
    const perUrl = run.stderr.split('\n').filter((line) => line.startsWith('rsapi: https://flaky.example/'));
    expect(perUrl.length).toBeGreaterThan(0);
    for (const line of perUrl) expect(line).toMatch(/^rsapi: https:\/\/flaky\.example\/p\/\d+: (unsettled: the service answered 503|server error)/);
    expect(run.stderr).not.toMatch(/the answer was lost/);
    expect(run.stderr.match(/^hint: /gm)?.length ?? 0).toBeLessThanOrEqual(perUrl.filter((line) => !line.includes('unsettled')).length + 1);
    expect(mock.server.reports().length - mock.seeded).toBeLessThanOrEqual(mock.posts());
  });
});
