// `rsapi api` options beyond the method and path: -H, --input (a file or stdin), -f into the query, --silent, and -i
// with a body that is not JSON, against a raw loopback server that echoes what it got.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/cli.js';
import { startRawServer, type RawServer } from '../../../helpers/raw-server.js';
import { runInProcess } from '../../../helpers/run.js';

let raw: RawServer;
const dir = tempDir('rsapi-api-options-');

beforeAll(async () => {
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
  await raw.close();
  dir.cleanup();
});

const rawEnv = () => ({ RSAPI_BASE_URL: `${raw.url}/api/v1`, RSAPI_API_KEY: 'raw-key-0123456789', RSAPI_CONFIG_DIR: join(dir.path, 'raw-cfg') });

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
