// --all and --limit across the three list shapes the service may use, counting the requests made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../../../../src/mock/server.js';
import { runInProcess } from '../../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../../helpers/mock.js';

const envelopes: Envelope[] = ['length-aware', 'simple', 'bare'];
const SEED = 45; // 5 pages of 10, the last one short

describe.each(envelopes)('%s pages', (envelope) => {
  let mock: MockFixture;
  beforeAll(async () => {
    mock = await startMock({ envelope, seed: SEED });
  });
  afterAll(async () => {
    await mock.close();
  });

  async function run(...args: string[]) {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv: ['reports', 'list', '-o', 'ndjson', ...args], env: mock.env });
    const ids = result.stdout.trim()
      ? result.stdout
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { id: number }).id)
      : [];
    return { result, ids, pages: mock.server.requests.slice(before).map((r) => r.query.page ?? '1') };
  }

  it('one page by default', async () => {
    const { ids, pages } = await run();
    expect(ids).toHaveLength(10);
    expect(pages).toEqual(['1']);
  });

  it('--all fetches every page once and every record once', async () => {
    const { ids, pages, result } = await run('--all', '--per-page', '10');
    expect(result.code).toBe(0);
    expect(new Set(ids).size).toBe(SEED);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // Pages asked for together may reach the service in any order.
    expect(pages.sort()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('--limit stops at N records and fetches no page it does not need', async () => {
    const { ids, pages } = await run('--limit', '20', '--per-page', '10');
    expect(ids).toHaveLength(20);
    expect(pages.sort()).toEqual(['1', '2']);
    const eleven = await run('--limit', '11', '--per-page', '10');
    expect(eleven.ids).toHaveLength(11);
    expect(eleven.pages.sort()).toEqual(['1', '2']);
  });

  it('--page with --all starts there and goes to the end', async () => {
    const { ids, pages } = await run('--page', '4', '--all', '--per-page', '10');
    expect(ids).toHaveLength(SEED - 30);
    expect(pages.sort()).toEqual(['4', '5']);
  });

  it('--all without --per-page asks for 100 a page; --limit N for the smallest size that covers N (10, 25, 50, 100)', async () => {
    const before = mock.server.requests.length;
    const all = await run('--all');
    expect(all.ids).toHaveLength(SEED);
    expect(mock.server.requests.slice(before).map((request) => request.query.per_page)).toEqual(['100']);
    for (const [limit, perPage] of [
      ['1', '10'],
      ['3', '10'],
      ['11', '25'],
      ['26', '50'],
      ['51', '100'],
    ]) {
      const from = mock.server.requests.length;
      const limited = await run('--limit', limit as string);
      expect(limited.ids).toHaveLength(Math.min(Number(limit), SEED));
      expect(mock.server.requests.slice(from).map((request) => request.query.per_page)).toEqual([perPage]);
    }
  });

  it('--per-page is sent and respected across pages', async () => {
    const { ids, pages } = await run('--per-page', '25', '--all');
    expect(ids).toHaveLength(SEED);
    expect(pages).toEqual(['1', '2']);
  });

  it('--page keeps the page size it refers to: --page 3 --limit 5 is the first 5 records of page 3 of 10', async () => {
    const all = await run('--all', '--per-page', '10');
    const before = mock.server.requests.length;
    const { ids, pages } = await run('--page', '3', '--limit', '5');
    expect(ids).toEqual(all.ids.slice(20, 25));
    expect(pages).toEqual(['3']);
    expect(mock.server.requests.slice(before).map((request) => request.query.per_page)).toEqual([undefined]);
  });

  it('--page with --limit past the page goes on to the next pages of the same size', async () => {
    const all = await run('--all', '--per-page', '10');
    const { ids, pages } = await run('--page', '3', '--limit', '15');
    expect(ids).toEqual(all.ids.slice(20, 35));
    expect(pages.sort()).toEqual(['3', '4']);
    const sized = await run('--page', '2', '--limit', '5', '--per-page', '25');
    expect(sized.ids).toEqual(all.ids.slice(25, 30));
  });
});

describe('the footer of --page with --limit', () => {
  it('says which page and how many of it were shown', async () => {
    const mock = await startMock({ seed: SEED });
    try {
      const result = await runInProcess({ argv: ['reports', 'list', '--page', '3', '--limit', '5', '-o', 'ndjson'], env: mock.env, tty: { stderr: true } });
      expect(result.stdout.trim().split('\n')).toHaveLength(5);
      expect(result.stderr).toContain('page 3 of 5, 45 reports: 5 shown (--limit 5)');
    } finally {
      await mock.close();
    }
  });
});
