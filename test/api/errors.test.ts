// Every way a request can fail, over real loopback sockets, and the typed error and exit code each one becomes.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, AuthError, HiddenRecordError, NetworkError, NotFoundError, RateLimitError, ServerError, ValidationError } from '../../src/api/index.js';
import { ExitCode, exitCodeOf, hintOf } from '../../src/cli/runtime/exit-codes.js';
import { startMockServer, type MockServer } from '../../src/mock/server.js';
import { refusedPort, sendJson, sendText, startRawServer, type RawServer } from '../helpers/raw-server.js';
import { ClientPool, TEST_KEY, rejectionOf, timed } from '../helpers/clients.js';

const pool = new ClientPool();
const servers: Array<RawServer | MockServer> = [];

afterEach(async () => {
  await pool.closeAll();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function raw(handler: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const server = await startRawServer(handler);
  servers.push(server);
  return server;
}

async function mock(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const server = await startMockServer({ port: 0, seed: 12, ...options });
  servers.push(server);
  return server;
}

/** Rejects with `type` and the exit code the CLI maps it to, and returns the error for further checks. */
async function expectFailure<T extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T, exitCode: number): Promise<T> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(type);
  expect(exitCodeOf(error)).toBe(exitCode);
  return error as T;
}

describe('error statuses from the mock', () => {
  it('401 for a wrong key: AuthError, exit 3, with a login hint', async () => {
    const server = await mock();
    const client = pool.create(server.url, { apiKey: 'wrong-key' });
    const error = await expectFailure(client.reports.list(), AuthError, ExitCode.auth);
    expect(error.status).toBe(401);
    expect(error.message).toContain('Unauthenticated.');
    expect(error.message).toContain('HTTP 401, GET /reports');
    expect(hintOf(error)).toMatch(/rsapi auth login/);
    expect(server.requests).toHaveLength(1);
  });

  it('404 for an unknown report: NotFoundError, exit 4, with the service message and a list hint', async () => {
    const server = await mock();
    const client = pool.create(server.url, { apiKey: server.apiKey });
    const error = await expectFailure(client.reports.show('424242'), NotFoundError, ExitCode.notFound);
    expect(error.status).toBe(404);
    expect(error.serviceMessage).toMatch(/No query results/);
    expect(error.message).toContain('GET /reports/424242');
    expect(hintOf(error)).toMatch(/reports list/);
    expect(server.requests).toHaveLength(1);
  });

  it('422 for a rejected field: ValidationError, exit 5, with the field messages', async () => {
    const server = await mock();
    const client = pool.create(server.url, { apiKey: server.apiKey });
    const error = await expectFailure(client.reports.create({ url: 'not a url' }), ValidationError, ExitCode.validation);
    expect(error.status).toBe(422);
    expect(error.fields).toEqual({ url: ['The url field must be a valid URL.'] });
    expect(error.message).toContain('HTTP 422, POST /reports');
    expect(server.requests).toHaveLength(1);
  });

  it('422 on a list parameter names that parameter', async () => {
    const server = await mock();
    const client = pool.create(server.url, { apiKey: server.apiKey });
    const error = await expectFailure(client.raw('GET', '/reports', { per_page: 7, sort: 'sideways' }), ValidationError, ExitCode.validation);
    expect(Object.keys(error.fields).sort()).toEqual(['per_page', 'sort']);
  });
});

