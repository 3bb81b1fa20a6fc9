// The smaller first-hour trips (issue 20, point 12): ranges, repeats, ids, misplaced flags, proxy and settings-file
// problems, the mock's banner, and `rsapi api` -H / --input / --silent / -i with a non-JSON body.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { startRawServer, type RawServer } from '../helpers/raw-server.js';
import { BIN, NODE, cleanEnv, tempDir } from '../helpers/cli.js';

let mock: MockFixture;
let raw: RawServer;
const dir = tempDir('rsapi-smaller-');

beforeAll(async () => {
  mock = await startMock({ seed: 3 });
  raw = await startRawServer((request, response) => {
    if (request.url.includes('html')) {
      response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway from the proxy</body></html>');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ data: { seen: request.headers['x-trace'] ?? null, body: request.body } }));
  });
});
afterAll(async () => {
  await mock.close();
  await raw.close();
  dir.cleanup();
});

const rawEnv = () => ({ RSAPI_BASE_URL: `${raw.url}/api/v1`, RSAPI_API_KEY: 'raw-key-0123456789', RSAPI_CONFIG_DIR: join(dir.path, 'raw-cfg') });

describe('refused before any request (exit 2)', () => {
  it.each([
    { name: '--min-score 101', argv: ['reports', 'list', '--min-score', '101'], error: /--min-score must be a score from 0 to 100/ },
    { name: '--min-score -5', argv: ['reports', 'list', '--min-score=-5'], error: /--min-score must be a score from 0 to 100/ },
    { name: '--limit beyond any count', argv: ['reports', 'list', '--limit', '99999999999999999999'], error: /--limit is too large/ },
    {
      name: '--result twice',
      argv: ['reports', 'list', '--result', 'good', '--result', 'bad'],
      error: /--result is given twice \("good", then "bad"\); it takes one value/,
    },
    { name: '--project twice', argv: ['reports', 'stats', '--project', 'a', '--project', 'b'], error: /--project is given twice/ },
    { name: 'reports show abc', argv: ['reports', 'show', 'abc'], error: /"abc" is not a report id/ },
    { name: 'reports show 0', argv: ['reports', 'show', '0'], error: /"0" is not a report id/ },
    {
      name: 'a list flag before the verb',
      argv: ['--limit', '2', 'reports', 'list'],
      error: /unknown option "--limit"\nhint: --limit is an option of `rsapi reports list`: put it after the command's name/,
    },
    {
      name: 'HTTP_PROXY=notaurl',
      argv: ['reports', 'list'],
      env: { HTTP_PROXY: 'notaurl' },
      error: /^rsapi: HTTP_PROXY is not a proxy URL\nhint: write it as http:\/\/host:port/,
    },
  ])('$name', async ({ argv, env, error }) => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv, env: { ...mock.env, ...env } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(error);
    expect(result.stderr).not.toMatch(/unexpected error/);
    expect(mock.server.requests.length).toBe(before);
  });

  it('--min-score 0 and 100 are fine', async () => {
    expect((await runInProcess({ argv: ['reports', 'list', '--min-score', '0', '--json'], env: mock.env })).code).toBe(0);
  });
});

