// What the built CLI loads before it answers: --version and --help stay clear of the modules only requests and files need.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, NODE, cleanEnv } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'rsapi-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Node's own list of the built-in modules it loaded, written at exit by a preloaded hook. */
function builtinsLoadedBy(args: string[]): { stdout: string; modules: string[] } {
  const hook = join(dir, 'hook.cjs');
  const out = join(dir, `modules-${args.join('-')}.txt`);
  writeFileSync(hook, "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));");
  const result = spawnSync(NODE, ['--require', hook, BIN, ...args], { env: cleanEnv({ MODULES_OUT: out }), encoding: 'utf8' });
  expect(result.status).toBe(0);
  return { stdout: result.stdout, modules: readFileSync(out, 'utf8').split('\n') };
}

describe('start-up', () => {
  it('--version writes the version and loads neither streams nor V8 settings', () => {
    const { stdout, modules } = builtinsLoadedBy(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    for (const name of ['NativeModule stream', 'NativeModule v8', 'NativeModule crypto', 'NativeModule child_process']) expect(modules).not.toContain(name);
  });

  it('--help loads no child_process, crypto, V8 settings, HTTP or TLS', () => {
    const { stdout, modules } = builtinsLoadedBy(['--help']);
    expect(stdout).toContain('Usage: rsapi');
    for (const name of ['NativeModule child_process', 'NativeModule crypto', 'NativeModule v8', 'NativeModule http', 'NativeModule tls']) {
      expect(modules).not.toContain(name);
    }
  });

  it('--version on a full disk is one line and exit 1', () => {
    const result = spawnSync(NODE, [BIN, '--version'], { env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    expect(result.status).toBe(0);
    const full = spawnSync('sh', ['-c', `"$0" "$1" --version > /dev/full`, NODE, BIN], { env: cleanEnv(), encoding: 'utf8' });
    expect(full.status).toBe(1);
    expect(full.stderr).toBe('rsapi: cannot write the output: no space left on the device (ENOSPC)\n');
  });
});
