// Everything a command needs is resolved before its first request: a usage error sends nothing (checked at the server).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/run.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';

let mock: MockFixture;
const scratch = tempDir('rsapi-resolve-');

beforeAll(async () => {
  mock = await startMock({ seed: 12 });
});
afterAll(async () => {
  await mock.close();
  scratch.cleanup();
});

async function refusedWithNothingSent(args: string[], env: Record<string, string> = {}, input?: string): Promise<string> {
  const before = mock.server.requests.length;
  const result = await runInProcess({ argv: args, env: { ...mock.env, ...env }, stdin: input });
  expect(result.code, result.stderr).toBe(2);
  expect(mock.server.requests.slice(before)).toEqual([]);
  expect(result.stdout).toBe('');
  return result.stderr;
}

/** A settings dir whose default profile holds `output: value` (as if hand-edited). */
function storedOutput(value: string): Record<string, string> {
  const dir = join(scratch.path, `config-${value}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { output: value } } }), { mode: 0o600 });
  return { RSAPI_CONFIG_DIR: dir };
}

describe('usage errors before any request', () => {
  it.each([
    [['reports', 'update', '7', '--privacy', 'private', '--json', '-o', 'csv']],
    [['reports', 'show', '7', '--json', '-o', 'tsv']],
    [['reports', 'delete', '7', '8', '--yes', '--json', '-o', 'csv']],
    [['reports', 'create', 'https://a.example/', '--json', '-o', 'ndjson']],
    [['projects', 'delete', 'example.com', '--yes', '--json', '-o', 'csv']],
  ])('%j: --json with another -o', async (args) => {
    expect(await refusedWithNothingSent(args)).toMatch(/--json and -o \w+ ask for different formats/);
  });

  it.each([[['reports', 'update', '7', '--privacy', 'private']], [['reports', 'show', '7']], [['reports', 'create', 'https://b.example/']]])(
    '%j: a broken stored output setting, named with its file',
    async (args) => {
      expect(await refusedWithNothingSent(args, storedOutput('xml'))).toMatch(/output/);
    },
  );

  it('a password file that does not exist', async () => {
    expect(await refusedWithNothingSent(['reports', 'update', '7', '--privacy', 'password', '--password-file', join(scratch.path, 'none')])).toMatch(
      /no such file/,
    );
  });

  it('a password given without --privacy password', async () => {
    expect(await refusedWithNothingSent(['reports', 'update', '7', '--privacy', 'private', '--password-stdin'], {}, 'secret\n')).toMatch(
      /only with --privacy password/,
    );
  });

  it('a bad URL among good ones', async () => {
    expect(await refusedWithNothingSent(['reports', 'create', 'https://c.example/', 'http:example.com'])).toMatch(/http:example\.com/);
  });
});
