// create_reports called in-process (callTool, as the server does): each URL's status in its answer comes from what the run
// says became of it.
import { describe, expect, it } from 'vitest';
import { refusedPort } from '../../helpers/raw-server.js';
import { callTool, offeredTools } from '../../../src/mcp/server.js';
import { mockPerTest } from '../../helpers/mock.js';
import { withContext } from '../../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, unreachable: ['down.example'] });

interface Answer {
  summary: string;
  reports: { url: string; status: string; id?: unknown; stored_url?: string }[];
}

/** One create_reports call of a server with writes allowed, against the service at `env`: its answer parsed. */
async function createReports(env: Record<string, string>, urls: string[]): Promise<{ isError: boolean; value: Answer }> {
  const result = await withContext(env, (server) =>
    callTool(server, offeredTools({ allowWrite: true }), 'create_reports', { urls }, new AbortController().signal),
  );
  return { isError: result.isError === true, value: JSON.parse(result.content[0]?.text ?? '') as Answer };
}

describe('create_reports', () => {
  it('says which URL was created (with its report) and which failed', async () => {
    const fixture = await mock();
    const answer = await createReports(fixture.env, ['https://example.com/made', 'https://down.example/']);
    expect(answer.isError).toBe(true);
    expect(answer.value.summary).toBe('created 1, created by an earlier call 0, unsettled 0, failed 1');
    const [made, failed] = answer.value.reports;
    expect(made).toEqual({
      ...{ url: 'https://example.com/made', status: 'created', id: expect.any(Number), score: expect.any(Number) },
      ...{ result: expect.any(String), failed: expect.any(Array), stored_url: 'example.com/made' },
    });
    // The fields in the order every answer gives them: the report's row between the URL given and the URL stored.
    expect(Object.keys(made ?? {})).toEqual(['url', 'status', 'id', 'score', 'result', 'failed', 'stored_url']);
    expect(failed).toEqual({ url: 'https://down.example/', status: 'failed' });
  });

  it('says a URL the run never sent (the service out of reach first) was not started, not that it failed', async () => {
    const port = await refusedPort();
    const urls = Array.from({ length: 6 }, (_, index) => `https://example.com/gone-${index}`);
    const answer = await createReports({ RSAPI_BASE_URL: `http://127.0.0.1:${port}`, RSAPI_API_KEY: 'k' }, urls);
    expect(answer.isError).toBe(true);
    expect(answer.value.summary).toBe('created 0, created by an earlier call 0, unsettled 0, failed 4, not started 2');
    expect(answer.value.reports.map((report) => report.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'not started', 'not started']);
  });
});
