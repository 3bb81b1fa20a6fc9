// --jq EXPR: a command's JSON output filtered through jq (compiled to WebAssembly, loaded only when the flag is given).
import { UsageError } from '../../errors.js';
import { terminalLines } from '../../output/terminal-text.js';
import type { Terminal } from '../terminal/terminal.js';
import { oneLineForStderr } from '../terminal/stderr.js';
import { missingFieldsWarning } from './jq-fields.js';

type JqEngine = typeof import('jq-wasm/inline');

/** The command's stdout, held back for jq; what jq prints goes to the real stdout at the end. */
export interface JqOutput {
  /** The terminal the command writes to: stdout captured, and not a TTY (plain JSON, no colour, no fitting). */
  io: Terminal;
  /** Runs the expression over everything the command printed and writes its results (strings raw, as gh does). */
  flush(): Promise<void>;
}

/**
 * Checks the expression before the command does anything (a syntax error is exit 2 with nothing sent) and captures
 * stdout. Over no input at all jq compiles the expression and never runs it: its error is located in the user's own
 * text (a wrapper such as `empty | (EXPR)` put it on the wrong line), and an expensive expression costs nothing here.
 */
export async function jqOutput(expression: string, io: Terminal): Promise<JqOutput> {
  const jq = await loadJq();
  await runJq(jq, '', expression, []);
  let captured = '';
  const capture: Terminal = {
    ...io,
    stdout: {
      write: (chunk: string) => {
        captured += chunk;
        return true;
      },
    },
    stdoutIsTTY: false,
    columns: undefined,
  };
  return {
    io: capture,
    async flush() {
      if (captured.trim() === '') return;
      const output = await runJq(jq, captured, expression, ['-r']);
      // `select(.score < 10)` over records with no `score` matches every one (null < 10): said, not left silent.
      const missing = missingFieldsWarning(expression, captured);
      if (missing !== undefined) io.stderr.write(`${oneLineForStderr(missing)}\n`);
      if (output === '') return;
      // Raw strings from a service on a terminal: escapes shown, never acted on (output/terminal-text.ts).
      io.stdout.write(`${io.stdoutIsTTY ? terminalLines(output) : output}\n`);
    },
  };
}

/** The build with jq's WebAssembly inside it (one module, nothing read from disk beside the chunk). */
function loadJq(): Promise<JqEngine> {
  return import('jq-wasm/inline');
}

/**
 * jq over `input`: what it printed, or its own words as a usage error (a syntax error, a runtime error such as
 * `.a` of an array). jq-wasm 1.0 copied its input and output a byte at a time (a 2,000-report document took 48 s);
 * 3.0 reads and writes them in buffers.
 */
async function runJq(jq: JqEngine, input: string, expression: string, flags: string[]): Promise<string> {
  let result: Awaited<ReturnType<JqEngine['raw']>>;
  try {
    result = await withDefaultSignals(() => jq.raw(input, expression, flags));
  } catch (error) {
    throw jqError(error instanceof Error ? error.message : String(error));
  }
  if (result.exitCode !== 0) throw jqError(result.stderr || `jq exited with ${result.exitCode}`);
  return result.stdout;
}

/** jq's own lines, on one: the expression it echoes under a syntax error (and its caret) left out. */
function jqError(message: string): UsageError {
  const lines = message.replace(/\s+$/, '').split('\n');
  const own = lines.filter((line) => line.startsWith('jq:')).map((line) => line.replace(/:$/, ''));
  return new UsageError(`--jq: ${(own.length > 0 ? own : lines).join('; ')}`, { hint: 'see the jq manual: https://jqlang.org/manual/' });
}

/**
 * `work`, which holds the thread (jq's WebAssembly never yields): no handler of ours could run before it returns, so
 * Ctrl-C and SIGTERM meanwhile take their default action and end the process at once, instead of waiting for jq (an
 * endless expression could not be stopped). Nothing is lost: jq's output is written only after it returns.
 */
async function withDefaultSignals<T>(work: () => Promise<T>): Promise<T> {
  const held = SIGNALS.map((name) => ({ name, listeners: process.listeners(name) }));
  for (const { name, listeners } of held) for (const listener of listeners) process.removeListener(name, listener);
  try {
    return await work();
  } finally {
    for (const { name, listeners } of held) for (const listener of listeners) process.on(name, listener);
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
