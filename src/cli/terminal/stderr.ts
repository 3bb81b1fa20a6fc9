// What may reach stderr: the terminal-safety rule (service text never drives the terminal), and notices wrapped at word
// boundaries on a terminal of known width. Secrets are redacted by the invocation's stderr itself (invocation.ts),
// whatever writes to it.
import type { Sink } from '../../output/index.js';
import { terminalLines, terminalText } from '../../output/terminal-text.js';
import { wrapWords } from '../../output/table/width.js';

/** One or more lines of ours for stderr: the line breaks between them stay, every other control is escaped. */
export function forStderr(text: string): string {
  return terminalLines(text);
}

/** Text that must stay one line on stderr (an error message, a field error): every control escaped, line breaks too. */
export function oneLineForStderr(text: string): string {
  return terminalText(text);
}

/**
 * `target` with every line wider than `width` broken at its spaces, continued two columns in: a terminal would break
 * `rsapi: … --wide shows every valu` / `e whole` wherever the edge falls. A write holding a carriage return or an escape
 * sequence (the status line, a progress bar: drawn to fit already) passes as it is.
 */
export function wrappedAtWords<Target extends Sink>(target: Target, width: number): Target {
  const write = (chunk: unknown, ...rest: unknown[]) => {
    const wrapped = typeof chunk === 'string' && !/[\r\u001b]/.test(chunk) ? linesAtWords(chunk, width) : chunk;
    return (target.write as (chunk: unknown, ...rest: unknown[]) => unknown).call(target, wrapped, ...rest);
  };
  return new Proxy(target, {
    get(object, property) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/** Each line of `text` wider than `width` broken at its spaces, continued two columns in (a terminal's lines of ours). */
export function linesAtWords(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => wrapWords(line, width, '  ').join('\n'))
    .join('\n');
}
