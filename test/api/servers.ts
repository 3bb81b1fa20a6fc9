// Test helpers of the client-core tests: purpose-built loopback HTTP servers for faults the mock cannot produce,
// a free-then-closed port for "connection refused", and clients that are closed after each test.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApiClient, type ApiClientOptions } from '../../src/api/index.js';
import { USER_AGENT } from '../../src/version.js';

export const TEST_KEY = 'test-key-0123456789';

/** What a raw server saw of one request. */
export interface SeenRequest {
  method: string;
  /** Request target as received: path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers request number `index` (1-based, counted per server). */
export type RawHandler = (request: SeenRequest, response: ServerResponse, index: number) => unknown;

export interface RawServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1, port 0, that records every request before handing it to `handler`. */
export async function startRawServer(handler: RawHandler): Promise<RawServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen: SeenRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      Promise.resolve(handler(seen, response, requests.length)).catch(() => response.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address() as AddressInfo));
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Sends a JSON body with the right length. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

/** Sends any text body with the right length. */
export function sendText(response: ServerResponse, status: number, text: string, contentType: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

/** A loopback port that was free a moment ago and now has nothing listening: connecting to it is refused. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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
