// --all fetching a few pages at a time when the service tells how many there are: order kept, bounded, polite after a 429.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../../helpers/run.js';
import { sendJson, startRawServer, type RawServer, type SeenRequest } from '../../../../helpers/raw-server.js';
import { systemClock, type Clock } from '../../../../../src/api/http/clock.js';
import { VirtualClock } from '../../../../helpers/virtual-clock.js';

const TOTAL = 1_000;
const KEY = 'paging-ahead-key';

interface Arrival {
  page: number;
  at: number;
  status: number;
}

/**
 * A length-aware list of TOTAL records (ids 1..TOTAL) answering each page after `delayMs`, counting the requests in
 * flight at once; `answer429` picks arrivals to refuse with 429 and Retry-After: 1. Arrivals and delays are timed on
 * `clock` (real time by default; a test that shares a VirtualClock with the run waits no real time).
 */
async function pagedService(options: { delayMs: number; lastPage?: boolean; answer429?: (page: number, attempt: number) => boolean; clock?: Clock }) {
  const clock = options.clock ?? systemClock;
  let inFlight = 0;
  let maxInFlight = 0;
  const arrivals: Arrival[] = [];
  const attempts = new Map<number, number>();
  const server: RawServer = await startRawServer(async (request: SeenRequest, response: ServerResponse) => {
    const query = new URL(request.url, 'http://127.0.0.1').searchParams;
    const page = Number(query.get('page') ?? '1');
    const perPage = Number(query.get('per_page') ?? '10');
    const attempt = (attempts.get(page) ?? 0) + 1;
    attempts.set(page, attempt);
    if (options.answer429?.(page, attempt)) {
      arrivals.push({ page, at: clock.now(), status: 429 });
      sendJson(response, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '1' });
      return;
    }
    arrivals.push({ page, at: clock.now(), status: 200 });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await clock.sleep(options.delayMs);
    inFlight--;
    const lastPage = Math.ceil(TOTAL / perPage);
    const data = Array.from({ length: Math.max(0, Math.min(perPage, TOTAL - (page - 1) * perPage)) }, (_, index) => ({
      id: (page - 1) * perPage + index + 1,
      url: `https://example.com/${(page - 1) * perPage + index + 1}`,
    }));
    const next = page < lastPage ? `${server.url}/api/v1/reports?page=${page + 1}` : null;
    const meta =
      options.lastPage === false ? { current_page: page, per_page: perPage } : { current_page: page, last_page: lastPage, per_page: perPage, total: TOTAL };
    sendJson(response, 200, { data, links: { next }, meta });
  });
  servers.push(server);
  return { server, arrivals, maxInFlight: () => maxInFlight, env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: KEY } };
}

const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function ids(stdout: string): number[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { id: number }).id);
}

const inOrder = Array.from({ length: TOTAL }, (_, index) => index + 1);

describe('reports list --all when the service tells the number of pages', () => {
  it('fetches a few pages at a time, at most 4, and writes every record once, in order', async () => {
    const service = await pagedService({ delayMs: 40 });
    const result = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'ndjson'], env: service.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(inOrder);
    expect(service.arrivals.map((arrival) => arrival.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(service.maxInFlight()).toBeGreaterThan(1);
    expect(service.maxInFlight()).toBeLessThanOrEqual(4);
  });

  it('keeps order with small pages arriving out of order', async () => {
    const service = await pagedService({ delayMs: 5 });
    const result = await runInProcess({ argv: ['reports', 'list', '--all', '--per-page', '25', '-o', 'ndjson'], env: service.env });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(inOrder);
    expect(service.arrivals).toHaveLength(TOTAL / 25);
    expect(service.maxInFlight()).toBeLessThanOrEqual(4);
  });

  it('--limit asks for no page past the one that reaches it', async () => {
    const service = await pagedService({ delayMs: 5 });
    const result = await runInProcess({ argv: ['reports', 'list', '--limit', '230', '--per-page', '50', '-o', 'ndjson'], env: service.env });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(inOrder.slice(0, 230));
    expect(service.arrivals.map((arrival) => arrival.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a 429 mid-way: that page is asked again after Retry-After, no other request starts meanwhile, the output is whole', async () => {
    // Pages 2-4 are answered 200 ms after the 429 of page 5: the pages after them would be asked for then. The service
    // and the run share a virtual time: the second asked for costs no real time.
    const clock = new VirtualClock();
    const service = await pagedService({ delayMs: 200, answer429: (page, attempt) => page === 5 && attempt === 1, clock });
    const result = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'ndjson'], env: service.env, clock });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(inOrder);
    const refused = service.arrivals.find((arrival) => arrival.status === 429);
    expect(refused?.page).toBe(5);
    const pages = service.arrivals.filter((arrival) => arrival.status === 200).map((arrival) => arrival.page);
    expect(pages.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Requests sent with page 5 may arrive just after its 429; none is sent during the second it asked for.
    const during = service.arrivals.filter((arrival) => arrival.at > refused!.at + 150 && arrival.at < refused!.at + 900);
    expect(during).toEqual([]);
    const retried = service.arrivals.find((arrival) => arrival.page === 5 && arrival.status === 200);
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(950);
  });

  it('without last_page it follows the pages one after the other', async () => {
    const service = await pagedService({ delayMs: 5, lastPage: false });
    const result = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'ndjson'], env: service.env });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(inOrder);
    expect(service.maxInFlight()).toBe(1);
    expect(service.arrivals.map((arrival) => arrival.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
