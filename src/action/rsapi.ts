// Running one rsapi invocation inside the action's own process: the CLI's own entry (argv in, exit code out) with a
// terminal of the action's making: stdout kept (the JSON the action reads), stderr the runner's log (verdicts,
// `::error` and `::warning` lines), the environment given to the invocation alone (process.env is never changed).
import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';
import { createInvocation, run } from '../cli/program.js';
import type { Terminal } from '../cli/terminal/terminal.js';

export interface CliRun {
  code: number;
  stdout: string;
}

/**
 * `rsapi ARGV` in `cwd`, seeing the action's environment with `env` added. Its stdout is kept and returned, never
 * shown; its stderr is shown. The runner's SIGINT or SIGTERM (a cancelled workflow) interrupts it as Ctrl-C does the
 * CLI (exit 130); a second one ends the action at once.
 */
export async function runCli(argv: string[], options: { cwd: string; env: Record<string, string> }): Promise<CliRun> {
  const stdout: string[] = [];
  const terminal: Terminal = {
    stdout: { write: (chunk: string) => stdout.push(chunk) > 0 },
    stderr: process.stderr,
    stdin: Readable.from([]),
    // The runner's log is no terminal: no colour, no progress, no prompt (as for the child process it once was).
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: undefined,
    env: { ...process.env, ...options.env },
  };
  const controller = new AbortController();
  // Every request and wait under way listens to it, as to the CLI's.
  setMaxListeners(0, controller.signal);
  let signals = 0;
  const onSignal = () => {
    if (++signals > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Paths on the command line and in the config file are relative to the working directory, as for `rsapi` run there.
  // The action's invocations run one at a time, each in the folder it names (so each has lock files of its own too).
  const home = process.cwd();
  process.chdir(options.cwd);
  try {
    const code = await run(argv, createInvocation({ terminal, signal: controller.signal }));
    return { code, stdout: stdout.join('') };
  } finally {
    process.chdir(home);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
