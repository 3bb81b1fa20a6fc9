// Purpose-built loopback HTTP servers (node:http on 127.0.0.1, port 0) for answers the mock cannot give, and a refused port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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
  /** The node:http server, for listeners beyond requests (e.g. 'connect'). */
  server: Server;
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
    server,
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
