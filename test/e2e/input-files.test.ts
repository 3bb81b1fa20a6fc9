// Input files that are no regular file, as processes: a FIFO given as --config is refused at once (it blocked the
// process past SIGTERM), /dev/zero is refused unread, a urlFile of /proc never prints the environment; stdin stays.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, NODE, cleanEnv, runCli, tempDir } from '../helpers/cli.js';

const home = tempDir('rsapi-input-files-');
afterAll(() => home.cleanup());
const env = {
  HOME: home.path,
  RSAPI_CONFIG_DIR: join(home.path, 'config'),
  XDG_DATA_HOME: join(home.path, 'data'),
  RSAPI_BASE_URL: 'http://127.0.0.1:9',
  RSAPI_API_KEY: 'input-key-0123',
};

describe('input files that are no regular file', () => {
  it('a FIFO as --config: refused, and a SIGTERM never waits on it', async () => {
    const fifo = join(home.path, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const child = spawn(NODE, [BIN, 'audit', '--config', fifo], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Before the fix the process sat in a read of the FIFO: SIGTERM's handler never ran, and this test timed out.
    const term = setTimeout(() => child.kill('SIGTERM'), 1_500);
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    clearTimeout(term);
    clearTimeout(kill);
    expect(signal).not.toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot read the configuration file ${fifo}: it is not a regular file (a FIFO)`);
  }, 20_000);

  it('a urlFile of /proc/self/environ: exit 2, and no line of the environment on stderr', async () => {
    const config = join(home.path, 'environ.json');
    writeFileSync(config, JSON.stringify({ audit: { urlFile: '/proc/self/environ' } }));
    const result = await runCli(['audit', '--config', config], { env: { ...env, INPUT_FILES_MARKER: 'do-not-print-me' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot read the URL file /proc/self/environ: it is not a regular file (a file of /proc)');
    expect(result.stderr).not.toContain('do-not-print-me');
  });

  it('--from-file /dev/zero is refused unread; --from-file - still reads standard input', async () => {
    const zero = await runCli(['reports', 'create', '--from-file', '/dev/zero'], { env, timeoutMs: 15_000 });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('cannot read the URL file /dev/zero: it is not a regular file (a device)');
    const stdin = await runCli(['reports', 'create', '--from-file', '-', '--dry-run'], { env, input: 'https://a.example/\n' });
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(stdin.stdout).toContain('https://a.example/');
  });
});