describe('ids and fields', () => {
  it('reports delete - takes ids several a line', async () => {
    const ids = (await runInProcess({ argv: ['reports', 'list', '-q'], env: mock.env })).stdout.trim().split('\n');
    const result = await runInProcess({ argv: ['reports', 'delete', '-', '--yes'], env: mock.env, stdin: `${ids[0]} ${ids[1]}\n${ids[2]}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(mock.server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(3);
    await mock.close();
    mock = await startMock({ seed: 3 });
  });

  it('a misspelt --fields name gets "did you mean"', async () => {
    const result = await runInProcess({ argv: ['reports', 'list', '--fields', 'id,scroe', '-o', 'csv'], env: mock.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/field "scroe" \(did you mean "score"\?\)/);
  });
});

describe('the settings file', () => {
  it('a corrupt file does not block a run given --base-url and --api-key (a warning), but does block one that needs it', async () => {
    const env = { ...mock.env, RSAPI_CONFIG_DIR: join(dir.path, 'corrupt') };
    await runInProcess({ argv: ['config', 'set', 'timeout', '5'], env: { ...env, RSAPI_BASE_URL: undefined, RSAPI_API_KEY: undefined } });
    writeFileSync(join(env.RSAPI_CONFIG_DIR, 'config.json'), '{ not json');
    const given = await runInProcess({
      argv: ['reports', 'list', '--json', '--base-url', mock.server.url, '--api-key', mock.server.apiKey],
      env: { ...env, RSAPI_BASE_URL: undefined, RSAPI_API_KEY: undefined },
    });
    expect(given.code, given.stderr).toBe(0);
    expect(JSON.parse(given.stdout)).toHaveLength(3);
    expect(given.stderr).toMatch(/^rsapi: warning: the settings file .* is not valid JSON; passed over/);
    const needed = await runInProcess({ argv: ['reports', 'list'], env: { ...env, RSAPI_API_KEY: undefined } });
    expect(needed.code).toBe(2);
    expect(needed.stderr).toMatch(/is not valid JSON/);
  });
});

describe('rsapi mock-server --api-key KEY', () => {
  it('the copy-paste line never prints RSAPI_API_KEY=***', async () => {
    const child = spawn(NODE, [BIN, 'mock-server', '--port', '0', '--api-key', 'my-own-key-123'], { env: cleanEnv({ RSAPI_CONFIG_DIR: join(dir.path, 'm') }) });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const deadline = Date.now() + 10_000;
    while (!stdout.includes('try:') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('close', resolve));
    expect(stdout).toMatch(/try: RSAPI_BASE_URL=http:\/\/127\.0\.0\.1:\d+ RSAPI_API_KEY="\$YOUR_KEY" rsapi reports list/);
    expect(stdout).not.toContain('***');
  });
});

describe('rsapi api -H, --input, --silent, -i', () => {
  it('-H adds a header; Authorization cannot be replaced', async () => {
    const result = await runInProcess({ argv: ['api', 'GET', '/x', '-H', 'X-Trace: abc', '--jq', '.data.seen'], env: rawEnv() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('abc\n');
    const refused = await runInProcess({ argv: ['api', 'GET', '/x', '-H', 'Authorization: Bearer other'], env: rawEnv() });
    expect(refused.code).toBe(2);
    expect(raw.requests.at(-1)?.headers.authorization).toBe('Bearer raw-key-0123456789');
  });

  it('--input sends the file (or stdin) as the body, JSON by default; -f goes to the query', async () => {
    const file = join(dir.path, 'body.json');
    writeFileSync(file, '{"url":"https://example.com/"}');
    const result = await runInProcess({ argv: ['api', 'POST', '/x', '--input', file, '-f', 'a=1', '--jq', '.data.body'], env: rawEnv() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('{"url":"https://example.com/"}\n');
    const seen = raw.requests.at(-1)!;
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.url).toBe('/api/v1/x?a=1');
    const stdin = await runInProcess({ argv: ['api', 'PUT', '/x', '--input', '-', '-H', 'Content-Type: text/plain'], env: rawEnv(), stdin: 'hello' });
    expect(stdin.code).toBe(0);
    expect(raw.requests.at(-1)?.body).toBe('hello');
    expect(raw.requests.at(-1)?.headers['content-type']).toBe('text/plain');
  });

  it('--silent prints no body', async () => {
    const result = await runInProcess({ argv: ['api', 'GET', '/x', '--silent'], env: rawEnv() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('-i shows a body that is not JSON', async () => {
    const result = await runInProcess({ argv: ['api', 'GET', '/html', '-i'], env: { ...rawEnv(), RSAPI_RETRIES: '0' } });
    expect(result.code).toBe(8);
    expect(result.stdout).toMatch(/^HTTP\/1\.1 502 Bad Gateway\n/);
    expect(result.stdout).toContain('<html><body>Bad gateway from the proxy</body></html>\n');
  });
});
