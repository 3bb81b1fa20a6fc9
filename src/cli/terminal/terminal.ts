// The terminal a command talks to: streams, whether each is a TTY, colour. Injected so tests can swap it.
import { InterruptedError } from '../../api/errors.js';
import type { Sink } from '../../output/index.js';

export interface Terminal {
  stdout: Sink;
  stderr: Sink;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** The width of the terminal on stdout; undefined when it is not one. */
  columns: number | undefined;
  /** The width of the terminal on stderr, when it tells one; by default stdout's. */
  stderrColumns?: number;
  /** The environment: the only one the program reads (never process.env). */
  env: NodeJS.ProcessEnv;
  /**
   * The terminal itself as input (/dev/tty), for a question asked after stdin was read to its end (ids typed, then
   * Ctrl-D); undefined when there is none. The caller closes it.
   */
  openTty?: () => TtyInput | undefined;
}

export interface TtyInput {
  input: NodeJS.ReadableStream;
  close(): void;
}

/** The process's own terminal. Standard input is made only when a command reads it: made, it loads the file streams,
 * fs.promises and readline behind them, which `--help` and most commands never need. */
export function processTerminal(): Terminal {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
    stderrColumns: process.stderr.isTTY === true ? process.stderr.columns : undefined,
    env: process.env,
    openTty: openControllingTerminal,
  };
}

/** node:fs and node:tty are taken here, when a prompt needs the terminal, not imported: `--help` need not load them. */
function openControllingTerminal(): TtyInput | undefined {
  try {
    const { openSync } = process.getBuiltinModule('node:fs');
    const { ReadStream } = process.getBuiltinModule('node:tty');
    const input = new ReadStream(openSync('/dev/tty', 'r'));
    return { input, close: () => input.destroy() };
  } catch {
    // No controlling terminal (a daemon, CI): nobody to ask.
    return undefined;
  }
}

/** The width tables fit on a terminal: as the terminal says (a pty may say 0: unknown), else $COLUMNS, else 80. */
export function terminalWidth(terminal: Terminal): number {
  const fromEnv = Number(terminal.env.COLUMNS);
  if (terminal.columns && terminal.columns > 0) return terminal.columns;
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

/** The width stderr's notices break at: only a terminal's that tells it (a pty may say 0: unknown). */
export function stderrWidth(terminal: Terminal): number | undefined {
  if (!terminal.stderrIsTTY) return undefined;
  const columns = terminal.stderrColumns ?? terminal.columns;
  return columns !== undefined && columns > 0 ? columns : undefined;
}

/** --no-color and NO_COLOR turn colour off; FORCE_COLOR turns it on; otherwise colour when stdout is a terminal. */
export function colorEnabled(terminal: Terminal, colorFlag: boolean, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (!colorFlag) return false;
  const { NO_COLOR, FORCE_COLOR } = terminal.env;
  if (NO_COLOR !== undefined && NO_COLOR !== '') return false;
  if (FORCE_COLOR !== undefined) return FORCE_COLOR !== '0' && FORCE_COLOR !== 'false';
  return stream === 'stdout' ? terminal.stdoutIsTTY : terminal.stderrIsTTY;
}

/**
 * Reads all of stdin as text (for --password-stdin, --with-token, --from-file -, ids from `-`). The first
 * Ctrl-C (`signal`) ends the wait at once with an InterruptedError (exit 130), input or not.
 */
export async function readAll(stream: NodeJS.ReadableStream, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  const reading = (async () => {
    for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  })();
  if (signal) {
    if (signal.aborted) throw new InterruptedError();
    let onAbort: (() => void) | undefined;
    const interrupted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(new InterruptedError());
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([reading, interrupted]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  } else {
    await reading;
  }
  return Buffer.concat(chunks).toString('utf8');
}
