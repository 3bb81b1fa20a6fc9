// Every exit code of the contract, provoked for real against the mock service or a purpose-built loopback server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCase, type CommandCase } from '../../helpers/cases.js';
import { startMock } from '../../helpers/mock.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { runInProcess } from '../../helpers/run.js';
import { VirtualClock } from '../../helpers/virtual-clock.js';
import { startRawServer, type RawServer } from '../../helpers/raw-server.js';

const rows: CommandCase[] = [
  {
    name: '0 on success',
    argv: ['reports', 'list'],
    wantCode: 0,
    wantStdout: (stdout) => expect(stdout.trim().split('\n')).toHaveLength(10),
    wantRequests: ['GET /reports'],
  },
  {
    name: '2 on a bad flag value, naming the allowed values, before any request',
    argv: ['reports', 'list', '--result', 'awful'],
    wantCode: 2,
    wantStderr: [/^rsapi: --result must be one of good, decent, bad, not "awful"\n$/],
    wantRequests: [],
  },
  { name: '2 on an unknown flag', argv: ['reports', 'list', '--colour'], wantCode: 2, wantStderr: /unknown option "--colour"/, wantRequests: [] },
  { name: '2 on update with nothing to change', argv: ['reports', 'update', '3'], wantCode: 2, wantStderr: /nothing to update/, wantRequests: [] },
  {
    name: '3 with no key configured anywhere',
    argv: ['reports', 'list'],
    env: { RSAPI_API_KEY: undefined },
    wantCode: 3,
    wantStderr: [/no API key configured/, /auth login/],
    wantRequests: [],
  },
  {
    name: '3 with a wrong key, with a hint to log in',
    argv: ['reports', 'list'],
    env: { RSAPI_API_KEY: 'wrong-key-1234' },
    wantCode: 3,
    wantStderr: [/authentication refused.*HTTP 401, GET \/reports/, /hint: .*auth login/],
  },
  {
    name: '4 on an unknown id, with a hint to list',
    argv: ['reports', 'show', '99999'],
    wantCode: 4,
    wantStdout: '',
    wantStderr: [/not found.*HTTP 404, GET \/reports\/99999/, /rsapi reports list/],
    wantRequests: ['GET /reports/99999'],
  },
  {
    name: '5 when the service rejects a field, one line per field',
    argv: ['api', 'POST', '/reports', '-f', 'url=nope', '-f', 'privacy=7'],
    wantCode: 5,
    wantStderr: [/HTTP 422, POST \/reports/, /^ {2}url: /m, /^ {2}privacy: /m],
    wantRequests: [{ method: 'POST', path: '/reports', form: { url: 'nope', privacy: '7' } }],
  },
  {
    // --retries 0: a 429 is still waited out once (no failure of the request); the mock's window, on real time, is
    // still closed when the fake clock's wait is over.
    name: '6 when still rate limited after the retries (and the one wait any 429 gets)',
    argv: ['reports', 'list', '--retries', '0'],
    mock: { rateLimit: 1, rateLimitWindowMs: 60_000 },
    setup: async (mock) => void (await runInProcess({ argv: ['reports', 'list'], env: mock.env })),
    wantCode: 6,
    wantStderr: /still rate limited/,
    wantRequests: ['GET /reports', 'GET /reports'],
  },
  {
    // The minute asked for passes on a clock the mock's window shares: waited out in no real time.
    name: '0 when a retry waits out the rate limit (Retry-After: 60)',
    argv: ['reports', 'list', '--retries', '1'],
    mock: { rateLimit: 1, rateLimitWindowMs: 60_000 },
    clock: new VirtualClock(),
    setup: async (mock) => void (await runInProcess({ argv: ['reports', 'list'], env: mock.env })),
    wantCode: 0,
    wantRequests: ['GET /reports', 'GET /reports'],
  },
  {
    name: "3 on phpRank's plan without API access, saying so",
    argv: ['reports', 'list'],
    mock: { flavor: 'phprank', rateLimit: 10_000, planWithoutApi: true },
    wantCode: 3,
    wantStderr: [/^rsapi: permission refused: .*\(HTTP 403, GET \/reports\)$/m, /^hint: .*no API access/m],
    wantRequests: ['GET /reports'],
  },
  {
    name: "4 on phpRank's 403 to an update of an id that does not exist, once a look-up answers 404",
    argv: ['reports', 'update', '99999', '--privacy', 'public'],
    mock: { flavor: 'phprank', rateLimit: 10_000 },
    wantCode: 4,
    wantStderr: [/^rsapi: no such report, or not yours: GET \/reports\/99999 answers 404/m, /^hint: check the id/m],
    wantRequests: ['PATCH /reports/99999', 'GET /reports/99999'],
  },
  {
    name: '8 on 503 beyond the retries, after retries + 1 attempts',
    argv: ['reports', 'list', '--retries', '2'],
    mock: { failRate: 1 },
    wantCode: 8,
    wantStderr: /server error.*HTTP 503/,
    wantRequests: ['GET /reports', 'GET /reports', 'GET /reports'],
  },
  {
    name: '10 when a gate fails, with the records still printed, one verdict line and the failing URLs named under it',
    argv: ['reports', 'list', '--result', 'bad', '--fail-on', 'bad'],
    wantCode: 10,
    wantStdout: (stdout) => expect(stdout.trim()).not.toBe(''),
    wantStderr: (stderr) => {
      const [verdict, ...named] = stderr.trim().split('\n');
      expect(verdict).toMatch(/^rsapi: gate failed: \d+ of \d+ reports are bad/);
      expect(named.length).toBeGreaterThan(0);
      for (const line of named) expect(line).toMatch(/^rsapi: {3}(\S+: result bad, decent or better wanted|… and \d+ more)$/);
    },
  },
  {
    name: '0 when the gate passes',
    argv: ['reports', 'list', '--result', 'good', '--fail-on', 'decent', '--min-score', '80'],
    wantCode: 0,
    wantStderr: /gate passed/,
  },
];

