// Running one rsapi invocation in-process, through an injected terminal: the fast way to test a command.
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Clock } from '../../src/api/http/retry-policy.js';
import { LockFiles } from '../../src/config/lock-file.js';
import { CommandContext } from '../../src/cli/runtime/context.js';
import { createInvocation } from '../../src/cli/runtime/invocation.js';
import { run } from '../../src/cli/program.js';
import type { Terminal } from '../../src/cli/terminal/terminal.js';
import { tempDir } from './cli.js';
import { FakeClock } from './fake-clock.js';

/**
 * How to run one invocation. Everything the program sees of the outside comes from here:
 *
 * - `argv`: the words after `rsapi` (`['reports', 'list', '--json']`).
 * - `tty`: `true` makes stdin, stdout and stderr all terminals; an object sets them one by one; default none is.
 *   A TTY here flips what the code decides from it (table vs tsv, colour, progress bar, prompts allowed); it is
 *   not a pseudo-terminal: for real key presses and a screen, use `runOnTerminal` (test/helpers/terminal.ts).
 * - `env`: the whole environment the program sees (process.env is never read). HOME and RSAPI_CONFIG_DIR default
 *   to a fresh temp dir (and a dir in it) removed after the run; a key given as undefined is removed. Pass `mock.env` (test/helpers/mock.ts) to point at a loopback mock: its
 *   RSAPI_CONFIG_DIR keeps settings across several runs.
 * - `stdin`: text on standard input, then end of input (default: empty).
 * - `columns`: the terminal's width (default: undefined, as for a pipe).
 * - `signal`: abort it to act as Ctrl-C.
 * - `clock`: the run's time and waits (backoff, pacing, the watch after a lost answer). By default a fresh FakeClock
 *   (fake-clock.ts): every wait is over at once. A test whose mock throttles or delays in time passes one clock to
 *   both (`startMock({ clock })`), a VirtualClock (virtual-clock.ts) when requests wait side by side; `systemClock`
 *   for a test of real time.
 *
 * Resolves with the exit code and everything written to stdout and stderr; never throws for a failing command.
 * About 20 ms a command instead of ~300 ms for a spawned binary. Spawn `bin/rsapi` (runCli in test/helpers/cli.ts)
 * only where the process itself is under test: signals, a pty, EPIPE, the bin shim, the packed tarball.
 *
 * @example
 *   const mock = await startMock();
 *   const result = await runInProcess({ argv: ['reports', 'list', '--json'], env: mock.env });
 *   expect(result.code).toBe(0);
 *   expect(JSON.parse(result.stdout)).toHaveLength(3);
 */
export interface InProcessOptions {
  argv: string[];
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  env?: Record<string, string | undefined>;
  stdin?: string;
  columns?: number;
  signal?: AbortSignal;
  clock?: Clock;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The lock files of this (test) process: in-process runs side by side share them, as the invocations of one process do. */
const PROCESS_LOCKS = new LockFiles();

export async function runInProcess(options: InProcessOptions): Promise<InProcessResult> {
  const { terminal, stdout, stderr, cleanup } = testTerminal(options);
  try {
    // One invocation a run, as main makes one a process: its own secrets, clock and Ctrl-C.
    const invocation = createInvocation({
      terminal,
      signal: options.signal ?? new AbortController().signal,
      clock: options.clock ?? new FakeClock(),
      locks: PROCESS_LOCKS,
    });
    const code = await run(options.argv, invocation);
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    cleanup();
  }
}

/**
 * The injected terminal alone, as runInProcess builds it (same `tty`, `env`, `stdin`, `columns`): for a test that
 * calls a command's plan and run (`runReportsList(ctx, planReportsList(ctx, opts))`) directly, with no program and no argv. Call `cleanup` after.
 */
export function testTerminal(options: Omit<InProcessOptions, 'argv' | 'signal' | 'clock'>): {
  terminal: Terminal;
  stdout: { readonly text: string };
  stderr: { readonly text: string };
  cleanup(): void;
} {
  const tty = typeof options.tty === 'object' ? options.tty : { stdin: options.tty, stdout: options.tty, stderr: options.tty };
  const home = tempDir('rsapi-home-');
  // CI=true: no spinner, whose frames would appear or not depending on how long a loaded machine takes (over 0.5 s);
  // a test of the spinner passes CI: undefined.
  // RSAPI_FOLLOW_PAGES=0: a lost answer's page is never fetched by rsapi (test pages are seldom on loopback); a test
  // of retraced redirects passes RSAPI_FOLLOW_PAGES: undefined with pages of its own on loopback.
  const env: NodeJS.ProcessEnv = { HOME: home.path, RSAPI_CONFIG_DIR: join(home.path, 'config'), CI: 'true', RSAPI_FOLLOW_PAGES: '0' };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const stdout = new CapturedStream(tty.stdout === true, options.columns);
  const stderr = new CapturedStream(tty.stderr === true, options.columns);
  const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  const terminal: Terminal = {
    stdout,
    stderr,
    stdin,
    stdoutIsTTY: tty.stdout === true,
    stderrIsTTY: tty.stderr === true,
    stdinIsTTY: tty.stdin === true,
    columns: options.columns,
    env,
  };
  return { terminal, stdout, stderr, cleanup: () => home.cleanup() };
}

/** A writable stream that keeps what it is given; it reports itself a TTY of `columns` width when asked to. */
class CapturedStream extends Writable {
  private readonly chunks: string[] = [];

  constructor(
    readonly isTTY: boolean,
    readonly columns: number | undefined,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    callback();
  }

  get text(): string {
    return this.chunks.join('');
  }
}

/**
 * A command context over the injected terminal (fake clock, no Ctrl-C), for a test that calls a run or a tool directly
 * (`runReportsCreate(ctx, plan)`, MCP's `callTool`) rather than through argv; closed and cleaned up after `use`.
 */
export async function withContext<T>(env: Record<string, string | undefined>, use: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const { terminal, cleanup } = testTerminal({ env });
  const ctx = new CommandContext(createInvocation({ terminal, signal: new AbortController().signal, clock: new FakeClock() }), { color: false });
  try {
    return await use(ctx);
  } finally {
    await ctx.close();
    cleanup();
  }
}
