// Running the built `bin/rsapi` on a real pseudo-terminal under script(1): what the screen showed, prompts answered by typing.
import { spawn } from 'node:child_process';
import { BIN, NODE, cleanEnv } from './cli.js';

/** A prompt to wait for on the screen, and the keys to type once it shows. */
export type Answer = [prompt: RegExp, keys: string];

export interface TerminalOptions {
  /** The run's environment, given to cleanEnv (TERM, COLUMNS and LINES are the caller's to set). */
  env?: Record<string, string | undefined>;
  /**
   * Typed in turn, each only once its prompt is on the screen after the previous answer (typing earlier would let the
   * terminal echo it before the prompt turns echo off). Nothing secret goes in argv: keys are typed.
   */
  answers?: Answer[];
  /** Leave stdin open to the end; otherwise it is closed once every answer is typed, at once when there are none. */
  keepInputOpen?: boolean;
  /**
   * Typed this long after the start, whatever the screen shows (for a program that reads without a prompt);
   * the terminal echoes it, which answers can wait for.
   */
  typeAfter?: { ms: number; keys: string };
  /** The run is killed after this long; default 20 s. */
  timeoutMs?: number;
  /** The pseudo-terminal's size, set with stty before rsapi starts (script(1) alone leaves it 0 by 0: unknown). */
  size?: { columns: number; rows: number };
}

export interface TerminalResult {
  code: number | null;
  /** Everything the terminal showed: stdout and stderr together, with the terminal's echo and control sequences. */
  screen: string;
}

/** Runs rsapi with stdin, stdout and stderr on a pseudo-terminal (`script -qfec`), typing `answers` as their prompts show. */
export function runOnTerminal(args: string[], options: TerminalOptions = {}): Promise<TerminalResult> {
  const rsapi = [NODE, BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const command = options.size ? `stty cols ${options.size.columns} rows ${options.size.rows} && exec ${rsapi}` : rsapi;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'ignore'] });
    let screen = '';
    let from = 0;
    const pending = [...(options.answers ?? [])];
    const closeInputIfDone = () => {
      if (pending.length === 0 && !options.keepInputOpen) child.stdin.end();
    };
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    const typeAfter = options.typeAfter;
    const typing = typeAfter ? setTimeout(() => child.stdin.write(typeAfter.keys), typeAfter.ms) : undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
      const next = pending[0];
      if (next?.[0].test(screen.slice(from))) {
        pending.shift();
        from = screen.length;
        child.stdin.write(next[1]);
        closeInputIfDone();
      }
    });
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(typing);
      resolve({ code, screen });
    });
    closeInputIfDone();
  });
}

/**
 * The screen's lines as a terminal leaves them: a carriage return goes back to the line's start and later text
 * overwrites, `ESC[2K` erases the line, `ESC[K` erases from the cursor on; other control sequences (colour) are
 * dropped, and so are empty lines. A spinner erased before the table is thus gone, as on the screen.
 */
export function screenLines(screen: string): string[] {
  return screen
    .split('\n')
    .map((raw) => {
      let line: string[] = [];
      let cursor = 0;
      for (const token of raw.match(/\u001b\[[0-9;?]*[A-Za-z]|\r|[^\r\u001b]+|\u001b/gu) ?? []) {
        if (token === '\r') cursor = 0;
        else if (token === '\u001b[2K') line = [];
        else if (token === '\u001b[K' || token === '\u001b[0K') line = line.slice(0, cursor);
        else if (!token.startsWith('\u001b')) {
          for (const char of token) line[cursor++] = char;
        }
      }
      return Array.from(line, (char) => char ?? ' ').join('');
    })
    .filter((line) => line !== '');
}

/**
 * The lines a notice was broken into on a narrow terminal (src/cli/terminal/stderr.ts continues it two columns in)
 * joined back into one line each, for a test that looks for a notice whole. A table's lines never start with spaces.
 */
export function joinWrapped(lines: readonly string[]): string[] {
  const joined: string[] = [];
  for (const line of lines) {
    if (line.startsWith('  ') && joined.length > 0) joined[joined.length - 1] += ` ${line.slice(2)}`;
    else joined.push(line);
  }
  return joined;
}
