import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.js';
import { as, call, expectFieldRejected, type ReportBody } from './http.js';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 63 });
});

afterAll(async () => {
  await server.close();
});

const REPORT_FIELDS = ['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at', 'created_at', 'updated_at'];

async function createReport(form: Record<string, string>): Promise<ReportBody> {
  const created = await call(server, 'POST', '/reports', { form });
  expect(created.status).toBe(201);
  return as<{ data: ReportBody }>(created.body).data;
}

describe('authentication', () => {
  it.each([
    ['no Authorization header', null],
    ['a wrong key', 'not-the-key'],
    ['an empty key', ''],
  ])('answers 401 Unauthenticated. for %s', async (_name, key) => {
    const answer = await call(server, 'GET', '/reports', { key });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Unauthenticated.' });
    expect(answer.headers.get('content-type')).toBe('application/json');
  });

  it('checks the key before validating the request', async () => {
    const answer = await call(server, 'POST', '/reports', { key: 'wrong', form: {} });
    expect(answer.status).toBe(401);
  });

  it('accepts the right key', async () => {
    expect((await call(server, 'GET', '/reports')).status).toBe(200);
  });

  it('records every request, rejected ones included, with lower-cased header names', async () => {
    const before = server.requests.length;
    await call(server, 'GET', '/reports', { key: 'wrong', query: { per_page: '25' } });
    const recorded = server.requests.slice(before);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ method: 'GET', path: '/api/v1/reports', query: { per_page: '25' }, status: 401 });
    expect(recorded[0]?.headers['authorization']).toBe('Bearer wrong');
  });
});

