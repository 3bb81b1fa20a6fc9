// --jq EXPR: a command's JSON output filtered through jq (compiled to WebAssembly, loaded only when the flag is given).
import { UsageError } from '../runtime/errors.js';
import { terminalLines } from '../../output/terminal-text.js';
import type { Terminal } from '../terminal/terminal.js';

type JqEngine = typeof import('jq-wasm');

/** The command's stdout, held back for jq; what jq prints goes to the real stdout at the end. */
export interface JqOutput {
  /** The terminal the command writes to: stdout captured, and not a TTY (plain JSON, no colour, no fitting). */
  io: Terminal;
  /** Runs the expression over everything the command printed and writes its results (strings raw, as gh does). */
  flush(): Promise<void>;
}

/**
 * Checks the expression before the command does anything (a syntax error is exit 2 with nothing sent) and captures
 * stdout. `empty | (EXPR)` compiles EXPR without running it: no input is needed for the check.
 */
export async function jqOutput(expression: string, io: Terminal): Promise<JqOutput> {
  const jq = await loadJq();
  await runJq(jq, 'null', `empty | (\n${expression}\n)`, ['-n']);
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
      if (output === '') return;
      // Raw strings from a service on a terminal: escapes shown, never acted on (output/terminal-text.ts).
      io.stdout.write(`${io.stdoutIsTTY ? terminalLines(output) : output}\n`);
    },
  };
}

async function loadJq(): Promise<JqEngine> {
  // A CommonJS package: Node gives its exports by name, the bundle (esbuild) only as `default`.
  const loaded: JqEngine & { default?: JqEngine } = await import('jq-wasm');
  return typeof loaded.raw === 'function' ? loaded : (loaded.default ?? loaded);
}

async function runJq(jq: JqEngine, input: string, expression: string, flags: string[]): Promise<string> {
  try {
    return await jq.raw(input, expression, flags);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+$/, '');
    throw new UsageError(`--jq: ${message.split('\n').join('; ')}`, { hint: 'see the jq manual: https://jqlang.org/manual/' });
  }
}
