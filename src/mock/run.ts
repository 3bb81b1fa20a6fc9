// What `rsapi mock-server` runs: start the mock service, print how to reach it, stop it cleanly on Ctrl-C or SIGTERM.

import { UsageError } from '../errors.js';
import { startMockServer, type MockOptions, type MockServer } from './server.js';

export interface MockRunIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

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

function banner(server: MockServer): string {
  return [
    `rsapi mock service (${server.flavor} flavor) listening on ${server.baseUrl}`,
    `API key: ${server.apiKey}`,
    `try: RSAPI_BASE_URL=${server.url} RSAPI_API_KEY=${server.apiKey} rsapi reports list`,
    '',
  ].join('\n');
}

/** Listens for SIGINT and SIGTERM at once, so neither ends the process abruptly while the service starts or runs. */
function listenForStopSignal(): { stopped: Promise<NodeJS.Signals>; cancel(): void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const cancel = (): void => {
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
  };
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = (signal) => {
      cancel();
      resolve(signal);
    };
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
  });
  return { stopped, cancel };
}

export async function runMockServer(options: MockOptions, io: MockRunIO): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const stopSignal = listenForStopSignal();
  let server: MockServer;
  try {
    server = await startMockServer({ ...options, host, port });
  } catch (error) {
    stopSignal.cancel();
    throw startFailure(error, host, port);
  }
  io.stdout.write(banner(server));
  await stopSignal.stopped;
  await server.close();
  io.stderr.write('mock service stopped\n');
}
