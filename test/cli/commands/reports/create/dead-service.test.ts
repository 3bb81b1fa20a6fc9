// A service that goes away mid-run (or answers 503 to everything): the bulk run stops within seconds (not a settle window per URL), says why once
// per cause, exits 7, and its journal resumes exactly once the service is back (no URL lost, none created twice).
import { readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { scratchMaker } from '../../../../helpers/scratch.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';
import { runOnTerminal } from '../../../../helpers/terminal.js';
import { sendJson, startRawServer } from '../../../../helpers/raw-server.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A TCP relay in front of the mock: the "service" rsapi talks to. `kill()` drops every connection and stops
 * listening (connections are refused); `revive()` listens on the same port again, in front of the same mock,
 * so the restarted service has the same reports.
 */
async function relay(targetPort: number): Promise<{ port: number; kill(): Promise<void>; revive(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const serve = (): Server =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  let server = serve();
  const port = await listen(server, 0);
  const kill = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  cleanups.push(() => (server.listening ? kill() : undefined));
  return {
    port,
    kill,
    async revive() {
      server = serve();
      await listen(server, port);
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const URLS = Array.from({ length: 30 }, (_, index) => `https://dead.example/page/${index + 1}`);

const scratch = scratchMaker('rsapi-dead-service-', { 'urls.txt': `${URLS.join('\n')}\n` });

/** The URL list in a fresh scratch directory, and the journal beside it. */
function urlsAndJournal(): { file: string; journal: string } {
  const dir = scratch();
  return { file: join(dir, 'urls.txt'), journal: join(dir, 'urls.journal') };
}

describe('a service that goes away mid-run', () => {
  it('the run ends within seconds, one line per cause, exit 7; the journal resumes exactly at the service restarted', async () => {
    // Each create is stored 300 ms after it arrives (an audit), so creates are under way when the service goes.
    const fixture = await mock({ storeDelayMs: 300 });
    const front = await relay(Number(new URL(fixture.server.url).port));
    const env = { ...fixture.env, RSAPI_BASE_URL: fixture.server.url.replace(/:\d+/, `:${front.port}`) };
    const { file, journal } = urlsAndJournal();
    const posts = () => fixture.server.requests.filter((request) => request.method === 'POST').length;
    const stored = () =>
      fixture.server
        .reports()
        .map((report) => report.url)
        .filter((url) => url.startsWith('dead.example/'));
    // The run's waits (backoff, the watch after a lost answer) are a FakeClock's: slept in virtual time, whose sum from
    // the kill on is an upper bound of how long the run went on (the service's audit and the relay are real).
    const clock = new FakeClock();
    let killedAt = 0;
    let sleptAtKill = 0;
    const watcher = setInterval(() => {
      if (killedAt === 0 && posts() >= 6) {
        killedAt = performance.now();
        sleptAtKill = clock.slept;
        void front.kill();
      }
    }, 5);
    cleanups.push(() => clearInterval(watcher));
    // The default create timeout (120 s) and the default retry backoff: the settle window a lost answer would watch.
    const run = await runInProcess({
      argv: ['reports', 'create', '--from-file', file, '--journal', journal, '--concurrency', '4', '-o', 'ndjson'],
      env,
      clock,
    });
    const endedAt = performance.now();
    clearInterval(watcher);
    expect(killedAt).toBeGreaterThan(0);
    expect(endedAt - killedAt).toBeLessThan(6_000);
    expect(clock.slept - sleptAtKill).toBeLessThan(6_000);
    expect(run.code, run.stderr).toBe(7);

    const entries = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; status: string; maybeCreated?: boolean });
    const last = new Map(entries.map((entry) => [entry.url, entry]));
    const created = [...last.values()].filter((entry) => entry.status === 'created').length;
    const unsettled = [...last.values()].filter((entry) => entry.maybeCreated === true).length;
    const notStarted = URLS.length - last.size;
    expect(unsettled).toBeGreaterThan(0);
    expect(notStarted).toBeGreaterThan(10);
    expect(run.stdout.trim().split('\n').filter(Boolean)).toHaveLength(created);
    // Said once per cause, with counts; no line per URL.
    expect(run.stderr).toContain(
      `rsapi: the service stopped answering (connection refused); ${notStarted} URLs not started, ${unsettled} unsettled: resume with --journal ${journal}`,
    );
    expect(run.stderr).toMatch(
      new RegExp(`rsapi: ${unsettled} URLs? unsettled: the answer was lost, then the service stopped answering \\(connection refused\\)`),
    );
    expect(run.stderr).toContain(`not started ${notStarted} (the service stopped answering (connection refused))`);
    expect(run.stderr.split('\n').filter((line) => line.includes('dead.example/page/'))).toEqual([]);
    expect(run.stderr.trim().split('\n').length).toBeLessThanOrEqual(5);

    // The service comes back with its reports (the same mock): the journal finishes the job, nothing twice.
    await front.revive();
    // The creates under way when the service went are stored once its (real) audit ends: the resume runs after that (and
    // with audits that take no time), so its watch for the unsettled ones can pass on a FakeClock; a resume that did not
    // look them up would create them twice.
    await until(() => stored().length === posts());
    fixture.server.options.storeDelayMs = 0;
    const resumed = await runInProcess({ argv: ['reports', 'create', '--from-file', file, '--journal', journal, '--timeout', '2', '-o', 'ndjson'], env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(stored().sort()).toEqual(URLS.map((url) => url.replace('https://', '')).sort());
  });

  it('a service refusing from the start: the first URL fails, the rest are not started, one line for the cause', async () => {
    const fixture = await mock();
    const front = await relay(Number(new URL(fixture.server.url).port));
    await front.kill();
    const env = { ...fixture.env, RSAPI_BASE_URL: fixture.server.url.replace(/:\d+/, `:${front.port}`) };
    const { file, journal } = urlsAndJournal();
    const run = await runInProcess({ argv: ['reports', 'create', '--from-file', file, '--journal', journal, '--concurrency', '1'], env });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('rsapi: 1 URL failed: the service could not be reached (connection refused)');
    expect(run.stderr).toContain(`rsapi: the service stopped answering (connection refused); ${URLS.length - 1} URLs not started, 0 unsettled`);
    expect(run.stderr.split('\n').filter((line) => line.includes('dead.example/page/'))).toEqual([]);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('the built binary on a terminal (progress bar live): ends within seconds of the service going, says why, exit 7', async () => {
    const fixture = await mock({ storeDelayMs: 300 });
    const front = await relay(Number(new URL(fixture.server.url).port));
    const { file, journal } = urlsAndJournal();
    const env = { ...fixture.env, RSAPI_BASE_URL: fixture.server.url.replace(/:\d+/, `:${front.port}`), TERM: 'xterm' };
    let killedAt = 0;
    const watcher = setInterval(() => {
      if (killedAt === 0 && fixture.server.requests.filter((request) => request.method === 'POST').length >= 6) {
        killedAt = performance.now();
        void front.kill();
      }
    }, 5);
    cleanups.push(() => clearInterval(watcher));
    const run = await runOnTerminal(['reports', 'create', '--from-file', file, '--journal', journal, '-o', 'ndjson'], {
      env,
      size: { columns: 100, rows: 30 },
      timeoutMs: 25_000,
    });
    const endedAt = performance.now();
    clearInterval(watcher);
    expect(killedAt).toBeGreaterThan(0);
    expect(endedAt - killedAt).toBeLessThan(8_000);
    expect(run.code, run.screen).toBe(7);
    expect(run.screen.replace(/\r?\n {2}/g, ' ')).toMatch(
      /rsapi: the service stopped answering \(connection refused\); \d+ URLs not started, \d+ unsettled: resume with --journal/,
    );
    expect(run.screen).not.toMatch(/rsapi: https:\/\/dead\.example/);
  }, 30_000);
});

describe('a service answering 503 to everything (creates and look-ups alike)', () => {
  it('a window shorter than the breaker needs: the run ends at its end, the URLs sent unsettled, the rest not started; exit 8 names the journal', async () => {
    const service = await startRawServer((_request, response) => sendJson(response, 503, { message: 'Service Unavailable' }));
    cleanups.push(() => service.close());
    const { file, journal } = urlsAndJournal();
    const env = { RSAPI_BASE_URL: service.url, RSAPI_API_KEY: 'key-503-service' };
    // Every wait of the run (the watches after the 503s) is virtual: their sum is how long the run would have taken.
    const clock = new FakeClock();
    const run = await runInProcess({
      argv: ['reports', 'create', '--from-file', file, '--journal', journal, '--concurrency', '2', '--retries', '0', '--timeout', '3', '-o', 'ndjson'],
      env,
      clock,
    });
    expect(run.code, run.stderr).toBe(8);
    const posts = service.requests.filter((request) => request.method === 'POST');
    // Each URL sent was watched (looked up more than once), then left unsettled; no other URL was started.
    expect(posts).toHaveLength(2);
    expect(service.requests.length).toBeGreaterThan(posts.length * 2);
    // The watches ran side by side, each within its window (3 s, the create timeout): not one window per URL.
    expect(clock.slept).toBeLessThanOrEqual(2 * 3_000);
    expect(run.stderr).toContain(
      `rsapi: the service stopped answering (it answers HTTP 503); ${URLS.length - 2} URLs not started, 2 unsettled: resume with --journal ${journal}`,
    );
    expect(run.stderr).toContain('rsapi: 2 URLs unsettled: the outcome of the create is unknown and every look-up for its report failed (it answers HTTP 503)');
    const entries = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; status: string; maybeCreated?: boolean });
    expect(entries.filter((entry) => entry.status === 'failed').map((entry) => entry.maybeCreated)).toEqual([true, true]);
  });
});
