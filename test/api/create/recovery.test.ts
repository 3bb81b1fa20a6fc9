// A watch for a lost answer that the run gives up on (`giveUp`, a bulk run's breaker): it ends with the look-up under way
// (or one last look-up, when it was waiting), unsure unless that found the report, and never sends the create again.
import { describe, expect, it } from 'vitest';
import { ServerError, UnsettledCreateError } from '../../../src/api/errors.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { clientsAndRawServers, rejectionOf } from '../../helpers/clients.js';
import { sendJson, type RawHandler, type SeenRequest } from '../../helpers/raw-server.js';

const { pool, raw } = clientsAndRawServers();

const posts = (requests: SeenRequest[]) => requests.filter((request) => request.method === 'POST').length;
const gets = (requests: SeenRequest[]) => requests.filter((request) => request.method === 'GET').length;
const EMPTY_LIST = { data: [], links: { next: null }, meta: { current_page: 1, last_page: 1 } };

/** A service answering 503 to everything; `onGet` is told of each look-up (its number, from 1). */
function failingEverything(onGet: (count: number) => void = () => {}): RawHandler {
  let count = 0;
  return (request, response) => {
    if (request.method === 'GET') onGet(++count);
    sendJson(response, 503, { message: 'Service Unavailable' });
  };
}

describe('a watch the run gives up on', () => {
  it('a create answered 503 whose look-ups fail: given up during a look-up, the watch ends with it, unsettled, its service gone', async () => {
    const giveUp = new AbortController();
    const server = await raw(failingEverything((count) => count === 2 && giveUp.abort()));
    const clock = new FakeClock();
    const client = pool.create(server.url, { createTimeoutMs: 120_000, retries: 0, clock });
    const error = await rejectionOf(client.reports.create({ url: 'https://given-up.example/' }, { giveUp: giveUp.signal }));
    expect(error).toBeInstanceOf(UnsettledCreateError);
    expect((error as UnsettledCreateError).serviceGone).toBeInstanceOf(ServerError);
    expect(posts(server.requests)).toBe(1);
    expect(gets(server.requests)).toBe(2);
    // The window was 120 s of look-ups; the watch slept only until the second one.
    expect(clock.slept).toBeLessThan(10_000);
  });

  it('a resume whose look-up finds no report before the earlier window ends: unsure, never sent again', async () => {
    const server = await raw((request, response) => sendJson(response, request.method === 'GET' ? 200 : 201, request.method === 'GET' ? EMPTY_LIST : {}));
    const client = pool.create(server.url, { createTimeoutMs: 120_000, clock: new FakeClock() });
    const giveUp = new AbortController();
    giveUp.abort();
    // The earlier run sent it a moment ago: its report may show up for minutes yet.
    const earlier = { sentAt: Date.now(), lastSeenAt: Date.now(), timeoutMs: 120_000 };
    const error = await rejectionOf(client.reports.createUnlessStored({ url: 'https://resumed.example/' }, earlier, { giveUp: giveUp.signal }));
    expect(error).toBeInstanceOf(UnsettledCreateError);
    expect((error as Error).message).toContain('no report showed up before the run gave up on the service');
    expect(posts(server.requests)).toBe(0);
  });

  it('a report found by the look-up under way when the run gives up is taken', async () => {
    const giveUp = new AbortController();
    const stored = { id: 9, url: 'found.example', created_at: new Date().toISOString() };
    const server = await raw((request, response) => {
      if (request.method === 'POST') return sendJson(response, 503, { message: 'Service Unavailable' });
      // The first look-up fails; the run gives up during the second, which finds the report.
      if (gets(server.requests) === 1) return sendJson(response, 503, { message: 'Service Unavailable' });
      giveUp.abort();
      sendJson(response, 200, { ...EMPTY_LIST, data: [stored] });
    });
    const client = pool.create(server.url, { createTimeoutMs: 120_000, retries: 0, clock: new FakeClock() });
    const result = await client.reports.create({ url: 'https://found.example/' }, { giveUp: giveUp.signal });
    expect(result).toMatchObject({ recovered: true, report: { id: 9 } });
    expect(posts(server.requests)).toBe(1);
  });
});
