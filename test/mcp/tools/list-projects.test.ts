// list_projects called in-process (callTool, as the server does): its search reaches the service as `projects list`'s does.
import { describe, expect, it } from 'vitest';
import { callTool, offeredTools } from '../../../src/mcp/server.js';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess, withContext } from '../../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, seed: 3 });

describe('list_projects', () => {
  it('a Unicode host in search is sent in punycode, as create stored it and as the CLI sends it', async () => {
    const fixture = await mock();
    const created = await runInProcess({ argv: ['reports', 'create', 'https://www.bücher.de/', '-q'], env: fixture.env });
    expect(created.code, created.stderr).toBe(0);
    const from = fixture.server.requests.length;
    const result = await withContext(fixture.env, (server) =>
      callTool(server, offeredTools({ allowWrite: false }), 'list_projects', { search: 'bücher' }, new AbortController().signal),
    );
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    const rows = (JSON.parse(result.content[0]?.text ?? '') as { rows: { project: string }[] }).rows;
    expect(rows.map((row) => row.project)).toEqual(['xn--bcher-kva.de']);
    expect(fixture.server.requests.slice(from).map((request) => request.query.search)).toEqual(['xn--bcher-kva']);
  });
});
