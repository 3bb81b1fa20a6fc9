// `rsapi api` on par with gh api: --paginate (one JSON array), -i/--include (status line and headers first), an error's body on stdout.
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../../../helpers/mock.js';
import { runInProcess } from '../../../helpers/run.js';

const mock = mockPerTest({ seed: 63 });

describe('rsapi api', () => {
  it('--paginate follows every page and prints one array, the same records as reports list --all', async () => {
    const fixture = await mock();
    const api = await runInProcess({ argv: ['api', 'GET', '/reports', '--paginate', '-f', 'per_page=25'], env: fixture.env });
    expect(api.code).toBe(0);
    const records = JSON.parse(api.stdout) as { id: number }[];
    expect(records).toHaveLength(63);
    const list = await runInProcess({ argv: ['reports', 'list', '--all', '--json'], env: fixture.env });
    expect(records.map((r) => r.id)).toEqual((JSON.parse(list.stdout) as { id: number }[]).map((r) => r.id));
    const pages = fixture.server.requests.filter((r) => r.query.per_page === '25').map((r) => r.query.page);
    expect(pages).toEqual(['1', '2', '3']);
  });

  it('--paginate starts at the page asked for', async () => {
    const fixture = await mock();
    const api = await runInProcess({ argv: ['api', 'GET', '/projects?page=2', '--paginate', '-f', 'per_page=10'], env: fixture.env });
    expect(api.code).toBe(0);
    const all = await runInProcess({ argv: ['api', 'GET', '/projects', '--paginate', '-f', 'per_page=10'], env: fixture.env });
    const everything = JSON.parse(all.stdout) as unknown[];
    expect(JSON.parse(api.stdout)).toEqual(everything.slice(10));
  });

  it('-i prints the status line and headers, a blank line, then the body', async () => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['api', 'GET', '/reports/1', '-i'], env: fixture.env });
    expect(run.code).toBe(0);
    const [head, body] = run.stdout.split('\n\n', 2) as [string, string];
    const lines = head.split('\n');
    expect(lines[0]).toBe('HTTP/1.1 200 OK');
    expect(lines.some((line) => /^Content-Type: application\/json/.test(line))).toBe(true);
    expect((JSON.parse(body) as { data: { id: number } }).data.id).toBe(1);
  });

  it.each([
    ['a 404', ['GET', '/reports/999999'], 4, { message: expect.stringMatching(/^No query results|not found/i) }],
    ['a 422', ['POST', '/reports', '-f', 'url=not a url'], 5, { errors: { url: ['The url field must be a valid URL.'] } }],
    ['a 401', ['GET', '/reports'], 3, { message: 'Unauthenticated.' }],
  ])("%s: the error's JSON body on stdout, the error on stderr, the error's exit code", async (name, args, code, body) => {
    const fixture = await mock();
    const env = name === 'a 401' ? { ...fixture.env, RSAPI_API_KEY: 'wrong-key-1234' } : fixture.env;
    const run = await runInProcess({ argv: ['api', ...args], env });
    expect(run.code).toBe(code);
    expect(JSON.parse(run.stdout)).toMatchObject(body);
    expect(run.stderr).toMatch(/^rsapi: /);
  });

  it('-i on an error shows its status line first', async () => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['api', 'GET', '/reports/999999', '--include'], env: fixture.env });
    expect(run.code).toBe(4);
    expect(run.stdout.startsWith('HTTP/1.1 404 Not Found\n')).toBe(true);
  });

  it('--paginate with another method than GET is a usage error before any request', async () => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['api', 'POST', '/reports', '--paginate', '-f', 'url=https://example.com/'], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--paginate follows the pages of a list: only with GET');
    expect(fixture.server.requests).toHaveLength(0);
  });
});
