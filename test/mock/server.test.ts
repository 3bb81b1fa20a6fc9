import { Agent, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startMockServer, type MockOptions, type MockServer } from '../../src/mock/server.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { as, call, seededRandom } from './http.js';

/** Runs `body` against a fresh server, closed afterwards whatever happens. */
async function withServer(options: MockOptions, body: (server: MockServer) => Promise<void>): Promise<void> {
  const server = await startMockServer({ port: 0, seed: 12, ...options });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await action();
  return Date.now() - started;
}

describe('rate limit', () => {
  it('answers 429 with Retry-After past the limit, then lets requests through after the window', async () => {
    // The window runs on a FakeClock: waiting it out is a sleep of virtual time.
    const clock = new FakeClock();
    await withServer({ rateLimit: 3, rateLimitWindowMs: 1000, clock }, async (server) => {
      const allowed = [await call(server, 'GET', '/reports'), await call(server, 'GET', '/reports'), await call(server, 'GET', '/reports')];
      expect(allowed.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(allowed.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
      expect(allowed[0]?.headers.get('x-ratelimit-limit')).toBe('3');

      const refused = await call(server, 'GET', '/reports');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

      await clock.sleep(1100);
      expect((await call(server, 'GET', '/reports')).status).toBe(200);
    });
  });

  it('gives Retry-After in whole seconds until the window ends', async () => {
    await withServer({ rateLimit: 1, rateLimitWindowMs: 60_000 }, async (server) => {
      await call(server, 'GET', '/reports');
      const refused = await call(server, 'GET', '/reports');
      expect(refused.headers.get('retry-after')).toMatch(/^(59|60)$/);
    });
  });

  it('counts requests before checking the key', async () => {
    await withServer({ rateLimit: 1, rateLimitWindowMs: 60_000 }, async (server) => {
      expect((await call(server, 'GET', '/reports', { key: 'wrong' })).status).toBe(401);
      expect((await call(server, 'GET', '/reports')).status).toBe(429);
    });
  });

  it('is off by default', async () => {
    await withServer({}, async (server) => {
      const statuses = await Promise.all(Array.from({ length: 30 }, () => call(server, 'GET', '/projects').then((a) => a.status)));
      expect(new Set(statuses)).toEqual(new Set([200]));
    });
  });
});

describe('failRate', () => {
  it('answers 503 to everything at 1, before the key check and before storing anything', async () => {
    await withServer({ failRate: 1 }, async (server) => {
      const before = server.reports().length;
      const created = await call(server, 'POST', '/reports', { form: { url: 'https://never.example/' } });
      expect(created.status).toBe(503);
      expect(created.body).toEqual({ message: 'Service Unavailable' });
      expect(server.reports()).toHaveLength(before);
      expect((await call(server, 'GET', '/reports', { key: 'wrong' })).status).toBe(503);
    });
  });

  it('fails a repeatable fraction of requests with a seeded random source', async () => {
    const statusesWith = async (seed: number): Promise<number[]> => {
      const statuses: number[] = [];
      await withServer({ failRate: 0.5, random: seededRandom(seed) }, async (server) => {
        for (let index = 0; index < 30; index += 1) statuses.push((await call(server, 'GET', '/reports')).status);
      });
      return statuses;
    };
    const first = await statusesWith(42);
    expect(new Set(first)).toEqual(new Set([200, 503]));
    expect(await statusesWith(42)).toEqual(first);
  });

  it('can be changed between requests', async () => {
    await withServer({}, async (server) => {
      server.options.failRate = 1;
      expect((await call(server, 'GET', '/reports')).status).toBe(503);
      server.options.failRate = 0;
      expect((await call(server, 'GET', '/reports')).status).toBe(200);
    });
  });
});

describe('after-create faults', () => {
  it('dropAfterCreate=1 stores the report, then destroys the socket without an answer', async () => {
    await withServer({ dropAfterCreate: 1 }, async (server) => {
      await expect(call(server, 'POST', '/reports', { form: { url: 'https://dropped.example/' } })).rejects.toThrow();
      expect(server.reports().filter((report) => report.url === 'https://dropped.example/')).toHaveLength(1);
      expect(server.requests.at(-1)).toMatchObject({ method: 'POST', status: undefined });
      expect((await call(server, 'GET', '/reports')).status).toBe(200);
    });
  });

  it('failAfterCreate=1 stores the report, then answers 503', async () => {
    await withServer({ failAfterCreate: 1 }, async (server) => {
      const answer = await call(server, 'POST', '/reports', { form: { url: 'https://failed.example/' } });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ message: 'Service Unavailable' });
      expect(server.reports().filter((report) => report.url === 'https://failed.example/')).toHaveLength(1);
      expect(server.requests.at(-1)?.status).toBe(503);
    });
  });

  it('leave other requests and rejected creations alone', async () => {
    await withServer({ dropAfterCreate: 1, failAfterCreate: 1 }, async (server) => {
      expect((await call(server, 'GET', '/reports')).status).toBe(200);
      expect((await call(server, 'POST', '/reports', { form: { url: 'nope' } })).status).toBe(422);
    });
  });
});

