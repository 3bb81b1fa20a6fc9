// list_reports called in-process (callTool, as the server does): its filters reach the service as `reports list`'s do.
import { describe, expect, it } from 'vitest';
import { callTool, offeredTools } from '../../../src/mcp/server.js';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess, withContext } from '../../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, seed: 3 });

describe('list_reports', () => {
  it('a Unicode host in search or project is sent in punycode, as create stored it and as the CLI sends it', async () => {
    const fixture = await mock();
    const created = await runInProcess({ argv: ['reports', 'create', 'https://例え.jp/パス', 'https://www.bücher.de/', '-q'], env: fixture.env });
    expect(created.code, created.stderr).toBe(0);
    const from = fixture.server.requests.length;
    const list = async (args: Record<string, unknown>) => {
      const result = await withContext(fixture.env, (server) =>
        callTool(server, offeredTools({ allowWrite: false }), 'list_reports', args, new AbortController().signal),
      );
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      return (JSON.parse(result.content[0]?.text ?? '') as { rows: { url: string }[] }).rows.map((row) => row.url);
    };
    expect(await list({ project: '例え.jp' })).toEqual(['xn--r8jz45g.jp/%E3%83%91%E3%82%B9']);
    expect(await list({ search: 'bücher' })).toEqual(['xn--bcher-kva.de']);
    expect(fixture.server.requests.slice(from).map((request) => request.query.project ?? request.query.search)).toEqual(['xn--r8jz45g.jp', 'xn--bcher-kva']);
  });
});
