// What `rsapi mock-server` runs: start the mock service, print how to reach it, stop it cleanly on Ctrl-C or SIGTERM.

import { UsageError } from '../errors.js';
import { startMockServer, type MockOptions, type MockServer } from './server.js';

export interface MockRunIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Turns a listen failure into one plain sentence; the CLI's error printer shows it without a stack. */
function startFailure(error: unknown, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (errorCode(error) === 'EADDRINUSE') {
    return new UsageError(`cannot start the mock service: ${where} is already in use (EADDRINUSE)`, {
      hint: 'stop whatever listens there, or pass --port with another number (0 picks a free one)',
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new UsageError(`cannot start the mock service on ${where}: ${detail}`);
}

/**
 * How to reach the service. `keyIsSecret`: the key is one the CLI masks on its stdout (the user's own, from
 * --api-key or RSAPI_API_KEY): the lines name it instead of showing `***`, which would not paste.
 */
function banner(server: MockServer, keyIsSecret: boolean): string {
  const key = keyIsSecret ? '"$YOUR_KEY"' : server.apiKey;
  return [
    `rsapi mock service (${server.flavor} flavor) listening on ${server.baseUrl}`,
    keyIsSecret ? 'API key: the one you gave (not repeated here)' : `API key: ${server.apiKey}`,
    `try: RSAPI_BASE_URL=${server.url} RSAPI_API_KEY=${key} rsapi reports list`,
    '',
  ].join('\n');
}

/** Resolves once `signal` is raised: the CLI raises it on Ctrl-C and SIGTERM, so neither ends the process abruptly. */
function stopRequested(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Serves until `signal` is raised (the invocation's Ctrl-C), then stops the service. */
export async function runMockServer(options: MockOptions, io: MockRunIO, signal: AbortSignal, keyIsSecret = false): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  let server: MockServer;
  try {
    server = await startMockServer({ ...options, host, port });
  } catch (error) {
    throw startFailure(error, host, port);
  }
  io.stdout.write(banner(server, keyIsSecret));
  await stopRequested(signal);
  await server.close();
  io.stderr.write('mock service stopped\n');
}
