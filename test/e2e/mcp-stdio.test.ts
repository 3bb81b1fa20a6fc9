// `rsapi mcp` over raw stdio bytes, as a client that writes what it likes: every request answered, the server kept up.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, NODE, cleanEnv, tempDir } from '../helpers/cli.js';
import { startMock, type MockFixture } from '../helpers/mock.js';

const KEY = 'mcp-stdio-key-3c9e1f';
type Answer = { id?: number | string; result?: { content: { text: string }[]; isError?: boolean }; error?: { code: number; message: string } };

describe('rsapi mcp over raw stdio', () => {
  let mock: MockFixture;
  const home = tempDir('rsapi-mcp-stdio-');
  beforeAll(async () => {
    mock = await startMock({ flavor: 'phprank', apiKey: KEY, rateLimit: 0, latencyMs: 300 });
  });
  afterAll(async () => {
    await mock?.close();
    home.cleanup();
  });

  it('answers a line over 10 MB, a line not JSON and bad params with errors, finishes the call in flight, and ends at EOF with 0', async () => {
    const child = spawn(NODE, [BIN, 'mcp'], {
      env: cleanEnv({ RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: KEY, RSAPI_CONFIG_DIR: home.path, HOME: home.path }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers: Answer[] = [];
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) answers.push(JSON.parse(line) as Answer);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const send = (line: string) => new Promise<void>((resolve) => (child.stdin.write(`${line}\n`) ? resolve() : child.stdin.once('drain', resolve)));
    // Answers come as each request finishes, so every one is waited for, the one without an id too.
    const answerTo = async (id: number | undefined) => {
      for (let waited = 0; waited < 15_000; waited += 20) {
        const found = answers.find((answer) => answer.id === id);
        if (found) return found;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no answer to ${id} (exit ${child.exitCode}); stderr: ${stderr}`);
    };
    const call = (id: number, params: unknown) => send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }));

    await send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    await send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await answerTo(1);
    // In flight (the mock answers each of its pages in 300 ms) while the rest arrives.
    await call(2, { name: 'report_stats', arguments: {} });
    await call(3, { name: 'list_reports', arguments: { note: 'x'.repeat(11 * 1024 * 1024) } });
    await send('this is not JSON');
    await call(4, 5);
    await call(5, { name: 'list_reports', arguments: 'x' });
    const nullFilters = Buffer.from(JSON.stringify({ t: 'list_reports', filters: null, page: 1, skip: 0, perPage: 10 })).toString('base64url');
    await call(6, { name: 'list_reports', arguments: { cursor: nullFilters } });
    await call(7, { name: 'list_projects', arguments: {} });

    expect((await answerTo(3)).error).toEqual({
      code: -32600,
      message: expect.stringMatching(/^invalid request: a message of 1153\d{4} bytes is over the limit of 10485760 bytes/),
    });
    expect((await answerTo(undefined)).error).toEqual({
      code: -32700,
      message: expect.stringMatching(/^parse error: a line that is not JSON/),
    });
    expect((await answerTo(4)).error).toEqual({ code: -32602, message: 'tools/call: params must be an object, not 5' });
    expect((await answerTo(5)).error).toEqual({ code: -32602, message: 'tools/call: arguments must be an object, not "x"' });
    const cursor = (await answerTo(6)).result;
    expect(cursor?.isError).toBe(true);
    expect(cursor?.content[0]?.text).toMatch(/^rsapi: cursor: not a cursor of list_reports/);
    expect((await answerTo(7)).result?.isError).toBeFalsy();
    const stats = await answerTo(2);
    expect(JSON.parse(stats.result?.content[0]?.text ?? '')).toMatchObject({ reports: 63 });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).not.toContain(KEY);
  }, 30_000);
});
