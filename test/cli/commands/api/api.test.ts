// `rsapi api METHOD PATH [-f key=value]`: raw requests under the base URL, raw JSON out, the usual errors and exit codes;
// its plan (planApi): argv -> the call, and every refusal before a request.
import { describe, expect, it } from 'vitest';
import type { HttpMethod } from '../../../../src/api/http/http.js';
import { planApi } from '../../../../src/cli/commands/api/api.js';
import { ExitCode } from '../../../../src/cli/runtime/exit-codes.js';
import { planOf } from '../../../helpers/plan.js';
import { runInProcess } from '../../../helpers/run.js';
import { mockPerTest } from '../../../helpers/mock.js';

const mock = mockPerTest({ seed: 30 });

interface ListBody {
  data: { id: number; url: string; result: string }[];
  meta: { per_page: number };
}

describe('rsapi api', () => {
  it('GET with -f fields sends them as the query and prints the body as pretty JSON', async () => {
    const server = await mock();
    const result = await runInProcess({ argv: ['api', 'GET', '/reports', '-f', 'result=bad', '-f', 'per_page=25'], env: server.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\{\n {2}"data": \[/);
    const body = JSON.parse(result.stdout) as ListBody;
    expect(body.meta.per_page).toBe(25);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((report) => report.result === 'bad')).toBe(true);
    const [request] = server.server.requests;
    expect(request).toMatchObject({ method: 'GET', path: '/api/v1/reports', query: { result: 'bad', per_page: '25' } });
    expect(request?.headers.authorization).toBe(`Bearer ${server.server.apiKey}`);
  });

  it('keeps a query string given in PATH, accepts the /api/v1 prefix and a lowercase method', async () => {
    const server = await mock();
    const result = await runInProcess({ argv: ['api', 'get', '/api/v1/reports?result=good&sort=asc', '-f', 'per_page=10'], env: server.env });
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as ListBody;
    expect(body.data.every((report) => report.result === 'good')).toBe(true);
    expect(server.server.requests[0]).toMatchObject({ path: '/api/v1/reports', query: { result: 'good', sort: 'asc', per_page: '10' } });
  });

  it('POST sends the fields as a form body; DELETE with an empty answer prints nothing', async () => {
    const server = await mock();
    const created = await runInProcess({ argv: ['api', 'post', 'reports', '-f', 'url=https://api-test.example/a?b=c', '-f', 'privacy=1'], env: server.env });
    expect(created.code).toBe(0);
    const { data } = JSON.parse(created.stdout) as { data: { id: number; url: string; privacy: number } };
    expect(data).toMatchObject({ url: 'https://api-test.example/a?b=c', privacy: 1 });
    expect(server.server.requests[0]).toMatchObject({ method: 'POST', query: {}, form: { url: 'https://api-test.example/a?b=c', privacy: '1' } });
    expect(server.server.requests[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');

    const deleted = await runInProcess({ argv: ['api', 'DELETE', `/reports/${data.id}`], env: server.env });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe('');
    expect(server.server.reports().some((report) => report.id === data.id)).toBe(false);
  });

  it('reaches the projects endpoints too', async () => {
    const server = await mock();
    const list = await runInProcess({ argv: ['api', 'GET', '/projects', '-f', 'search=example.com'], env: server.env });
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { data: { project: string }[] }).data.map((p) => p.project)).toContain('example.com');
    const deleted = await runInProcess({ argv: ['api', 'DELETE', '/projects/example.com'], env: server.env });
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ deleted: true });
  });

  it('errors are the usual ones: 404 exit 4, 422 exit 5 with the field, 401 exit 3; the error body on stdout as gh api prints it', async () => {
    const server = await mock();
    const missing = await runInProcess({ argv: ['api', 'GET', '/reports/99999'], env: server.env });
    expect(missing.code).toBe(ExitCode.notFound);
    expect(missing.stderr).toContain('rsapi: not found');
    expect(missing.stderr).toContain('(HTTP 404, GET /reports/99999)');
    expect(JSON.parse(missing.stdout)).toEqual({ message: expect.stringMatching(/^No query results|not found/i) });

    const rejected = await runInProcess({ argv: ['api', 'POST', '/reports', '-f', 'url=not-a-url'], env: server.env });
    expect(rejected.code).toBe(ExitCode.validation);
    expect(rejected.stderr).toContain('  url: The url field must be a valid URL.');

    const refused = await runInProcess({ argv: ['api', 'GET', '/reports'], env: { ...server.env, RSAPI_API_KEY: 'wrong-key-456' } });
    expect(refused.code).toBe(ExitCode.auth);
    expect(refused.stderr).not.toContain('wrong-key-456');
  });

  it('retries a GET answered 503, like every other read', async () => {
    const queue = [0.1, 0.9];
    const server = await mock({ failRate: 0.5, random: () => queue.shift() ?? 0.9 });
    const result = await runInProcess({ argv: ['api', 'GET', '/reports'], env: server.env });
    expect(result.code).toBe(0);
    expect(server.server.requests.map((request) => request.status)).toEqual([503, 200]);
  });
});

const plan = (...argv: string[]) =>
  planOf(['api', ...argv], (ctx, opts: never, [method, path]: [HttpMethod, string]) => planApi(ctx, { ...(opts as object), method, path } as never));

describe('rsapi api: argv -> plan', () => {
  it('the method (any case), the path, the fields and headers, and the --input file read when run', async () => {
    expect(await plan('post', '/reports?x=1', '-f', 'url=https://a.example/?b=c', '-H', 'Accept-Language: de', '--input', '-', '-i', '--silent')).toEqual({
      method: 'POST',
      path: '/reports?x=1',
      fields: { url: 'https://a.example/?b=c' },
      paginate: false,
      include: true,
      silent: true,
      headers: { 'Accept-Language': 'de' },
      input: '-',
    });
    expect(await plan('GET', '/projects', '--paginate')).toMatchObject({ method: 'GET', paginate: true, fields: {}, headers: {}, input: undefined });
  });

  it('refused before any request: a bad method, an absolute URL, a .. segment, a field without = or given twice, and the flags that do not go together', async () => {
    await expect(plan('FETCH', '/reports')).rejects.toThrow(/^method must be one of GET, POST, PUT, PATCH, DELETE, not "FETCH"/);
    await expect(plan('GET', 'https://elsewhere.example/api/v1/reports')).rejects.toThrow(/give a path under the base URL/);
    await expect(plan('GET', '/reports/../../admin')).rejects.toThrow(/the path must stay under the base URL/);
    await expect(plan('GET', '/reports', '-f', 'result')).rejects.toThrow(/"result" is not key=value/);
    await expect(plan('GET', '/reports', '-H', 'Authorization: Bearer other')).rejects.toThrow(/the Authorization header carries the configured key/);
    await expect(plan('GET', '/reports', '-f', 'a=1', '-f', 'a=2')).rejects.toThrow(/^field "a" given twice$/);
    await expect(plan('POST', '/reports', '--paginate')).rejects.toThrow(/^--paginate follows the pages of a list: only with GET$/);
    await expect(plan('GET', '/reports', '--input', 'body.json', '--paginate')).rejects.toThrow(
      /^--input sends a body; --paginate follows the pages of a GET list$/,
    );
    await expect(plan('GET', '/reports', '-i', '--jq', '.')).rejects.toThrow(/^--jq reads the JSON body; -i puts the status line and headers before it$/);
  });
});
