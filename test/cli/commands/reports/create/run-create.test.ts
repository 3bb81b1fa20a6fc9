// What a create run hands its caller (CreateResult.urls, made by runBulkCreate): each URL's outcome as a value, in input order.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedPort } from '../../../../helpers/raw-server.js';
import { runReportsCreate } from '../../../../../src/cli/commands/reports/create/create.js';
import { planReportsCreate } from '../../../../../src/cli/commands/reports/create/plan.js';
import type { UrlOutcome } from '../../../../../src/cli/commands/reports/create/run-create.js';
import { ExitCode } from '../../../../../src/cli/runtime/exit-codes.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { withContext } from '../../../../helpers/run.js';
import { scratchMaker } from '../../../../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, unreachable: ['down.example'] });
const scratch = scratchMaker('rsapi-run-create-');

/** `reports create URLS --journal PATH`, called in-process: its exit code and what its result says of each URL. */
async function create(env: Record<string, string>, urls: string[], journal: string): Promise<{ code: number; urls: readonly UrlOutcome[] | undefined }> {
  let outcomes: readonly UrlOutcome[] | undefined;
  const code = await withContext(env, async (ctx) => {
    const result = await runReportsCreate(ctx, planReportsCreate(ctx, { urls, concurrency: 4, journal }));
    outcomes = result.urls;
    return result.code;
  });
  return { code, urls: outcomes };
}

describe('a create run hands back what became of each URL', () => {
  it('created with its report, failed with its message and exit code, created by an earlier run of the journal with the report read back', async () => {
    const fixture = await mock();
    const journal = join(scratch(), 'run.journal');
    // The first run creates one page; the other's host the service cannot reach (422), so the journal stays open.
    const first = await create(fixture.env, ['https://example.com/earlier', 'https://down.example/'], journal);
    expect(first.code).toBe(ExitCode.validation);
    const earlier = first.urls?.[0];
    expect(earlier).toMatchObject({ url: 'https://example.com/earlier', status: 'created', recovered: false, report: { url: 'example.com/earlier' } });
    const earlierId = earlier?.status === 'created' ? earlier.report.id : undefined;
    expect(earlierId).toBeDefined();

    const second = await create(fixture.env, ['https://example.com/earlier', 'https://example.com/new', 'https://down.example/'], journal);
    expect(second.code).toBe(ExitCode.validation);
    expect(second.urls).toEqual([
      { url: 'https://example.com/earlier', status: 'created earlier', id: earlierId, report: expect.objectContaining({ id: earlierId }) },
      { url: 'https://example.com/new', status: 'created', recovered: false, report: expect.objectContaining({ url: 'example.com/new' }) },
      { url: 'https://down.example/', status: 'failed', message: expect.stringMatching(/\(HTTP 422, POST \/reports\)$/), code: ExitCode.validation },
    ]);
    // Each run sent only what its journal had not created.
    expect(fixture.server.requests.filter((request) => request.method === 'POST')).toHaveLength(4);
  });

  it('a URL the run never sent (the service out of reach first) is not started, not failed', async () => {
    const port = await refusedPort();
    const env = { RSAPI_BASE_URL: `http://127.0.0.1:${port}`, RSAPI_API_KEY: 'k' };
    const urls = Array.from({ length: 6 }, (_, index) => `https://example.com/gone-${index}`);
    const { urls: outcomes } = await create(env, urls, join(scratch(), 'gone.journal'));
    // Four in flight at once (--concurrency 4) fail; none is started after.
    expect(outcomes?.slice(0, 4)).toEqual(
      urls.slice(0, 4).map((url) => ({ url, status: 'failed', message: expect.stringMatching(/connection refused/), code: ExitCode.network })),
    );
    expect(outcomes?.slice(4)).toEqual(urls.slice(4).map((url) => ({ url, status: 'not started' })));
  });
});