describe('error statuses from a raw server', () => {
  it('403 on a list: AuthError, exit 3, the plan hint (no claim about the key), not retried', async () => {
    const server = await raw((_req, res) => sendJson(res, 403, { message: 'Your plan does not include the API.' }));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.list(), AuthError, ExitCode.auth);
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/^permission refused: Your plan does not include the API\./);
    expect(hintOf(error)).toMatch(/no API access/);
    expect(hintOf(error)).not.toMatch(/key is valid/);
    expect(server.requests).toHaveLength(1);
  });

  it('400 with per-field messages: ValidationError, exit 5', async () => {
    const server = await raw((_req, res) =>
      sendJson(res, 400, { message: 'Bad request.', errors: { privacy: ['The selected privacy is invalid.', 'Second.'], password: 'Too short.' } }),
    );
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.update('3', { privacy: 2, password: 'x' }), ValidationError, ExitCode.validation);
    expect(error.status).toBe(400);
    expect(error.fields).toEqual({ privacy: ['The selected privacy is invalid.', 'Second.'], password: ['Too short.'] });
    expect(server.requests).toHaveLength(1);
  });

  it('422 without a JSON body is still a ValidationError, with no fields', async () => {
    const server = await raw((_req, res) => sendText(res, 422, 'Unprocessable', 'text/plain'));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.create({ url: 'https://x.example/' }), ValidationError, ExitCode.validation);
    expect(error.fields).toEqual({});
  });

  it('404 with an empty body: NotFoundError, exit 4', async () => {
    const server = await raw((_req, res) => {
      res.writeHead(404, { 'Content-Length': '0' });
      res.end();
    });
    const client = pool.create(server.url);
    await expectFailure(client.projects.delete('gone'), NotFoundError, ExitCode.notFound);
  });

  it('500: ServerError, exit 8, and not retried (only 408, 429, 502, 503, 504 are)', async () => {
    const server = await raw((_req, res) => sendJson(res, 500, { message: 'Server Error' }));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.list(), ServerError, ExitCode.server);
    expect(error.status).toBe(500);
    expect(error.message).toContain('server error: Server Error (HTTP 500, GET /reports)');
    expect(server.requests).toHaveLength(1);
  });

  it('503 beyond the retries: ServerError, exit 8, after retries + 1 attempts', async () => {
    const server = await raw((_req, res) => sendJson(res, 503, { message: 'Service Unavailable' }));
    const client = pool.create(server.url, { retries: 3 });
    const error = await expectFailure(client.reports.show('1'), ServerError, ExitCode.server);
    expect(error.status).toBe(503);
    expect(server.requests).toHaveLength(4);
  });

  it('429 beyond the retries: RateLimitError, exit 6, naming the attempts and the wait asked for', async () => {
    const server = await raw((_req, res) => sendJson(res, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '7' }));
    const client = pool.create(server.url, { retries: 2, maxRetryAfterMs: 20 });
    const error = await expectFailure(client.reports.list(), RateLimitError, ExitCode.rateLimited);
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.message).toMatch(/after 3 attempts/);
    expect(hintOf(error)).toMatch(/7s/);
    expect(server.requests).toHaveLength(3);
  });

  it('408 beyond the retries: NetworkError timeout, exit 7', async () => {
    const server = await raw((_req, res) => sendJson(res, 408, { message: 'Request Timeout' }));
    const client = pool.create(server.url, { retries: 1 });
    const error = await expectFailure(client.reports.list(), NetworkError, ExitCode.network);
    expect(error.kind).toBe('timeout');
    expect(server.requests).toHaveLength(2);
  });

  it('another 4xx (405) is an ApiError with exit 5, not retried', async () => {
    const server = await raw((_req, res) => sendJson(res, 405, { message: 'Method not allowed.' }));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.list(), ApiError, ExitCode.validation);
    expect(error.status).toBe(405);
    expect(server.requests).toHaveLength(1);
  });
});

describe('answers that are not the JSON expected', () => {
  const LOGIN_PAGE = '<!DOCTYPE html><html><head><title>Log in</title></head><body><form></form></body></html>';

  it('an HTML page with 200: ServerError, exit 8, saying HTML and pointing at the base URL', async () => {
    const server = await raw((_req, res) => sendText(res, 200, LOGIN_PAGE, 'text/html; charset=UTF-8'));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.list(), ServerError, ExitCode.server);
    expect(error.message).toMatch(/HTML page instead of JSON/);
    expect(error.message).toContain('HTTP 200, GET /reports');
    expect(hintOf(error)).toMatch(/base URL/);
    expect(error.message).not.toMatch(/Unexpected token|SyntaxError/);
    expect(server.requests).toHaveLength(1);
  });

  it('an HTML page with 502 (a proxy): ServerError, exit 8; what the user reads says HTML', async () => {
    const server = await raw((_req, res) => sendText(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html'));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.show('4'), ServerError, ExitCode.server);
    expect(error.status).toBe(502);
    expect(`${error.message}\n${hintOf(error) ?? ''}`).toMatch(/HTML/);
    expect(hintOf(error)).toMatch(/base URL/);
    expect(server.requests).toHaveLength(3);
  });

  it('truncated JSON with 200: ServerError, exit 8, not a parse stack trace', async () => {
    const server = await raw((_req, res) => sendText(res, 200, '{"data": {"id": 12, "url": "https://exam', 'application/json'));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.show('12'), ServerError, ExitCode.server);
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.message).toContain('HTTP 200, GET /reports/12');
    expect(server.requests).toHaveLength(1);
  });

  it('a 200 with an empty body where a record was expected: ServerError, exit 8', async () => {
    const server = await raw((_req, res) => sendText(res, 200, '', 'application/json'));
    const client = pool.create(server.url);
    await expectFailure(client.reports.show('12'), ServerError, ExitCode.server);
  });

  it('a 200 with a record where a list was expected: ServerError, exit 8', async () => {
    const server = await raw((_req, res) => sendJson(res, 200, { data: { id: 1 } }));
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.list(), ServerError, ExitCode.server);
    expect(error.message).toMatch(/expected list/);
  });
});