describe('stalls, latency and shutdown', () => {
  it('stallRate=1 never answers, and close() still finishes promptly', async () => {
    const server = await startMockServer({ port: 0, stallRate: 1 });
    const pending = call(server, 'GET', '/reports');
    const outcome = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await waitUntil(() => server.requests.length === 1);
    expect(await Promise.race([outcome, sleep(300).then(() => 'still waiting')])).toBe('still waiting');
    expect(await timed(() => server.close())).toBeLessThan(1000);
    expect(await outcome).toBe('failed');
    expect(server.requests[0]?.status).toBeUndefined();
  });

  it('adds latencyMs to every request', async () => {
    await withServer({ latencyMs: 150 }, async (server) => {
      const slow = await timed(() => call(server, 'GET', '/reports/1'));
      expect(slow).toBeGreaterThanOrEqual(140);
      server.options.latencyMs = 0;
      // Against the slow one, not a fixed figure: a loaded machine slows both requests alike, not by the latency.
      expect(await timed(() => call(server, 'GET', '/reports/1'))).toBeLessThan(slow - 100);
    });
  });

  it('many requests waiting out latencyMs at once make Node warn of no listener leak (`rsapi mock-server --latency` under a bulk create)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      await withServer({ latencyMs: 50 }, async (server) => {
        const answers = await Promise.all(Array.from({ length: 16 }, () => call(server, 'GET', '/reports/1')));
        expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
      });
      // Node emits its warnings on the next tick.
      await sleep(10);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('close() does not wait for a pending latency delay, and cancels it', async () => {
    const pendingTimers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const server = await startMockServer({ port: 0, latencyMs: 30_000 });
    const outcome = call(server, 'GET', '/reports').then(
      () => 'answered',
      () => 'failed',
    );
    await waitUntil(() => server.requests.length === 1);
    const timersWhileDelayed = pendingTimers();
    expect(await timed(() => server.close())).toBeLessThan(1000);
    expect(await outcome).toBe('failed');
    // The 30-second latency timer must not outlive the server (it would keep a CLI process alive).
    expect(pendingTimers()).toBeLessThan(timersWhileDelayed);
  });

  it('serves several requests over one keep-alive connection, and close() does not hang on it', async () => {
    const server = await startMockServer({ port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string): Promise<{ status: number; reused: boolean; body: string }> =>
      new Promise((resolve, reject) => {
        const outgoing = httpRequest(`${server.baseUrl}${path}`, { agent, headers: { Authorization: `Bearer ${server.apiKey}` } }, (incoming) => {
          let body = '';
          incoming.setEncoding('utf8');
          incoming.on('data', (chunk: string) => (body += chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, reused: outgoing.reusedSocket, body }));
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    try {
      const answers = [await get('/reports/1'), await get('/reports/2'), await get('/projects')];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers.map((answer) => answer.reused)).toEqual([false, true, true]);
      expect(as<{ data: { id: number } }>(JSON.parse(answers[1]?.body ?? '{}')).data.id).toBe(2);
      expect(await timed(() => server.close())).toBeLessThan(1000);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('close() can be called twice', async () => {
    const server = await startMockServer({ port: 0 });
    await server.close();
    await expect(server.close()).resolves.toBeUndefined();
  });
});
