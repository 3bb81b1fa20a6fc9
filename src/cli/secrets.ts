// The secrets one invocation knows (the API key, report passwords), and the one way they are scrubbed from any text.
import { urlPasswords } from '../history/location.js';
import type { Sink } from '../output/index.js';
import { terminalLines, terminalText } from '../output/terminal-text.js';

/** The secrets of one invocation: each run has its own (in-process tests run many invocations in one process). */
export class Secrets {
  private readonly known = new Set<string>();

  /** Registers a value that must never be printed. Very short values are ignored (they would redact ordinary words). */
  register(value: string | undefined): void {
    if (!value || value.length < 4) return;
    this.known.add(value);
    // Stderr escapes control characters before its sink redacts: a secret holding one is known in that form too.
    this.known.add(terminalText(value));
    this.known.add(terminalLines(value));
  }

  /**
   * Before anything is parsed: the key given with --api-key or RSAPI_API_KEY, so that even a usage error
   * (which commander words from argv) cannot echo it.
   */
  registerInvocation(argv: readonly string[], env: NodeJS.ProcessEnv): void {
    this.register(env.RSAPI_API_KEY);
    // A history URL's password (postgres://user:PASSWORD@host/db) is as secret as the key.
    for (const password of urlPasswords(env.RSAPI_HISTORY)) this.register(password);
    argv.forEach((word, index) => {
      if (word === '--api-key') this.register(argv[index + 1]);
      else if (word.startsWith('--api-key=')) this.register(word.slice('--api-key='.length));
      else if (word === '--history') for (const password of urlPasswords(argv[index + 1])) this.register(password);
      else if (word.startsWith('--history=')) for (const password of urlPasswords(word.slice('--history='.length))) this.register(password);
    });
  }

  /** Whether `value` is one of this invocation's secrets. */
  has(value: string): boolean {
    return this.known.has(value);
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.known) result = result.split(secret).join('***');
    return result;
  }

  /**
   * `target` with every text chunk redacted before it gets it. Everything else is the target's own, so a
   * stream stays one: writers waiting for 'drain' still can, a progress bar still reads isTTY and columns,
   * a prompt still draws on it.
   */
  redactedSink<Target extends Sink>(target: Target): Target {
    const write = (chunk: unknown, ...rest: unknown[]) =>
      (target.write as (chunk: unknown, ...rest: unknown[]) => unknown).call(target, typeof chunk === 'string' ? this.redact(chunk) : chunk, ...rest);
    return new Proxy(target, {
      get(object, property) {
        if (property === 'write') return write;
        const value: unknown = Reflect.get(object, property, object);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  }
}
