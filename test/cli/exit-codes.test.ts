// Every exit code of the contract, provoked for real against the mock service or a purpose-built loopback server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { startRawServer, type RawServer } from '../helpers/raw-server.js';

let mock: MockFixture;
let limited: MockFixture;
let failing: MockFixture;
let html: RawServer;

beforeAll(async () => {
  mock = await startMock();
  limited = await startMock({ rateLimit: 1, rateLimitWindowMs: 60_000 });
  failing = await startMock({ failRate: 1 });
  html = await startRawServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><html><body>Login</body></html>');
  });
});

afterAll(async () => {
  await Promise.all([mock.close(), limited.close(), failing.close()]);
  await html.close();
});

describe('exit codes', () => {
  it('0 on success', async () => {
    const result = await runCli(['reports', 'list'], { env: mock.env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(10);
  });

  it('2 on a bad flag value, naming the allowed values, before any request', async () => {
    const before = mock.server.requests.length;
    const result = await runCli(['reports', 'list', '--result', 'awful'], { env: mock.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Allowed choices are good, decent, bad/);
    expect(result.stderr.split('\n')[0]).toMatch(/^rsapi: /);
    expect(mock.server.requests.length).toBe(before);
  });

  it('2 on an unknown flag', async () => {
    const result = await runCli(['reports', 'list', '--colour'], { env: mock.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--colour'/);
  });

  it('2 on update with nothing to change', async () => {
    const result = await runCli(['reports', 'update', '3'], { env: mock.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nothing to update/);
  });

  it('3 with no key configured anywhere', async () => {
    const result = await runCli(['reports', 'list'], { env: { ...mock.env, RSAPI_API_KEY: undefined } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/no API key configured/);
    expect(result.stderr).toMatch(/auth login/);
  });

  it('3 with a wrong key, with a hint to log in', async () => {
    const result = await runCli(['reports', 'list'], { env: { ...mock.env, RSAPI_API_KEY: 'wrong-key-1234' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/authentication refused.*HTTP 401, GET \/reports/);
    expect(result.stderr).toMatch(/hint: .*auth login/);
  });

  it('4 on an unknown id, with a hint to list', async () => {
    const result = await runCli(['reports', 'show', '99999'], { env: mock.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/not found.*HTTP 404, GET \/reports\/99999/);
    expect(result.stderr).toMatch(/rsapi reports list/);
    expect(result.stdout).toBe('');
  });

  it('5 when the service rejects a field, one line per field', async () => {
    const result = await runCli(['api', 'POST', '/reports', '-f', 'url=nope', '-f', 'privacy=7'], { env: mock.env });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/HTTP 422, POST \/reports/);
    expect(result.stderr).toMatch(/^ {2}url: /m);
    expect(result.stderr).toMatch(/^ {2}privacy: /m);
  });

  it('6 when still rate limited after the retries', async () => {
    await runCli(['reports', 'list'], { env: limited.env });
    const result = await runCli(['reports', 'list', '--retries', '0'], { env: limited.env });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/still rate limited/);
  });

  it('7 when the service is down', async () => {
    const down = await startMock();
    const env = down.env;
    await down.server.close();
    const result = await runCli(['reports', 'list'], { env });
    await down.close();
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/could not connect.*connection refused/);
  });

  it('8 on 503 beyond the retries, after retries + 1 attempts', async () => {
    const before = failing.server.requests.length;
    const result = await runCli(['reports', 'list', '--retries', '2'], { env: failing.env });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/server error.*HTTP 503/);
    expect(failing.server.requests.length - before).toBe(3);
  });

  it('8 on an HTML page instead of JSON, with a hint about the base URL', async () => {
    const result = await runCli(['reports', 'list', '-o', 'json'], { env: { ...mock.env, RSAPI_BASE_URL: html.url } });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/HTML page instead of JSON/);
    expect(result.stderr).toMatch(/base URL/);
    expect(result.stderr).not.toMatch(/SyntaxError|at JSON\.parse/);
    expect(result.stdout).toBe('');
  });

  it('10 when a gate fails, with the records still printed and one verdict line', async () => {
    const result = await runCli(['reports', 'list', '--result', 'bad', '--fail-on', 'bad'], { env: mock.env });
    expect(result.code).toBe(10);
    expect(result.stdout.trim().split('\n').length).toBeGreaterThan(0);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^rsapi: gate failed: \d+ of \d+ reports are bad/)]);
  });

  it('0 when the gate passes', async () => {
    const result = await runCli(['reports', 'list', '--result', 'good', '--fail-on', 'decent', '--min-score', '80'], { env: mock.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/gate passed/);
  });
});
