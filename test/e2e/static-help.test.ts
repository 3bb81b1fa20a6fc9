// The root help that bin/rsapi prints without loading the CLI (dist/root-help.txt, written by the build) is byte for
// byte what the CLI prints, in every case the shim serves; the cases it does not serve reach the CLI.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, NODE, cleanEnv, tempDir } from '../helpers/cli.js';
import { runOnTerminal } from '../helpers/terminal.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dir = tempDir('rsapi-static-help-');
afterAll(() => dir.cleanup());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Whether Node's stream modules loaded: the CLI makes process.stdout a stream, the shim writes to fd 1 directly. */
  streams: boolean;
}

/** One run of `script` (bin/rsapi or dist/main.js) with stdout a pipe, and what Node loaded. */
function run(script: string, args: string[], env: Record<string, string | undefined> = {}): Run {
  const hook = join(dir.path, 'hook.cjs');
  const out = join(dir.path, 'modules.txt');
  writeFileSync(hook, "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));");
  const result = spawnSync(NODE, ['--require', hook, script, ...args], { env: cleanEnv({ MODULES_OUT: out, ...env }), encoding: 'utf8' });
  const modules = readFileSync(out, 'utf8').split('\n');
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, streams: modules.includes('NativeModule stream') };
}

describe('the root help answered by bin/rsapi', () => {
  it.each([
    { args: ['--help'], env: {} },
    { args: ['-h'], env: {} },
    { args: ['help'], env: {} },
    // None of these changes the root help in a pipe; the shim serves them all.
    { args: ['--help'], env: { NO_COLOR: '1' } },
    { args: ['--help'], env: { FORCE_COLOR: '3' } },
    { args: ['--help'], env: { COLUMNS: '40' } },
    { args: ['--help'], env: { RSAPI_API_KEY: 'a-key-not-in-the-help', RSAPI_OUTPUT: 'json', RSAPI_PROFILE: 'other' } },
  ])("rsapi $args.0 with $env: the CLI's text, byte for byte, without loading the CLI", ({ args, env }) => {
    const cli = run(MAIN, args, env);
    const shim = run(BIN, args, env);
    expect(cli).toMatchObject({ code: 0, stderr: '', streams: true });
    expect(cli.stdout).toMatch(/^Usage: rsapi \[options\] \[command\]\n/);
    expect(shim).toEqual({ ...cli, streams: false });
  });

  it('serves `rsapi help` too: the same text on stdout, exit 0, as the CLI gives it', () => {
    const cli = run(MAIN, ['help']);
    expect(cli).toMatchObject({ code: 0, stderr: '', stdout: run(MAIN, ['--help']).stdout });
    expect(run(BIN, ['help'])).toEqual({ ...cli, streams: false });
  });

  it('leaves a help the API key would be masked in to the CLI', () => {
    const env = { RSAPI_API_KEY: 'reports' };
    const shim = run(BIN, ['--help'], env);
    expect(shim.streams).toBe(true);
    expect(shim.stdout).toContain('***|report');
    expect(shim.stdout).toBe(run(MAIN, ['--help'], env).stdout);
  });

  it('leaves a help on a terminal to the CLI, which wraps it at the terminal width', async () => {
    const { code, screen } = await runOnTerminal(['--help'], { size: { columns: 100, rows: 50 } });
    expect(code).toBe(0);
    expect(screen).toContain('audit reports on webpages, from a terminal, a\r\nscript or CI.');
  });

  it('says nothing and exits 0 when the reader has gone (EPIPE)', async () => {
    const child = spawn(NODE, [BIN, '--help'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // closed before the shim can start, let alone write
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('the root help on a terminal', () => {
  it.each([80, 40])('at %i columns every line fits the width and no word is broken (exit codes and environment included)', async (columns) => {
    const { code, screen } = await runOnTerminal(['--help'], { size: { columns, rows: 50 } });
    expect(code).toBe(0);
    const lines = screen.split('\r\n');
    expect(lines.filter((line) => [...line].length > columns)).toEqual([]);
    // Each long word of the blocks written by hand stands whole on one line (the terminal broke them before).
    for (const word of ['--fail-on-check', '--fail-on-importance,', 'RSAPI_TIMEOUT,', 'RSAPI_CONFIG_DIR,', '(Ctrl-C)']) {
      expect(lines.some((line) => line.includes(word))).toBe(true);
    }
    expect(screen).toMatch(/Exit codes:\r\n {2}0 {4}success\r\n/);
    expect(screen).toMatch(/ {2}141 {2}bulk create: stdout closed before\s/);
  });
});