describe('redirects', () => {
  it('a 302 to another origin is a ServerError (exit 8), and the other origin never hears from us', async () => {
    const elsewhere = await raw((_req, res) => sendJson(res, 200, { data: [] }));
    const server = await raw((req, res) => {
      res.writeHead(302, { Location: `${elsewhere.url}${req.url}${req.url.includes('?') ? '&' : '?'}token=abc`, 'Content-Length': '0' });
      res.end();
    });
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.list({ perPage: 25 }), ServerError, ExitCode.server);
    expect(error.status).toBe(302);
    expect(error.message).toMatch(/redirect/);
    expect(error.message).toContain(elsewhere.url);
    expect(error.message).not.toContain('token=abc');
    expect(hintOf(error)).toMatch(/base URL/);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a 301 to https on the same host is not followed either', async () => {
    const server = await raw((_req, res) => {
      res.writeHead(301, { Location: 'https://127.0.0.1/api/v1/reports', 'Content-Length': '0' });
      res.end();
    });
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.delete('3'), ServerError, ExitCode.server);
    expect(error.status).toBe(301);
    expect(server.requests).toHaveLength(1);
  });
});

describe("phpRank's refusals, typed from status and request alone", () => {
  const unauthorized = '{"message":"This action is unauthorized."}';

  it('403 on an update, then 404 on the look-up: HiddenRecordError, exists false, exit 4; two requests', async () => {
    const server = await raw((req, res) =>
      req.method === 'PATCH'
        ? sendText(res, 403, unauthorized, 'application/json')
        : sendText(res, 404, '{"message":"Resource not found.","status":404}', 'application/json'),
    );
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.update('99', { privacy: 1 }), HiddenRecordError, ExitCode.notFound);
    expect(error.exists).toBe(false);
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/^no such report, or not yours: GET \/reports\/99 answers 404/);
    expect(hintOf(error)).toMatch(/check the id/);
    expect(server.requests.map((request) => request.method)).toEqual(['PATCH', 'GET']);
  });

  it('403 on an update of a report the key can read: HiddenRecordError, exists true, exit 3', async () => {
    const server = await raw((req, res) =>
      req.method === 'PATCH' ? sendText(res, 403, unauthorized, 'application/json') : sendJson(res, 200, { data: { id: 5 }, status: 200 }),
    );
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.update('5', { privacy: 1 }), HiddenRecordError, ExitCode.auth);
    expect(error.exists).toBe(true);
    expect(error.message).toMatch(/^permission refused: report 5 exists/);
  });

  it('a look-up that cannot tell (unreachable by then, 500) leaves the 403 as it was: "no such report, or not yours", exit 3', async () => {
    const server = await raw((req, res) =>
      req.method === 'PATCH' ? sendText(res, 403, unauthorized, 'application/json') : sendJson(res, 500, { message: 'Server Error' }),
    );
    const client = pool.create(server.url);
    const error = await expectFailure(client.reports.update('5', { privacy: 1 }), AuthError, ExitCode.auth);
    expect(error).not.toBeInstanceOf(HiddenRecordError);
    expect(error.refusal).toBe('record');
    expect(error.message).toBe('no such report, or not yours: This action is unauthorized. (HTTP 403, PATCH /reports/5)');
  });

  it.each([
    ['GET', '/reports', 'plan'],
    ['GET', '/projects?page=2', 'plan'],
    ['GET', '/account', 'plan'],
    ['POST', '/reports', 'action'],
    ['GET', '/reports/5', 'record'],
    ['DELETE', '/projects/example.com', 'record'],
  ] as const)('a 403 on %s %s is refusal "%s"; no hint claims the key is valid', async (method, path, refusal) => {
    const server = await raw((_req, res) => sendText(res, 403, '{"message":"You don\'t have access to this feature.","status":403}', 'application/json'));
    const client = pool.create(server.url);
    const error = await expectFailure(client.raw(method, path), AuthError, ExitCode.auth);
    expect(error.refusal).toBe(refusal);
    expect(hintOf(error)).not.toMatch(/key is valid/);
  });

  it('a redirect to the login page: AuthError refusal "key", exit 3, the login page never requested', async () => {
    const server = await raw((_req, res) => {
      res.writeHead(302, { Location: '/login', 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': '0' });
      res.end();
    });
    const client = pool.create(server.url);
    const error = await expectFailure(client.projects.list(), AuthError, ExitCode.auth);
    expect(error.refusal).toBe('key');
    expect(error.status).toBe(302);
    expect(hintOf(error)).toMatch(/rsapi auth login/);
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/projects']);
  });

  it('a 302 with no HTML to a path under the API is still a redirect to correct (exit 8), not a refused key', async () => {
    const server = await raw((_req, res) => {
      res.writeHead(302, { Location: '/api/v1/reports/', 'Content-Length': '0' });
      res.end();
    });
    const client = pool.create(server.url);
    await expectFailure(client.reports.list(), ServerError, ExitCode.server);
  });
});

