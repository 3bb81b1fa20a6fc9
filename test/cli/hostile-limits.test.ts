// A hostile service's limits cases: huge bodies, deep JSON, big ids, unlisted statuses, and stdout that cannot be written.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/run.js';
import { BIG_ID, startHostileServer, type HostileAnswer, type HostileServer } from '../helpers/hostile-server.js';
import { tempHomePerTest } from '../helpers/settings.js';

const KEY = 'hostile-limits-key-Wx42';
const home = tempHomePerTest('rsapi-limits-', 'config');
let server: HostileServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(answer: (url: string, method: string) => HostileAnswer): Promise<HostileServer> {
  server = await startHostileServer((request) => answer(request.url, request.method));
  return server;
}

function rsapi(args: string[], input?: string) {
  return runInProcess({
    argv: [...args, '--base-url', server!.url, '--api-key', KEY],
    env: { HOME: home.path, RSAPI_CONFIG_DIR: home.settings.dir },
    stdin: input,
  });
}

const GIB = 1024 ** 3;

describe('a body larger than the cap', () => {
  it.each([
    ['declared in Content-Length', true],
    ['streamed without a length', false],
  ])('%s: exit 8, one request, never downloaded again, read no further than the cap', async (_name, declareLength) => {
    await serve(() => ({ bytes: Math.round(1.1 * GIB), declareLength }));
    const { code, stderr } = await rsapi(['reports', 'list']);
    expect(code).toBe(8);
    expect(stderr).toMatch(/^rsapi: the service's answer is larger than 32 MiB; rsapi stopped reading it \(HTTP 200, GET \/reports\)\nhint: /);
    expect(server!.requests).toHaveLength(1);
    // The server stops once the client hangs up: far less than the 1.1 GB was ever sent.
    expect(server!.hugeBytesSent()).toBeLessThan(256 * 1024 * 1024);
  });

  it('a 503 with a huge body is not retried either', async () => {
    await serve(() => ({ bytes: 64 * 1024 * 1024, declareLength: false, status: 503 }));
    const { code } = await rsapi(['reports', 'list']);
    expect(code).toBe(8);
    expect(server!.requests).toHaveLength(1);
  });
});

describe('JSON nested 5,000 levels', () => {
  it('is exit 8 with a plain message, no stack overflow', async () => {
    await serve(() => ({ depth: 5000 }));
    const { code, stderr } = await rsapi(['reports', 'list', '-o', 'json']);
    expect(code).toBe(8);
    expect(stderr).toMatch(/^rsapi: the service answered with JSON nested deeper than 128 levels/);
    expect(stderr).not.toMatch(/Maximum call stack|\n\s+at /);
  });

  it('in an error body, leaves the status to decide (a 409 is exit 5)', async () => {
    await serve(() => ({ depth: 5000, status: 409 }));
    expect((await rsapi(['reports', 'list'])).code).toBe(5);
  });
});

describe('ids beyond 2^53', () => {
  const list = (): HostileAnswer => ({ text: `{"data":[{"id":${BIG_ID},"url":"https://e.com/","score":71}],"links":{"next":null}}` });

  it.each([
    ['json', ['-o', 'json'], `"id": ${BIG_ID},`],
    ['ndjson', ['-o', 'ndjson'], `{"id":${BIG_ID},`],
    ['csv', ['-o', 'csv'], `\r\n${BIG_ID},`],
    ['tsv', [], `${BIG_ID}\t`],
    ['-q', ['-q'], `${BIG_ID}\n`],
  ])('print exactly in %s', async (_name, flags, expected) => {
    await serve(list);
    const { stdout, code } = await rsapi(['reports', 'list', ...flags]);
    expect(code).toBe(0);
    expect(stdout).toContain(expected);
    expect(stdout).not.toContain('9007199254740992');
  });

  it('`list -q | delete -` deletes the report with that exact id', async () => {
    await serve((_url, method) => (method === 'DELETE' ? { status: 204, text: '' } : list()));
    const ids = (await rsapi(['reports', 'list', '-q'])).stdout;
    const { code } = await rsapi(['reports', 'delete', '-', '--yes'], ids);
    expect(code).toBe(0);
    expect(server!.requests.filter((request) => request.method === 'DELETE').map((request) => request.url)).toEqual([`/api/v1/reports/${BIG_ID}`]);
  });

  it('rsapi api prints the body with the id exact', async () => {
    await serve(list);
    const { stdout } = await rsapi(['api', 'GET', '/reports']);
    expect(stdout).toContain(`"id": ${BIG_ID}`);
  });
});

describe('unlisted 4xx statuses', () => {
  it.each([405, 409, 410, 413, 418, 451])('%i is exit 5 with the service message, not retried', async (status) => {
    await serve(() => ({ status, json: { message: `No way (${status}).` } }));
    const { code, stderr } = await rsapi(['reports', 'list']);
    expect(code).toBe(5);
    expect(stderr).toContain(`rsapi: request refused: No way (${status}). (HTTP ${status}, GET /reports)`);
    expect(server!.requests).toHaveLength(1);
  });
});

describe('an error body built to flood the screen', () => {
  it('a 422 with a 1 MB message and 5,000 field errors: exit 5, the message cut, 50 field lines and a count', async () => {
    const errors = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field${i}`, [`bad ${i}`]]));
    await serve(() => ({ status: 422, json: { message: 'x'.repeat(1024 * 1024), errors } }));
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--base-url', server!.url, '--api-key', KEY] });
    expect(code).toBe(5);
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^rsapi: the service rejected the request: x{1000}… \(1047576 more characters\) \(HTTP 422, GET \/reports\)$/);
    expect(lines.slice(1, 51)).toEqual(Array.from({ length: 50 }, (_, i) => `  field${i}: bad ${i}`));
    expect(lines[51]).toBe('  … and 4950 more field errors');
    expect(lines).toHaveLength(52);
  });
});

describe('stdout that cannot be written', () => {
  it('> /dev/full is one line on stderr and exit 1, no stack trace', async () => {
    await serve(() => ({ json: { data: [{ id: 1, url: 'https://e.com/' }], links: { next: null } } }));
    const full = openSync('/dev/full', 'w');
    try {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'reports', 'list', '-o', 'json', '--base-url', server!.url, '--api-key', KEY], {
          env: cleanEnv({ HOME: home.path, RSAPI_CONFIG_DIR: home.settings.dir }),
          stdio: ['ignore', full, 'pipe'],
        });
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('rsapi: cannot write the output: no space left on the device (ENOSPC)\n');
    } finally {
      closeSync(full);
    }
  });
});
