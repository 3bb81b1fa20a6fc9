// Output that cannot be written (> /dev/full) is one line on stderr and exit 1 for every command, help included.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, NODE, cleanEnv, tempDir } from '../helpers/cli.js';
import { startMock, type MockFixture } from '../helpers/mock.js';

let mock: MockFixture;
const home = tempDir('rsapi-full-');

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
  home.cleanup();
});

function intoDevFull(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(NODE, [BIN, ...args], {
      env: cleanEnv({ HOME: home.path, RSAPI_CONFIG_DIR: mock.configDir, RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: mock.server.apiKey }),
      stdio: ['ignore', full, 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  }).finally(() => closeSync(full));
}

const LINE = 'rsapi: cannot write the output: no space left on the device (ENOSPC)\n';

describe('a failed write to stdout', () => {
  it.each(
    [
      ['--help'],
      ['reports', '--help'],
      ['help', 'reports', 'list'],
      ['completion', 'zsh'],
      ['config', 'list'],
      ['config', 'path'],
      ['--version'],
      ['reports', 'list', '--json'],
    ].map((argv) => ({ argv, name: argv.join(' ') })),
  )('rsapi $name > /dev/full: one line, exit 1', async ({ argv }) => {
    const result = await intoDevFull(argv);
    expect(result.code).toBe(1);
    expect(result.stderr.endsWith(LINE)).toBe(true);
    expect(result.stderr.split(LINE)).toHaveLength(2);
    expect(result.stderr).not.toMatch(/at .*\.js/);
  });
});
