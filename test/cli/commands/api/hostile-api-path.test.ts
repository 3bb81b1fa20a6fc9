// `rsapi api` stays under the base path: `..` refused in any encoding before any request; the verbose trace shows the URL actually sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../src/api/client.js';
import { InvalidRequestError } from '../../../../src/api/errors.js';
import { HttpClient, mayLeaveBasePath } from '../../../../src/api/http/http.js';
import { startHostileServer, type HostileServer } from '../../../helpers/hostile-server.js';
import { runInProcess } from '../../../helpers/run.js';

const KEY = 'api-path-key-Lm47';
let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer(() => ({ json: { data: [] } }));
});
afterAll(async () => {
  await server.close();
});

const ESCAPES = [
  '/../admin',
  '/reports/../../admin',
  '/%2e%2e/admin',
  '/%2E%2E/admin',
  '/.%2e/admin',
  '/%2e./admin',
  '/reports/%2e%2e/%2e%2e/admin',
  '/reports/..%2f..%2fadmin',
  '/reports/%2e%2e%2f%2e%2e%2fadmin',
  '/%252e%252e/admin',
  '/reports\\..\\..\\admin',
  '/reports/%5c..%5cadmin',
  '/reports/./x',
  '/reports/%2e/x',
  '/api/v1/../admin',
];

describe('a path that could leave the base path', () => {
  it.each(ESCAPES)('%s is refused with exit 2 before any request', async (path) => {
    const before = server.requests.length;
    const result = await runInProcess({ argv: ['api', 'GET', path, '--base-url', server.url, '--api-key', KEY] });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the path must stay under the base URL/);
    expect(server.requests.length).toBe(before);
  });

  it.each(ESCAPES)('%s is refused by the library too (ApiClient.raw)', async (path) => {
    const client = new ApiClient({ baseUrl: server.url, apiKey: KEY, userAgent: 'test' });
    try {
      await expect(client.raw('GET', path)).rejects.toThrow(InvalidRequestError);
    } finally {
      await client.close();
    }
  });

  it('whatever builds a request, the HTTP client never sends one that URL parsing moves off the base path', async () => {
    const before = server.requests.length;
    const http = new HttpClient({ baseUrl: `${server.url}/api/v1`, apiKey: KEY, userAgent: 'test', timeoutMs: 5000, retries: 0 });
    try {
      for (const path of ['/%2e%2e/admin', '/..', '/reports/../../x', '\\..\\x']) {
        await expect(http.request({ method: 'GET', path })).rejects.toThrow(InvalidRequestError);
      }
    } finally {
      await http.close();
    }
    expect(server.requests.length).toBe(before);
  });

  it('ordinary paths pass: dots inside names, encoded characters that are not steps', () => {
    for (const path of ['/reports', '/projects/example.com', '/projects/a..b', '/projects/a%20b', '/reports/12', '/projects/%2efile']) {
      expect(mayLeaveBasePath(path), path).toBe(false);
    }
  });
});

describe('the verbose trace', () => {
  it('shows the URL actually requested, query from PATH and -f fields included', async () => {
    const before = server.requests.length;
    const result = await runInProcess({
      argv: ['api', 'GET', '/api/v1/projects/a%20b?x=1', '-f', 'y=2', '--verbose', '--base-url', server.url, '--api-key', KEY],
    });
    expect(result.code).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent.map((request) => request.url)).toEqual(['/api/v1/projects/a%20b?x=1&y=2']);
    expect(result.stderr).toContain(`> GET ${server.url}/api/v1/projects/a%20b?x=1&y=2 -> 200`);
    expect(result.stderr).not.toContain(KEY);
  });
});
