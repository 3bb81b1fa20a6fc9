// Running the built `bin/rsapi` as a child process, as a user does, with its own temp config dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/rsapi', import.meta.url));
/** The Node that runs the CLI: RSAPI_TEST_NODE names another line's binary (scripts/node-lines.mjs), else the one running the tests. */
export const NODE = process.env.RSAPI_TEST_NODE || process.execPath;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Extra environment; RSAPI_* and colour variables of the parent are never inherited. */
  env?: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed. */
  input?: string;
  timeoutMs?: number;
}

/** An environment with no trace of the developer's own settings: HOME and RSAPI_CONFIG_DIR point at temp dirs. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // CI too: whether a spinner or a progress bar is drawn must not depend on where the suite runs.
    if (/^(RSAPI_|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|NO_PROXY$|CI$)/i.test(key)) continue;
    env[key] = value;
  }
  // As runInProcess: no page of a test is fetched by rsapi after a lost answer unless the test says so.
  env.RSAPI_FOLLOW_PAGES = '0';
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/**
 * The built binary started with `args` and left running (a test that signals it, or runs two at once): the child, and
 * its end with everything it wrote. The caller stops it if the test ends first.
 */
export function startCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): {
  child: ChildProcess;
  done: Promise<CliResult>;
} {
  const child = spawn(NODE, [BIN, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, ...args], { env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = 'rsapi-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