describe('network failures', () => {
  it('connection refused: NetworkError, exit 7, kind refused, after the retries', async () => {
    const port = await refusedPort();
    const traced: number[] = [];
    const client = pool.create(`http://127.0.0.1:${port}`, { onTrace: (event) => traced.push(event.attempt) });
    const error = await expectFailure(client.reports.list(), NetworkError, ExitCode.network);
    expect(error.kind).toBe('refused');
    expect(error.neverSent).toBe(true);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(traced).toEqual([1, 2, 3]);
  });

  it('a server slower than timeoutMs: NetworkError, exit 7, kind timeout, each attempt bounded', async () => {
    const server = await raw(() => {
      // never answers; the socket is destroyed when the server closes
    });
    const client = pool.create(server.url, { timeoutMs: 150, retries: 1 });
    const { ms, value: error } = await timed(() => expectFailure(client.reports.list(), NetworkError, ExitCode.network));
    expect(error.kind).toBe('timeout');
    expect(hintOf(error)).toMatch(/--timeout/);
    expect(server.requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(280);
    expect(ms).toBeLessThan(2_000);
  });

  it('a body that stalls half-way: NetworkError, exit 7, kind timeout', async () => {
    const server = await raw((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"data": [');
    });
    const client = pool.create(server.url, { timeoutMs: 150, retries: 0 });
    const error = await expectFailure(client.reports.list(), NetworkError, ExitCode.network);
    expect(error.kind).toBe('timeout');
  });

  it('a connection reset (the server destroys the socket): NetworkError, exit 7, retried for a GET', async () => {
    const server = await raw((_req, res) => {
      res.socket?.destroy();
    });
    const client = pool.create(server.url, { retries: 2 });
    const error = await expectFailure(client.reports.show('9'), NetworkError, ExitCode.network);
    expect(error.kind).toBe('reset');
    expect(error.neverSent).toBe(false);
    expect(server.requests).toHaveLength(3);
  });

  it('a body cut short by a closed socket: NetworkError, exit 7', async () => {
    const server = await raw((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"data": [', () => res.socket?.destroy());
    });
    const client = pool.create(server.url, { retries: 0 });
    const error = await expectFailure(client.reports.list(), NetworkError, ExitCode.network);
    expect(error.kind).toBe('reset');
  });
});

describe('what an error never carries', () => {
  it('no message or hint contains the API key', async () => {
    const secret = 'sk-live-very-secret-0000';
    const failures: unknown[] = [];
    const server = await raw((_req, res, index) => {
      if (index === 1) return sendJson(res, 401, { message: 'Unauthenticated.' });
      if (index === 2) return sendText(res, 200, '<html></html>', 'text/html');
      res.writeHead(302, { Location: 'http://127.0.0.1:1/x', 'Content-Length': '0' });
      res.end();
    });
    const client = pool.create(server.url, { apiKey: secret });
    failures.push(await rejectionOf(client.reports.list()));
    failures.push(await rejectionOf(client.reports.list()));
    failures.push(await rejectionOf(client.reports.list()));
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(ApiError);
      expect(JSON.stringify({ message: (failure as ApiError).message, hint: hintOf(failure) })).not.toContain(secret);
    }
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${secret}`)).toBe(true);
  });
});
