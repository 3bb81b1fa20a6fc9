// A spinner line on stderr while the user waits: only on a terminal, only after half a second, erased before data is printed.
import { terminalText } from '../../output/terminal-text.js';
import { truncateToWidth } from '../../output/table/width.js';
import { terminalWidth, type Terminal } from './terminal.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Waits shorter than this show nothing: a flash of spinner on every quick command is noise. */
export const SHOW_AFTER_MS = 500;
const FRAME_MS = 80;
const ERASE_LINE = '\r\u001b[2K';

/** A CI log is not a terminal even when a runner fakes one: no spinner frames in it. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** Whether feedback that redraws a line belongs on this stderr. */
export function canAnimate(io: Terminal): boolean {
  return io.stderrIsTTY && !isCi(io.env);
}

export interface StatusLine {
  /** The text beside the spinner (service text is made terminal-safe here). */
  update(text: string): void;
  /** Erases the line; call before writing anything else to stdout or stderr. Safe to call twice. */
  clear(): void;
  /** Runs `write` with the line erased, then lets the spinner draw again. */
  pause<T>(write: () => T): T;
  /** Erases the line and stops for good. */
  stop(): void;
}

const SILENT: StatusLine = { update: () => {}, clear: () => {}, pause: (write) => write(), stop: () => {} };

/**
 * Starts a status line: nothing at all unless stderr is a terminal outside CI; otherwise drawn from `showAfterMs`
 * on, redrawn every 80 ms. Never keeps the process alive.
 */
export function startStatusLine(io: Terminal, text: string, options: { showAfterMs?: number; elapsed?: boolean } = {}): StatusLine {
  if (!canAnimate(io)) return SILENT;
  const started = performance.now();
  let current = text;
  let frame = 0;
  let drawn = false;
  let stopped = false;
  let ticker: NodeJS.Timeout | undefined;
  const draw = (): void => {
    if (stopped) return;
    const width = Math.max(10, terminalWidth(io) - 1);
    const seconds = Math.floor((performance.now() - started) / 1000);
    const elapsed = options.elapsed && seconds > 0 ? ` (${seconds} s)` : '';
    const line = truncateToWidth(`${FRAMES[frame % FRAMES.length]} ${terminalText(current)}${elapsed}`, width);
    frame++;
    io.stderr.write(`${ERASE_LINE}${line}`);
    drawn = true;
  };
  const begin = (): void => {
    draw();
    ticker = setInterval(draw, FRAME_MS);
    ticker.unref();
  };
  const delay = setTimeout(begin, options.showAfterMs ?? SHOW_AFTER_MS);
  delay.unref();
  const clear = (): void => {
    if (drawn) io.stderr.write(ERASE_LINE);
    drawn = false;
  };
  return {
    update: (next) => {
      current = next;
    },
    clear,
    pause: (write) => {
      clear();
      return write();
    },
    stop: () => {
      stopped = true;
      clearTimeout(delay);
      if (ticker) clearInterval(ticker);
      clear();
    },
  };
}