describe('exit codes', () => {
  it.each(rows)('$name', async (row) => {
    await runCase(row);
  });

  it('7 when the service is down', async () => {
    const down = await startMock();
    await down.server.close();
    const result = await runInProcess({ argv: ['reports', 'list'], env: down.env, clock: new FakeClock() });
    await down.close();
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/could not connect.*connection refused/);
  });

  it('per-item failures of a multi-delete carry the same field lines and hint as a single failure (one map)', async () => {
    const refusing = await startRawServer((_request, response) => {
      response.writeHead(422, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'The report is locked.', errors: { id: ['is locked by an audit'] } }));
    });
    try {
      const single = await runInProcess({ argv: ['reports', 'delete', '1', '--yes', '--base-url', refusing.url, '--api-key', 'key-12345678'] });
      const many = await runInProcess({ argv: ['reports', 'delete', '1', '2', '--yes', '--base-url', refusing.url, '--api-key', 'key-12345678'] });
      expect(single.code).toBe(5);
      expect(many.code).toBe(5);
      expect(single.stderr).toMatch(/^ {2}id: is locked by an audit$/m);
      for (const id of ['1', '2']) expect(many.stderr).toMatch(new RegExp(`^rsapi: report ${id}: .*locked.*\\n {2}id: is locked by an audit$`, 'm'));
    } finally {
      await refusing.close();
    }
  });

  describe('a page of HTML instead of JSON', () => {
    let html: RawServer;
    beforeAll(async () => {
      html = await startRawServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><html><body>Login</body></html>');
      });
    });
    afterAll(() => html.close());

    it('8, with a hint about the base URL and no parser trace', async () => {
      const mock = await startMock();
      const result = await runInProcess({ argv: ['reports', 'list', '-o', 'json'], env: { ...mock.env, RSAPI_BASE_URL: html.url } });
      await mock.close();
      expect(result.code).toBe(8);
      expect(result.stderr).toMatch(/HTML page instead of JSON/);
      expect(result.stderr).toMatch(/base URL/);
      expect(result.stderr).not.toMatch(/SyntaxError|at JSON\.parse/);
      expect(result.stdout).toBe('');
    });
  });
});