describe('routing', () => {
  it('answers 404 JSON for a path outside /api/v1 and for an unknown resource', async () => {
    for (const target of [`${server.url}/elsewhere`, `${server.baseUrl}/widgets`]) {
      const response = await fetch(target, { headers: { Authorization: `Bearer ${server.apiKey}` } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(((await response.json()) as { message: string }).message).toMatch(/could not be found/);
    }
  });

  it('answers 405 JSON with Allow for an unknown method on a known path', async () => {
    const answer = await call(server, 'DELETE', '/reports');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(as<{ message: string }>(answer.body).message).toMatch(/DELETE method is not supported/);
    expect((await call(server, 'GET', '/projects/example.com')).status).toBe(405);
  });
});

describe('GET /reports/{id}', () => {
  it('answers the report in data, with exactly the public fields', async () => {
    const answer = await call(server, 'GET', '/reports/12');
    expect(answer.status).toBe(200);
    const report = as<{ data: Record<string, unknown> }>(answer.body).data;
    expect(Object.keys(report)).toEqual(REPORT_FIELDS);
    expect(report['id']).toBe(12);
    const { password: _password, ...stored } = server.reports().find((candidate) => candidate.id === 12) ?? { id: -1 };
    expect(report).toEqual(stored);
  });

  it('never returns the password of a password-protected report', async () => {
    const protectedReport = server.reports().find((report) => report.password !== undefined);
    expect(protectedReport).toBeDefined();
    const answer = await call(server, 'GET', `/reports/${protectedReport?.id}`);
    expect(answer.text).not.toContain('password');
    expect(answer.text).not.toContain(protectedReport?.password ?? 'unreachable');
  });

  it.each(['99999', 'abc', '12abc'])('answers 404 for the id %s with the model message', async (id) => {
    const answer = await call(server, 'GET', `/reports/${id}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: `No query results for model [App\\Models\\Report] ${id}.` });
  });
});

describe('POST /reports', () => {
  it('creates a report with derived project, result and score, and answers 201', async () => {
    const before = server.reports().length;
    const report = await createReport({ url: 'https://www.Created.example/page', privacy: '1' });
    expect(Object.keys(report)).toEqual(REPORT_FIELDS);
    expect(report).toMatchObject({ url: 'https://www.Created.example/page', project: 'created.example', privacy: 1 });
    expect(report.id).toBeGreaterThan(63);
    expect(report.result).toBe(report.score >= 80 ? 'good' : report.score >= 50 ? 'decent' : 'bad');
    expect(Date.now() - Date.parse(report.created_at)).toBeLessThan(60_000);
    expect(report.generated_at).toBe(report.created_at);
    expect(server.reports()).toHaveLength(before + 1);
    expect(server.projects().map((project) => project.project)).toContain('created.example');
  });

  it('creates a new report for a URL it already has, with the same score', async () => {
    const first = await createReport({ url: 'https://twice.example/' });
    const second = await createReport({ url: 'https://twice.example/' });
    expect(second.id).toBeGreaterThan(first.id);
    expect(second.score).toBe(first.score);
  });

  it('defaults privacy to 0 and stores the password without returning it', async () => {
    const report = await createReport({ url: 'http://secret.example/', privacy: '2', password: 'hunter2' });
    expect(report.privacy).toBe(2);
    expect(JSON.stringify(report)).not.toContain('hunter2');
    expect(server.reports().find((stored) => stored.id === report.id)?.password).toBe('hunter2');
    expect((await createReport({ url: 'http://public.example/' })).privacy).toBe(0);
  });

  it('records the form fields of the request', async () => {
    await createReport({ url: 'https://recorded.example/', privacy: '0' });
    expect(server.requests.at(-1)?.form).toEqual({ url: 'https://recorded.example/', privacy: '0' });
  });

  it.each([
    [{}, 'url', 'The url field is required.'],
    [{ url: '' }, 'url', 'The url field is required.'],
    [{ url: 'example.com' }, 'url', 'The url field must be a valid URL.'],
    [{ url: 'ftp://example.com/file' }, 'url', 'The url field must be a valid URL.'],
    [{ url: 'https://' }, 'url', 'The url field must be a valid URL.'],
    [{ url: 'https://example.com/', privacy: '3' }, 'privacy', 'The selected privacy is invalid.'],
    [{ url: 'https://example.com/', privacy: 'public' }, 'privacy', 'The selected privacy is invalid.'],
  ])('rejects %j with 422 on %s', async (form, field, message) => {
    const before = server.reports().length;
    const answer = await call(server, 'POST', '/reports', { form });
    expectFieldRejected(answer, field, message);
    expect(server.reports()).toHaveLength(before);
  });

  it('a page it cannot fetch (a host under .invalid, or --unreachable) is refused with a 422 field error of its own on url', async () => {
    const before = server.reports().length;
    expectFieldRejected(
      await call(server, 'POST', '/reports', { form: { url: 'https://nonexistent.invalid/' } }),
      'url',
      'The page at the url could not be fetched (cURL error 6: Could not resolve host: nonexistent.invalid).',
    );
    const own = await startMockServer({ port: 0, seed: 0, unreachable: ['down.example'] });
    try {
      const answer = await call(own, 'POST', '/reports', { form: { url: 'https://down.example/x' } });
      expect(answer.status).toBe(422);
      expect(JSON.stringify(answer.body)).toContain('Failed to connect to down.example port 443');
    } finally {
      await own.close();
    }
    expect(server.reports()).toHaveLength(before);
  });

  it('lists one error per rejected field, the first as the message', async () => {
    const answer = await call(server, 'POST', '/reports', { form: { privacy: '9' } });
    expect(answer.body).toEqual({
      message: 'The url field is required.',
      errors: { url: ['The url field is required.'], privacy: ['The selected privacy is invalid.'] },
    });
  });

  it('reads a JSON object body as Laravel does, but no body of another type', async () => {
    const post = (contentType: string, body: string): Promise<Response> =>
      fetch(`${server.baseUrl}/reports`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': contentType },
        body,
      });
    const json = await post('application/json', JSON.stringify({ url: 'https://json.example/', privacy: 1 }));
    expect(json.status).toBe(201);
    expect(((await json.json()) as { data: ReportBody }).data).toMatchObject({ url: 'https://json.example/', privacy: 1 });
    expect((await post('text/plain', 'url=https://plain.example/')).status).toBe(422);
  });

  it('takes fields from the body only, not from the query string', async () => {
    const answer = await call(server, 'POST', '/reports', { query: { url: 'https://query.example/' } });
    expect(answer.status).toBe(422);
  });
});

describe('PUT and PATCH /reports/{id}', () => {
  it.each(['PUT', 'PATCH'])('%s changes privacy and password, and moves updated_at only', async (method) => {
    const report = await createReport({ url: `https://update-${method.toLowerCase()}.example/` });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = await call(server, method, `/reports/${report.id}`, { form: { privacy: '2', password: 'pw' } });
    expect(answer.status).toBe(200);
    const updated = as<{ data: ReportBody }>(answer.body).data;
    expect(updated.privacy).toBe(2);
    expect(updated.generated_at).toBe(report.generated_at);
    expect(updated.updated_at > report.updated_at).toBe(true);
    expect(answer.text).not.toContain('password');
    expect(server.reports().find((stored) => stored.id === report.id)?.password).toBe('pw');
  });

  it('regenerates with update=1: new generated_at and updated_at, same score', async () => {
    const seeded = server.reports().find((report) => report.id === 5);
    const answer = await call(server, 'PATCH', '/reports/5', { form: { update: '1' } });
    const updated = as<{ data: ReportBody }>(answer.body).data;
    expect(answer.status).toBe(200);
    expect(updated.generated_at > (seeded?.generated_at ?? '')).toBe(true);
    expect(updated.updated_at).toBe(updated.generated_at);
    expect(updated.score).toBe(seeded?.score);
    expect(updated.created_at).toBe(seeded?.created_at);
  });

  it('leaves generation alone with update=0', async () => {
    const seeded = server.reports().find((report) => report.id === 7);
    const answer = await call(server, 'PUT', '/reports/7', { form: { update: '0' } });
    expect(as<{ data: ReportBody }>(answer.body).data.generated_at).toBe(seeded?.generated_at);
  });

  it.each([
    [{ privacy: '5' }, 'privacy', 'The selected privacy is invalid.'],
    [{ update: '2' }, 'update', 'The selected update is invalid.'],
    [{ update: 'yes' }, 'update', 'The selected update is invalid.'],
  ])('rejects %j with 422 on %s', async (form, field, message) => {
    const answer = await call(server, 'PUT', '/reports/3', { form });
    expectFieldRejected(answer, field, message);
  });

  it('answers 404 for an unknown id', async () => {
    const answer = await call(server, 'PATCH', '/reports/99999', { form: { privacy: '1' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'No query results for model [App\\Models\\Report] 99999.' });
  });
});

describe('DELETE /reports/{id}', () => {
  it('answers 204 with an empty body, and the report is gone', async () => {
    const report = await createReport({ url: 'https://doomed.example/' });
    const answer = await call(server, 'DELETE', `/reports/${report.id}`);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect((await call(server, 'GET', `/reports/${report.id}`)).status).toBe(404);
    expect(server.reports().some((stored) => stored.id === report.id)).toBe(false);
  });

  it('answers 404 for an unknown id, including one just deleted', async () => {
    const report = await createReport({ url: 'https://twice-deleted.example/' });
    expect((await call(server, 'DELETE', `/reports/${report.id}`)).status).toBe(204);
    expect((await call(server, 'DELETE', `/reports/${report.id}`)).status).toBe(404);
  });

  it('never reuses the id of a deleted report', async () => {
    const first = await createReport({ url: 'https://reuse.example/' });
    await call(server, 'DELETE', `/reports/${first.id}`);
    expect((await createReport({ url: 'https://reuse.example/' })).id).toBe(first.id + 1);
  });
});

describe('DELETE /projects/{project}', () => {
  it('decodes a percent-encoded name and deletes the project with its reports', async () => {
    // An IPv6 host gives a project name with characters a path segment must encode.
    const report = await createReport({ url: 'http://[2001:db8::1]/page' });
    expect(report.project).toBe('[2001:db8::1]');
    await createReport({ url: 'http://[2001:db8::1]/other' });
    const answer = await call(server, 'DELETE', `/projects/${encodeURIComponent(report.project)}`);
    expect(answer.status).toBe(200);
    expect(server.requests.at(-1)?.path).toBe('/api/v1/projects/%5B2001%3Adb8%3A%3A1%5D');
    expect(answer.body).toEqual({ id: '[2001:db8::1]', object: 'project', deleted: true });
    expect(server.reports().some((stored) => stored.project === report.project)).toBe(false);
    expect(server.projects().some((project) => project.project === report.project)).toBe(false);
  });

  it('deletes a seeded project and only its reports', async () => {
    const before = server.reports();
    const inProject = before.filter((report) => report.project === 'news.example.co').length;
    expect(inProject).toBeGreaterThan(0);
    expect((await call(server, 'DELETE', '/projects/news.example.co')).status).toBe(200);
    expect(server.reports()).toHaveLength(before.length - inProject);
  });

  it('answers 404 Resource not found. for an unknown project', async () => {
    const answer = await call(server, 'DELETE', '/projects/nowhere.example');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Resource not found.' });
  });
});
