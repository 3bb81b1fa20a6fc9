// `rsapi mock-server` as a user starts it: --flavor and the phpRank options reach the service, and --help says them;
// its plan (planMockServer): argv -> the mock's options.

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { planMockServer } from '../../../src/cli/commands/mock-server.js';
import { BIN, NODE, cleanEnv } from '../../helpers/cli.js';
import { planOf } from '../../helpers/plan.js';
import { runInProcess } from '../../helpers/run.js';

/** Starts the built binary's mock-server with `args`, hands its base URL to `body`, then stops it with SIGINT. */
async function withMockServer(args: string[], body: (baseUrl: string, banner: string) => Promise<void>): Promise<void> {
  const child = spawn(NODE, [BIN, 'mock-server', '--port', '0', ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (/API key: \S+\n/.test(text)) resolve(text);
      });
      child.once('exit', (code) => reject(new Error(`mock-server exited (${code}) before its banner: ${text}`)));
    });
    await body(/listening on (\S+)/.exec(banner)?.[1] ?? '', banner);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
}

const HEADERS = { Authorization: 'Bearer mock-key-0123456789abcdef', Accept: 'application/json' };

describe('rsapi mock-server --flavor phprank', () => {
  it('serves phpRank: cleaned final URLs through --redirect, the --rate-limit given, the banner naming the flavor', async () => {
    await withMockServer(
      ['--flavor', 'phprank', '--seed', '2', '--rate-limit', '7', '--redirect', 'https://go.example/a=https://www.there.example/b'],
      async (baseUrl, banner) => {
        expect(banner).toMatch(/^rsapi mock service \(phpRank flavor\) listening on /);
        const created = await fetch(`${baseUrl}/reports`, {
          method: 'POST',
          headers: { ...HEADERS, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ url: 'https://go.example/a' }),
        });
        expect(created.status).toBe(201);
        expect(created.headers.get('x-ratelimit-limit')).toBe('7');
        expect(((await created.json()) as { data: { url: string; project: string } }).data).toMatchObject({ url: 'there.example/b', project: 'there.example' });
      },
    );
  });

  it('answers 403 to every call with --plan-without-api', async () => {
    await withMockServer(['--flavor', 'phprank', '--plan-without-api'], async (baseUrl) => {
      const answer = await fetch(`${baseUrl}/reports`, { headers: HEADERS });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({ message: "You don't have access to this feature.", status: 403 });
    });
  });

  it("--unreachable HOST (repeatable): a create of a page there answers 422 on url with cURL's message", async () => {
    await withMockServer(['--flavor', 'phprank', '--unreachable', 'down.example', '--unreachable', 'gone.example'], async (baseUrl) => {
      for (const url of ['https://down.example/', 'https://gone.example/x']) {
        const answer = await fetch(`${baseUrl}/reports`, {
          method: 'POST',
          headers: { ...HEADERS, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ url }),
        });
        expect(answer.status).toBe(422);
        expect(JSON.stringify(await answer.json())).toContain('cURL error 7: Failed to connect to');
      }
    });
  });

  it('stays the seed flavor by default', async () => {
    await withMockServer(['--seed', '1'], async (baseUrl, banner) => {
      expect(banner).toMatch(/^rsapi mock service \(seed flavor\) listening on /);
      const answer = await fetch(`${baseUrl}/reports/1`, { headers: HEADERS });
      expect(((await answer.json()) as { data: { url: string; result: string } }).data).toMatchObject({
        url: 'https://example.com/',
        result: 'bad',
        score: 17,
      });
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
    });
  });

  it('documents --flavor seed|phprank, --redirect and --plan-without-api in --help, and refuses another flavor', async () => {
    const help = await runInProcess({ argv: ['mock-server', '--help'] });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--flavor <flavor>[\s\S]*"seed",\s+"phprank"/);
    expect(help.stdout).toContain('--redirect <from=to>');
    expect(help.stdout).toContain('--plan-without-api');
    const refused = await runInProcess({ argv: ['mock-server', '--flavor', 'laravel'] });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('laravel');
  });
});

/** What the built mock prints on start, up to its `try:` line; stopped then. */
async function banner(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(NODE, [BIN, 'mock-server', '--port', '0', ...args], { env });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const deadline = Date.now() + 10_000;
  while (!stdout.includes('try:') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('close', resolve));
  return stdout;
}

describe('rsapi mock-server --api-key KEY', () => {
  it('the copy-paste line never prints RSAPI_API_KEY=***', async () => {
    const stdout = await banner(['--api-key', 'my-own-key-123'], cleanEnv());
    expect(stdout).toMatch(/try: RSAPI_BASE_URL=http:\/\/127\.0\.0\.1:\d+ RSAPI_API_KEY="\$YOUR_KEY" rsapi reports list/);
    expect(stdout).not.toContain('***');
  });
});

describe('rsapi mock-server in a shell that exports the demo key', () => {
  it('prints the demo key and a try: line that works when pasted (the demo key is no secret)', async () => {
    const stdout = await banner([], { ...cleanEnv(), RSAPI_API_KEY: 'mock-key-0123456789abcdef' });
    expect(stdout).toContain('API key: mock-key-0123456789abcdef\n');
    expect(stdout).toMatch(/try: RSAPI_BASE_URL=http:\/\/127\.0\.0\.1:\d+ RSAPI_API_KEY=mock-key-0123456789abcdef rsapi reports list/);
    expect(stdout).not.toContain('***');
  });
});

describe('rsapi mock-server: the phprank-only options with the seed flavor', () => {
  it.each([
    [['--drift', '0.1'], '--drift is'],
    [['--plan-without-api'], '--plan-without-api is'],
    [['--redirect', 'https://a.example/=https://b.example/', '--drift', '0.2'], '--redirect, --drift are'],
  ])('%j is refused: exit 2, one line, nothing started', async (flags, named) => {
    const result = await runInProcess({ argv: ['mock-server', '--port', '0', ...flags] });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([`rsapi: ${named} only played by the phprank flavor: add --flavor phprank`]);
    expect(result.stdout).toBe('');
  });
});

describe('rsapi mock-server: argv -> plan', () => {
  it('the options the mock runs with: milliseconds for seconds, the key given, the phprank-only options with --flavor phprank', async () => {
    const plan = await planOf(
      ['mock-server', '--flavor', 'phprank', '--port', '0', '--rate-limit', '10', '--rate-limit-window', '2', '--drift', '0.1', '--api-key', 'own-key-0123'],
      planMockServer,
      {},
    );
    expect(plan.options).toMatchObject({
      flavor: 'phprank',
      host: '127.0.0.1',
      port: 0,
      apiKey: 'own-key-0123',
      rateLimit: 10,
      rateLimitWindowMs: 2000,
      drift: 0.1,
    });
    expect((await planOf(['mock-server'], planMockServer, {})).options).toMatchObject({
      flavor: 'seed',
      port: 8787,
      envelope: 'length-aware',
      apiKey: undefined,
    });
    await expect(planOf(['mock-server', '--drift', '0.1'], planMockServer, {})).rejects.toThrow(
      /^--drift is only played by the phprank flavor: add --flavor phprank$/,
    );
  });
});
