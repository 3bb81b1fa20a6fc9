// Errors as phpRank sends them, byte for byte (escaped slashes, `status` fields, a pretty-printed exception), from a
// plain node:http server on loopback: what rsapi prints, the exit code, and which requests it made.
import { afterEach, describe, expect, it } from 'vitest';
import { expectText, runCase, type CommandCase, type WantText } from '../helpers/cases.js';
import { startRawServer, type RawServer } from '../helpers/raw-server.js';
import { startMock } from '../helpers/mock.js';
import { runInProcess } from '../helpers/run.js';

/** One answer of the fake phpRank: a status, the body exactly as PHP's json_encode writes it, and headers. */
interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** What phpRank answers for a path under /api/v1 it has no route for. */
const RESOURCE_NOT_FOUND: Answer = { status: 404, body: '{"message":"Resource not found.","status":404}' };
const UNAUTHORIZED: Answer = { status: 403, body: '{"message":"This action is unauthorized."}' };
const NO_PLAN_ACCESS: Answer = { status: 403, body: '{"message":"You don\'t have access to this feature.","status":403}' };
const REPORT_5 =
  '{"id":5,"url":"example.com\\/pricing","project":"example.com","result":78,"privacy":0,"password":false,"generated_at":"2026-11-20T09:14:03.000000Z","created_at":"2026-11-20T09:14:03.000000Z"}';
const REPORT_5_BODY: Answer = { status: 200, body: `{"data":${REPORT_5},"status":200}` };

/** Laravel's debug answer to an exception: pretty-printed, with the exception's class, file, line and trace. */
const EXCEPTION_BODY = `{
    "message": "SQLSTATE[HY000] [2002] Connection refused (SQL: select * from \`reports\` where \`user_id\` = 1)",
    "exception": "Illuminate\\\\Database\\\\QueryException",
    "file": "\\/var\\/www\\/html\\/vendor\\/laravel\\/framework\\/src\\/Illuminate\\/Database\\/Connection.php",
    "line": 712,
    "trace": [
        {
            "file": "\\/var\\/www\\/html\\/vendor\\/laravel\\/framework\\/src\\/Illuminate\\/Database\\/Connection.php",
            "line": 672,
            "function": "runQueryCallback",
            "class": "Illuminate\\\\Database\\\\Connection",
            "type": "->"
        }
    ]
}`;

const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A loopback phpRank: `routes` maps `METHOD /path` (under /api/v1, query left out) to its answer; anything else is its JSON 404. */
async function phpRank(routes: Record<string, Answer>): Promise<RawServer> {
  const server = await startRawServer((request, response) => {
    const path = request.url.replace(/^\/api\/v1/, '').replace(/\?.*$/, '');
    const answer = routes[`${request.method} ${path}`] ?? RESOURCE_NOT_FOUND;
    const body = answer.body ?? '';
    const type = body.startsWith('<') ? 'text/html; charset=UTF-8' : 'application/json';
    response.writeHead(answer.status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...answer.headers });
    response.end(body);
  });
  servers.push(server);
  return server;
}

interface Row {
  name: string;
  routes: Record<string, Answer>;
  argv: string[];
  wantCode: number;
  wantStdout?: WantText;
  wantStderr: WantText;
  /** Never in stdout or stderr. */
  never?: RegExp;
  /** `METHOD /path?query` of each request, under /api/v1. */
  wantRequests: string[];
}

