// The client against the bundled mock over loopback: every endpoint and parameter, checked by what the server received.
import { exitCodeOf } from '../../src/cli/runtime/exit-codes.js';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type ApiClient } from '../../src/api/index.js';
import { startMockServer, type MockServer, type RecordedRequest } from '../../src/mock/server.js';
import { USER_AGENT } from '../../src/version.js';
import { ClientPool, rejectionOf } from '../helpers/clients.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

let server: MockServer;
let client: ApiClient;
const pool = new ClientPool();

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  client = pool.create(server.url, { apiKey: server.apiKey });
});
afterEach(async () => {
  await pool.closeAll();
});

function only(): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  return server.requests[0] as RecordedRequest;
}

function expectCommonHeaders(request: RecordedRequest): void {
  expect(request.headers['authorization']).toBe(`Bearer ${server.apiKey}`);
  expect(request.headers['accept']).toBe('application/json');
  expect(request.headers['user-agent']).toBe(`rsapi/${pkg.version}`);
}

describe('headers', () => {
  it('the User-Agent is rsapi/<package version>', () => {
    expect(USER_AGENT).toBe(`rsapi/${pkg.version}`);
  });

  it('a read carries the key, Accept and User-Agent, and no Content-Type', async () => {
    await client.reports.list();
    const request = only();
    expectCommonHeaders(request);
    expect(request.headers['content-type']).toBeUndefined();
  });

  it('a body is form-urlencoded', async () => {
    await client.reports.create({ url: 'https://headers.example.com/' });
    const request = only();
    expectCommonHeaders(request);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('a DELETE carries the key, Accept and User-Agent, and no body', async () => {
    await client.reports.delete('1');
    const request = only();
    expectCommonHeaders(request);
    expect(request.headers['content-type']).toBeUndefined();
    expect(request.form).toEqual({});
  });
});

describe('reports.list', () => {
  it('sends no parameter the caller did not set', async () => {
    const page = await client.reports.list();
    const request = only();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/api/v1/reports');
    expect(request.query).toEqual({});
    expect(page.records).toHaveLength(10);
    expect(page.total).toBe(server.reports().length);
  });

  it('sends every parameter under the service’s name', async () => {
    const page = await client.reports.list(
      { search: 'example.com/pricing', searchBy: 'url', project: 'example.com', result: 'bad', sortBy: 'score', sort: 'asc', perPage: 25 },
      2,
    );
    expect(only().query).toEqual({
      search: 'example.com/pricing',
      search_by: 'url',
      project: 'example.com',
      result: 'bad',
      sort_by: 'score',
      sort: 'asc',
      per_page: '25',
      page: '2',
    });
    expect(page.page).toBe(2);
  });

  it.each([
    ['search', { search: 'blog' }, { search: 'blog' }],
    ['searchBy', { searchBy: 'url' as const }, { search_by: 'url' }],
    ['project', { project: 'shop.example.org' }, { project: 'shop.example.org' }],
    ['result', { result: 'good' as const }, { result: 'good' }],
    ['sortBy', { sortBy: 'generated_at' as const }, { sort_by: 'generated_at' }],
    ['sort', { sort: 'desc' as const }, { sort: 'desc' }],
    ['perPage', { perPage: 100 as const }, { per_page: '100' }],
  ])('sends %s alone when only it is set', async (_name, params, expected) => {
    await client.reports.list(params);
    expect(only().query).toEqual(expected);
  });

  it('the filters reach the service: every record matches them', async () => {
    const page = await client.reports.list({ project: 'shop.example.org', result: 'good', perPage: 100 });
    expect(page.records.length).toBeGreaterThan(0);
    for (const record of page.records) {
      expect(record).toMatchObject({ project: 'shop.example.org', result: 'good' });
    }
  });

  it('percent-encodes a search with reserved characters', async () => {
    await client.reports.list({ search: 'a&b=c d/é?#' });
    expect(only().query).toEqual({ search: 'a&b=c d/é?#' });
  });
});

describe('reports.show', () => {
  it('GETs /reports/{id} and unwraps the record', async () => {
    const report = await client.reports.show('12');
    const request = only();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/api/v1/reports/12');
    expect(request.query).toEqual({});
    expect(report).toMatchObject({ id: 12, url: server.reports().find((r) => r.id === 12)?.url });
  });

  it('encodes an id as one path segment', async () => {
    const error = await rejectionOf(client.reports.show('1/2 3'));
    expect(only().path).toBe('/api/v1/reports/1%2F2%203');
    expect(error).toBeInstanceOf(NotFoundError);
  });
});

describe('reports.create', () => {
  it('POSTs only the url when only the url is given', async () => {
    const result = await client.reports.create({ url: 'https://create-min.example.com/' });
    const request = only();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/v1/reports');
    expect(request.query).toEqual({});
    expect(request.form).toEqual({ url: 'https://create-min.example.com/' });
    expect(result).toMatchObject({ recovered: false, attempts: 1 });
    expect(result.report).toMatchObject({ url: 'https://create-min.example.com/', privacy: 0 });
  });

  it('sends privacy 0 (a falsy value is still a set value)', async () => {
    await client.reports.create({ url: 'https://create-zero.example.com/', privacy: 0 });
    expect(only().form).toEqual({ url: 'https://create-zero.example.com/', privacy: '0' });
  });

  it('sends privacy and password, with reserved characters intact', async () => {
    const password = 'p&ss=wo rd+%/é';
    const result = await client.reports.create({ url: 'https://create-full.example.com/a?b=1&c=2', privacy: 2, password });
    expect(only().form).toEqual({ url: 'https://create-full.example.com/a?b=1&c=2', privacy: '2', password });
    expect(result.report).toMatchObject({ privacy: 2 });
    expect(result.report).not.toHaveProperty('password');
    const stored = server.reports().find((report) => report.id === result.report.id);
    expect(stored?.password).toBe(password);
  });
});

describe('reports.update', () => {
  it('PATCHes /reports/{id} with only the fields set', async () => {
    const { report, reaudited } = await client.reports.update('5', { privacy: 1 });
    expect(reaudited).toBeUndefined();
    const request = only();
    expect(request.method).toBe('PATCH');
    expect(request.path).toBe('/api/v1/reports/5');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.form).toEqual({ privacy: '1' });
    expect(report).toMatchObject({ id: 5, privacy: 1 });
  });

  it("a refresh reads the report, then sends update=1 and results=1 (phpRank's name), and nothing else", async () => {
    const { report, reaudited } = await client.reports.update('6', { refresh: true });
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /api/v1/reports/6', 'PATCH /api/v1/reports/6']);
    expect(server.requests[1]?.form).toEqual({ update: '1', results: '1' });
    expect(reaudited).toBe(true);
    expect(report).toMatchObject({ id: 6 });
  });

  it('does not send update when refresh is false', async () => {
    await client.reports.update('6', { privacy: 0, refresh: false });
    expect(only().form).toEqual({ privacy: '0' });
  });

  it('sends privacy 2 with a password', async () => {
    await client.reports.update('7', { privacy: 2, password: 'new secret' });
    expect(only().form).toEqual({ privacy: '2', password: 'new secret' });
    expect(server.reports().find((report) => report.id === 7)?.password).toBe('new secret');
  });
});

describe('reports.delete', () => {
  it('DELETEs /reports/{id}, and the 204 is a success', async () => {
    const before = server.reports().length;
    const result = await client.reports.delete('20');
    const request = only();
    expect(request.method).toBe('DELETE');
    expect(request.path).toBe('/api/v1/reports/20');
    expect(request.query).toEqual({});
    expect(result).toEqual({ goneAfterRetry: false });
    expect(server.reports()).toHaveLength(before - 1);
    expect(server.reports().some((report) => report.id === 20)).toBe(false);
  });

  it('a report that is not there is a NotFoundError (exit 4), not a quiet success', async () => {
    const error = await rejectionOf(client.reports.delete('999999'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(exitCodeOf(error)).toBe(4);
    expect(server.requests).toHaveLength(1);
  });
});

describe('projects.list', () => {
  it('sends no parameter the caller did not set', async () => {
    const page = await client.projects.list();
    const request = only();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/api/v1/projects');
    expect(request.query).toEqual({});
    expect(page.records.map((record) => record.project)).toEqual(expect.arrayContaining(['example.com', 'shop.example.org']));
  });

  it('sends every parameter under the service’s name', async () => {
    await client.projects.list({ search: 'example', searchBy: 'project', sortBy: 'project', sort: 'asc', perPage: 50 }, 3);
    expect(only().query).toEqual({ search: 'example', search_by: 'project', sort_by: 'project', sort: 'asc', per_page: '50', page: '3' });
  });

  it('the sort reaches the service', async () => {
    const page = await client.projects.list({ sortBy: 'project', sort: 'asc' });
    const names = page.records.map((record) => String(record.project));
    expect(names).toEqual([...names].sort());
    expect(names.length).toBeGreaterThan(1);
  });
});

describe('projects.delete', () => {
  it('DELETEs /projects/{name} and deletes the project', async () => {
    const result = await client.projects.delete('docs.example.io');
    const request = only();
    expect(request.method).toBe('DELETE');
    expect(request.path).toBe('/api/v1/projects/docs.example.io');
    expect(result).toEqual({ goneAfterRetry: false });
    expect(server.projects().some((project) => project.project === 'docs.example.io')).toBe(false);
  });

  it.each([
    ['a space', 'my project', 'my%20project'],
    ['a slash', 'team/site', 'team%2Fsite'],
    ['a question mark and a hash', 'what?#now', 'what%3F%23now'],
    ['a percent sign', '100%', '100%25'],
    ['non-ASCII', 'café', 'caf%C3%A9'],
  ])('encodes a name with %s as one path segment', async (_name, name, segment) => {
    const error = await rejectionOf(client.projects.delete(name));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(only().path).toBe(`/api/v1/projects/${segment}`);
  });
});

describe('base URL forms', () => {
  it.each([
    ['the site root', (s: MockServer) => s.url],
    ['the site root with a trailing slash', (s: MockServer) => `${s.url}/`],
    ['the /api/v1 prefix', (s: MockServer) => s.baseUrl],
    ['the /api/v1/ prefix with a trailing slash', (s: MockServer) => `${s.baseUrl}/`],
  ])('%s reaches /api/v1/reports', async (_name, baseUrl) => {
    const other = pool.create(baseUrl(server), { apiKey: server.apiKey });
    await other.reports.list();
    expect(only().path).toBe('/api/v1/reports');
  });
});

describe('raw requests', () => {
  it('GET sends fields as the query; a leading /api/v1 in the path is dropped', async () => {
    const response = await client.raw('GET', '/api/v1/reports', { per_page: 25, search: undefined });
    const request = only();
    expect(request.path).toBe('/api/v1/reports');
    expect(request.query).toEqual({ per_page: '25' });
    expect(response.status).toBe(200);
  });

  it('PUT sends fields as a form body', async () => {
    const response = await client.raw('PUT', 'reports/3', { privacy: 1 });
    const request = only();
    expect(request.method).toBe('PUT');
    expect(request.path).toBe('/api/v1/reports/3');
    expect(request.form).toEqual({ privacy: '1' });
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(response.body).toMatchObject({ data: { id: 3, privacy: 1 } });
  });
});
