// Clients for the client-core tests, closed after each test; and checks on rejections and timing.
// The loopback servers they talk to are the mock (./mock.ts) and purpose-built ones (./raw-server.ts).
import { afterEach } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../src/api/index.js';
import { startRawServer, type RawHandler, type RawServer } from './raw-server.js';
import { USER_AGENT } from '../../src/version.js';

export const TEST_KEY = 'test-key-0123456789';

/** Creates clients with fast retries and short timeouts, and closes every one of them in `closeAll`. */
export class ClientPool {
  private readonly clients: ApiClient[] = [];

  create(baseUrl: string, options: Partial<ApiClientOptions> = {}): ApiClient {
    const client = new ApiClient({
      baseUrl,
      apiKey: TEST_KEY,
      userAgent: USER_AGENT,
      retries: 2,
      retryBaseMs: 10,
      timeoutMs: 2_000,
      createTimeoutMs: 2_000,
      ...options,
    });
    this.clients.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    const clients = this.clients.splice(0);
    await Promise.all(clients.map((client) => client.close()));
  }
}

/** The rejection of `promise`, failing the test when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** Milliseconds `action` took. */
export async function timed<T>(action: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await action();
  return { ms: performance.now() - started, value };
}

/**
 * For a client-core test file: call at the top level; `pool` makes clients and `raw(handler)` starts a purpose-built
 * server, both closed after each test.
 */
export function clientsAndRawServers(): { pool: ClientPool; raw: (handler: RawHandler) => Promise<RawServer> } {
  const pool = new ClientPool();
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await pool.closeAll();
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  return {
    pool,
    async raw(handler) {
      const server = await startRawServer(handler);
      closers.push(() => server.close());
      return server;
    },
  };
}