const rows: Row[] = [
  {
    name: '422 whose message is an object: a summary line, then each field one a line, escaped slashes read',
    routes: { 'POST /reports': { status: 422, body: '{"message":{"url":["The url must be a valid URL.\\/"]},"status":422}' } },
    argv: ['api', 'POST', '/reports', '-f', 'url=https://example.com/'],
    wantCode: 5,
    wantStderr: [
      /^rsapi: the service rejected the request: url: The url must be a valid URL\.\/ \(HTTP 422, POST \/reports\)$/m,
      /^ {2}url: The url must be a valid URL\.\/$/m,
    ],
    never: /object Object/,
    wantRequests: ['POST /reports'],
  },
  {
    name: '422 with several fields from reports update: every message listed',
    routes: {
      'PATCH /reports/5': {
        status: 422,
        body: '{"message":{"privacy":["The selected privacy is invalid."],"password":["The password must be at least 1 characters.","Second."]},"status":422}',
      },
    },
    argv: ['reports', 'update', '5', '--privacy', 'private'],
    wantCode: 5,
    wantStderr: [
      /rejected the request: privacy: The selected privacy is invalid\. \(and 2 more errors\)/,
      /^ {2}privacy: The selected privacy is invalid\.$/m,
      /^ {2}password: The password must be at least 1 characters\.$/m,
      /^ {2}password: Second\.$/m,
    ],
    never: /object Object/,
    wantRequests: ['PATCH /reports/5'],
  },
  {
    name: '403 on update of an id that does not exist: one look-up answers 404, so exit 4 "no such report", with the id hint',
    routes: { 'PATCH /reports/99': UNAUTHORIZED },
    argv: ['reports', 'update', '99', '--privacy', 'private'],
    wantCode: 4,
    wantStderr: [
      /^rsapi: no such report, or not yours: GET \/reports\/99 answers 404, so it does not exist \(HTTP 403, PATCH \/reports\/99\)$/m,
      /^hint: check the id; `rsapi reports list`/m,
    ],
    never: /lacks the right|key is valid/,
    wantRequests: ['PATCH /reports/99', 'GET /reports/99'],
  },
  {
    name: '403 on update of a report the key can read: exit 3, it exists but the change is refused',
    routes: { 'PATCH /reports/5': UNAUTHORIZED, 'GET /reports/5': REPORT_5_BODY },
    argv: ['reports', 'update', '5', '--privacy', 'private'],
    wantCode: 3,
    wantStderr: [
      /^rsapi: permission refused: report 5 exists \(GET \/reports\/5 found it\), but the service refuses this to the key: This action is unauthorized\. \(HTTP 403, PATCH \/reports\/5\)$/m,
      /^hint: the key may read it but not change it/m,
    ],
    wantRequests: ['PATCH /reports/5', 'GET /reports/5'],
  },
  {
    name: '403 on update and on its look-up (a plan without API access): exit 3, "no such report, or not yours"',
    routes: { 'PATCH /reports/5': NO_PLAN_ACCESS, 'GET /reports/5': NO_PLAN_ACCESS },
    argv: ['reports', 'update', '5', '--privacy', 'private'],
    wantCode: 3,
    wantStderr: [
      /^rsapi: no such report, or not yours: You don't have access to this feature\. \(HTTP 403, PATCH \/reports\/5\)$/m,
      /^hint: the service answers 403 alike/m,
    ],
    never: /key is valid/,
    wantRequests: ['PATCH /reports/5', 'GET /reports/5'],
  },
  {
    name: 'a plan without API access on a list: exit 3, says the account or plan has no API access',
    routes: { 'GET /reports': NO_PLAN_ACCESS },
    argv: ['reports', 'list'],
    wantCode: 3,
    wantStderr: [/^rsapi: permission refused: You don't have access to this feature\. \(HTTP 403, GET \/reports\)$/m, /^hint: .*no API access/m],
    never: /key is valid|check the id/,
    wantRequests: ['GET /reports'],
  },
  {
    name: 'JSON 404 fallback on a list: the base-URL hint, never "check the id"',
    routes: {},
    argv: ['reports', 'list'],
    wantCode: 4,
    wantStderr: [
      /^rsapi: not found: Resource not found\. \(HTTP 404, GET \/reports\)$/m,
      /^hint: the service has no such route: check the base URL \(it should end in \/api\/v1/m,
    ],
    never: /check the id/,
    wantRequests: ['GET /reports'],
  },
  {
    name: "Laravel 8's empty 404 message on projects list: the base-URL hint",
    routes: { 'GET /projects': { status: 404, body: '{"message":""}' } },
    argv: ['projects', 'list'],
    wantCode: 4,
    wantStderr: [/^rsapi: not found \(HTTP 404, GET \/projects\)$/m, /check the base URL/],
    never: /check the (id|name)/,
    wantRequests: ['GET /projects'],
  },
  {
    name: "Laravel 8's empty 404 message on one report: the route is missing, so the base-URL hint there too",
    routes: { 'GET /reports/5': { status: 404, body: '{"message":""}' } },
    argv: ['reports', 'show', '5'],
    wantCode: 4,
    wantStderr: /check the base URL/,
    never: /check the id/,
    wantRequests: ['GET /reports/5'],
  },
  {
    name: 'a 404 with no body on a list: the base-URL hint',
    routes: { 'GET /reports': { status: 404 } },
    argv: ['reports', 'list', '--search', 'x'],
    wantCode: 4,
    wantStderr: /check the base URL/,
    never: /check the id/,
    wantRequests: ['GET /reports?search=x'],
  },
  {
    name: 'the JSON 404 on one report keeps the id hint',
    routes: {},
    argv: ['reports', 'show', '5'],
    wantCode: 4,
    wantStderr: [/^rsapi: not found: Resource not found\. \(HTTP 404, GET \/reports\/5\)$/m, /^hint: check the id; `rsapi reports list` lists reports$/m],
    wantRequests: ['GET /reports/5'],
  },
  {
    name: 'a 302 to the login page: the key was refused (exit 3), with the login hint; the redirect is not followed',
    routes: {
      'GET /reports': {
        status: 302,
        body: '<!DOCTYPE html>\n<html><head><meta http-equiv="refresh" content="0;url=\'https://rank.example.com/login\'" /><title>Redirecting to https://rank.example.com/login</title></head><body>Redirecting to <a href="https://rank.example.com/login">https://rank.example.com/login</a>.</body></html>',
        headers: { Location: 'https://rank.example.com/login' },
      },
    },
    argv: ['reports', 'list'],
    wantCode: 3,
    wantStderr: [
      /^rsapi: authentication refused: the service sent rsapi to \/login \(not followed\), as it does with a key it refuses \(HTTP 302, GET \/reports\)$/m,
      /^hint: check the key: `rsapi auth status`, or log in again with `rsapi auth login`$/m,
    ],
    never: /base URL/,
    wantRequests: ['GET /reports'],
  },
  {
    name: 'a 302 with an HTML page to elsewhere on the same site (Accept not honoured): the key was refused',
    routes: { 'GET /projects': { status: 302, body: '<!DOCTYPE html><html><body>Redirecting</body></html>', headers: { Location: '/' } } },
    argv: ['projects', 'list'],
    wantCode: 3,
    wantStderr: /^rsapi: authentication refused: the service sent rsapi to \/ \(not followed\)/m,
    wantRequests: ['GET /projects'],
  },
  {
    name: 'a 500 with the pretty-printed Laravel exception: the message only, never the trace, file or class',
    routes: { 'GET /reports/5': { status: 500, body: EXCEPTION_BODY } },
    argv: ['reports', 'show', '5'],
    wantCode: 8,
    wantStderr: (stderr) =>
      expect(stderr).toBe(
        'rsapi: server error: SQLSTATE[HY000] [2002] Connection refused (SQL: select * from `reports` where `user_id` = 1) (HTTP 500, GET /reports/5)\n',
      ),
    never: /trace|Connection\.php|QueryException|runQueryCallback/,
    wantRequests: ['GET /reports/5'],
  },
  {
    name: "a 500 from a failed fetch of the audited page (newer phpRank): exit 8 with the service's reason",
    routes: {
      'POST /reports': {
        status: 500,
        body: '{"message":"An unexpected error has occurred, please try again.cURL error 6: Could not resolve host: nope.invalid (see https:\\/\\/curl.haxx.se\\/libcurl\\/c\\/libcurl-errors.html)","status":500}',
      },
    },
    argv: ['api', 'POST', '/reports', '-f', 'url=https://nope.invalid/'],
    wantCode: 8,
    wantStderr:
      /^rsapi: server error: .*cURL error 6: Could not resolve host: nope\.invalid \(see https:\/\/curl\.haxx\.se\/libcurl\/c\/libcurl-errors\.html\) \(HTTP 500, POST \/reports\)$/m,
    wantRequests: ['POST /reports'],
  },
];

describe('errors as phpRank sends them', () => {
  it.each(rows)('$name', async (row) => {
    const server = await phpRank(row.routes);
    const result = await runInProcess({ argv: row.argv, env: { RSAPI_BASE_URL: `${server.url}/api/v1`, RSAPI_API_KEY: 'php-rank-key-1234' } });
    const context = `rsapi ${row.argv.join(' ')}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
    expect(result.code, context).toBe(row.wantCode);
    expectText(result.stderr, row.wantStderr, context);
    if (row.wantStdout !== undefined) expectText(result.stdout, row.wantStdout, context);
    if (row.never) expect(`${result.stdout}${result.stderr}`, context).not.toMatch(row.never);
    expect(server.requests.map((request) => `${request.method} ${request.url.replace(/^\/api\/v1/, '')}`)).toEqual(row.wantRequests);
  });
});

describe('the extra `status` field of success bodies', () => {
  it('is not part of a record: show -o json prints the record unwrapped, without it', async () => {
    const server = await phpRank({ 'GET /reports/5': REPORT_5_BODY });
    const result = await runInProcess({
      argv: ['reports', 'show', '5', '-o', 'json'],
      env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'php-rank-key-1234' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(REPORT_5));
  });

  it('is not a record of a list, nor a field of one: list -o json prints the records alone', async () => {
    const links =
      '"links":{"first":"https:\\/\\/rank.example.com\\/api\\/v1\\/reports?page=1","last":"https:\\/\\/rank.example.com\\/api\\/v1\\/reports?page=1","prev":null,"next":null}';
    const meta = '"meta":{"current_page":1,"from":1,"last_page":1,"path":"https:\\/\\/rank.example.com\\/api\\/v1\\/reports","per_page":10,"to":1,"total":1}';
    const server = await phpRank({ 'GET /reports': { status: 200, body: `{"data":[${REPORT_5}],${links},${meta},"status":200}` } });
    const result = await runInProcess({
      argv: ['reports', 'list', '--all', '-o', 'json'],
      env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'php-rank-key-1234' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([JSON.parse(REPORT_5)]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('reports update --refresh against phpRank', () => {
  it('sends results=1 beside update=1, and says once on stderr when generated_at did not move', async () => {
    const server = await phpRank({ 'GET /reports/5': REPORT_5_BODY, 'PATCH /reports/5': REPORT_5_BODY });
    const result = await runInProcess({
      argv: ['reports', 'update', '5', '--refresh', '-o', 'json'],
      env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'php-rank-key-1234' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/v1/reports/5', 'PATCH /api/v1/reports/5']);
    expect(new URLSearchParams(server.requests[1]?.body)).toEqual(new URLSearchParams('update=1&results=1'));
    expect(result.stderr).toBe('rsapi: warning: the service did not audit report 5 again: its generated_at did not change (2026-11-20T09:14:03.000000Z)\n');
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 5 });
  });

  it('says nothing when generated_at moved', async () => {
    const after = REPORT_5_BODY.body?.replace('"generated_at":"2026-11-20T09:14:03.000000Z"', '"generated_at":"2026-11-24T10:00:00.000000Z"');
    const server = await phpRank({ 'GET /reports/5': REPORT_5_BODY, 'PATCH /reports/5': { status: 200, body: after } });
    const result = await runInProcess({
      argv: ['reports', 'update', '5', '--refresh'],
      env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'php-rank-key-1234' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('an id that does not exist: the read before the change answers 404, exit 4, and nothing is changed', async () => {
    const server = await phpRank({ 'PATCH /reports/99': UNAUTHORIZED });
    const result = await runInProcess({
      argv: ['reports', 'update', '99', '--refresh'],
      env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'php-rank-key-1234' },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/check the id/);
    expect(server.requests.map((request) => request.method)).toEqual(['GET']);
  });
});

describe('auth status and the account', () => {
  const ACCOUNT =
    '{"data":{"id":1,"name":"Jane Doe","email":"jane@example.com","locale":"en","timezone":"UTC","plan":{"id":2,"name":"Pro","features":{"api":true}},"default_privacy":0,"created_at":"2025-01-01T00:00:00.000000Z"},"status":200}';
  const EMPTY_LIST = '{"data":[],"links":{"next":null},"meta":{"current_page":1,"last_page":1,"total":0},"status":200}';
  const env = (server: RawServer) => ({ RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'php-rank-key-1234' });
  const requested = (server: RawServer) => server.requests.map((request) => `${request.method} ${request.url.replace(/\?.*$/, '')}`);

  it("shows the account's name and plan (not its email) where the service has GET /account: one request more", async () => {
    const server = await phpRank({ 'GET /reports': { status: 200, body: EMPTY_LIST }, 'GET /account': { status: 200, body: ACCOUNT } });
    const result = await runInProcess({ argv: ['auth', 'status'], env: env(server) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^service: accepts the key\naccount: Jane Doe \(plan: Pro\)\n$/m);
    expect(result.stdout).not.toContain('jane@');
    expect(requested(server)).toEqual(['GET /api/v1/reports', 'GET /api/v1/account']);
    const json = await runInProcess({ argv: ['auth', 'status', '--json'], env: env(server) });
    expect(JSON.parse(json.stdout)).toMatchObject({ accepted: true, account: { name: 'Jane Doe', plan: 'Pro' } });
  });

  it.each([
    ['answers 404 (no such route)', RESOURCE_NOT_FOUND],
    ['fails (500)', { status: 500, body: '{"message":"Server Error"}' }],
  ])('where /account %s: no account line and no error, as before', async (_name, answer) => {
    const server = await phpRank({ 'GET /reports': { status: 200, body: EMPTY_LIST }, 'GET /account': answer });
    const result = await runInProcess({ argv: ['auth', 'status', '--retries', '0'], env: env(server) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/service: accepts the key\n$/);
    expect(result.stdout).not.toMatch(/^account:/m);
    expect(result.stderr).toBe('');
    expect(requested(server)).toEqual(['GET /api/v1/reports', 'GET /api/v1/account']);
  });

  it('a plan without API access: exit 3, says so, and asks nothing more', async () => {
    const server = await phpRank({ 'GET /reports': NO_PLAN_ACCESS, 'GET /account': NO_PLAN_ACCESS });
    const result = await runInProcess({ argv: ['auth', 'status'], env: env(server) });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^service: refused API access to this account \(HTTP 403\): its plan may not include the API$/m);
    expect(result.stderr).toMatch(/^hint: .*no API access/m);
    expect(result.stdout + result.stderr).not.toMatch(/key is valid|refused the key/);
    expect(requested(server)).toEqual(['GET /api/v1/reports']);
  });
});

describe('against the mock, phpRank flavor', () => {
  const phpRankMock = { flavor: 'phprank', rateLimit: 10_000 } as const;
  const rows: CommandCase[] = [
    {
      name: '422 with a message object: each field on its line, no [object Object]',
      argv: ['api', 'POST', '/reports', '-f', 'url=not a url', '-f', 'privacy=7'],
      mock: phpRankMock,
      wantCode: 5,
      wantStderr: (stderr) => {
        expect(stderr).toMatch(/^rsapi: the service rejected the request: \w+: .+ \(and 1 more error\) \(HTTP 422, POST \/reports\)$/m);
        expect(stderr).toMatch(/^ {2}url: .+$/m);
        expect(stderr).toMatch(/^ {2}privacy: .+$/m);
        expect(stderr).not.toMatch(/object Object/);
      },
      wantRequests: ['POST /reports'],
    },
    {
      name: '403 on update of an id that does not exist: the look-up answers 404, exit 4',
      argv: ['reports', 'update', '999999', '--privacy', 'private'],
      mock: phpRankMock,
      wantCode: 4,
      wantStderr: [/^rsapi: no such report, or not yours: GET \/reports\/999999 answers 404/m, /^hint: check the id/m],
      wantRequests: [{ method: 'PATCH', path: '/reports/999999', form: { privacy: '1' } }, 'GET /reports/999999'],
    },
    {
      name: '--refresh sends results=1 (and update=1); the re-audit moves generated_at, so no warning',
      argv: ['reports', 'update', '3', '--refresh', '-o', 'json'],
      mock: phpRankMock,
      wantCode: 0,
      wantStdout: (stdout) => expect(JSON.parse(stdout)).toMatchObject({ id: 3 }),
      wantStderr: '',
      wantRequests: ['GET /reports/3', { method: 'PATCH', path: '/reports/3', form: { update: '1', results: '1' } }],
    },
    {
      name: "auth status shows the account's name and plan",
      argv: ['auth', 'status'],
      mock: phpRankMock,
      wantCode: 0,
      wantStdout: /^service: accepts the key\naccount: Mock User \(plan: Default\)\n$/m,
      wantRequests: ['GET /reports', 'GET /account'],
    },
    {
      name: 'auth status on a plan without API access: exit 3, says so',
      argv: ['auth', 'status'],
      mock: { ...phpRankMock, planWithoutApi: true },
      wantCode: 3,
      wantStdout: /^service: refused API access to this account \(HTTP 403\)/m,
      wantStderr: /no API access/,
      wantRequests: ['GET /reports'],
    },
    {
      name: "an unknown path: phpRank's JSON 404 gets the base-URL hint",
      argv: ['api', 'GET', '/reprots'],
      mock: phpRankMock,
      wantCode: 4,
      wantStderr: [/^rsapi: not found: Resource not found\. \(HTTP 404, GET \/reprots\)$/m, /check the base URL/],
      wantRequests: ['GET /reprots'],
    },
  ];

  it.each(rows)('$name', async (row) => {
    await runCase(row);
  });
});

describe('auth login on a plan without API access', () => {
  it('exit 3, nothing saved, and the hint speaks of the plan, not of a wrong key', async () => {
    const mock = await startMock({ flavor: 'phprank', rateLimit: 10_000, planWithoutApi: true });
    try {
      const result = await runInProcess({
        argv: ['auth', 'login', '--with-token', '--base-url', mock.server.url],
        env: { RSAPI_CONFIG_DIR: mock.configDir },
        stdin: `${mock.server.apiKey}\n`,
      });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/^hint: nothing was saved; .*no API access/m);
      expect(result.stderr).not.toMatch(/check the key is right/);
    } finally {
      await mock.close();
    }
  });
});
