// Secrets known to this run (the API key, report passwords), and the one function that scrubs them from any text.
import type { Sink } from '../output/index.js';

const secrets = new Set<string>();

/** A new invocation starts with no secrets known (in-process tests run many invocations in one process). */
export function forgetSecrets(): void {
  secrets.clear();
}

/** Registers a value that must never be printed. Very short values are ignored (they would redact ordinary words). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/**
 * Before anything is parsed: the key given with --api-key or RSAPI_API_KEY, so that even a usage error
 * (which commander words from argv) cannot echo it.
 */
export function registerInvocationSecrets(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  registerSecret(env.RSAPI_API_KEY);
  argv.forEach((word, index) => {
    if (word === '--api-key') registerSecret(argv[index + 1]);
    else if (word.startsWith('--api-key=')) registerSecret(word.slice('--api-key='.length));
  });
}

export function redact(text: string): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join('***');
  return result;
}

type StreamSink = Sink & Partial<Pick<NodeJS.WritableStream, 'once' | 'removeListener'>>;

/**
 * A sink that redacts every chunk before `target` gets it. A stream's `once` and `removeListener` are passed
 * through, so writers waiting for 'drain' (backpressure) still can.
 */
export function redactedSink(target: StreamSink): StreamSink {
  const sink: StreamSink = { write: (chunk: string) => target.write(redact(chunk)) };
  if (typeof target.once === 'function') {
    sink.once = ((event: string, listener: (...args: unknown[]) => void) => {
      target.once!(event, listener);
      return sink;
    }) as StreamSink['once'];
    sink.removeListener = ((event: string, listener: (...args: unknown[]) => void) => {
      target.removeListener?.(event, listener);
      return sink;
    }) as StreamSink['removeListener'];
  }
  return sink;
}
