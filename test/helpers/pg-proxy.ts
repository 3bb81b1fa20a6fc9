// A loopback TCP proxy in front of the test PostgreSQL: counts the round trips clients ask for (each simple Query or
// extended-protocol Sync is one) and, when told, goes silent as a partition does: it stops forwarding in both
// directions but keeps every socket open.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface PostgresProxy {
  /** The database's URL, through the proxy. */
  url(database: URL): string;
  /** Round trips asked for so far. */
  count(): number;
  /** From now on nothing passes either way; the sockets stay open. */
  silence(): void;
  close(): Promise<void>;
}

/** `silentAfter`: the proxy goes silent by itself once clients have asked for that many round trips (the next is held). */
export async function postgresProxy(target: URL, options: { silentAfter?: number } = {}): Promise<PostgresProxy> {
  let roundTrips = 0;
  let silent = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk) => {
      if (silent) return;
      pending = Buffer.concat([pending, chunk]);
      // Frontend messages: the startup message is a length and a body; every later one a type byte, then its length.
      // Whole messages are passed on; the one that makes the proxy silent, and all after it, never are.
      let offset = 0;
      for (;;) {
        const head = started ? 1 : 0;
        if (pending.length < offset + head + 4) break;
        const size = head + pending.readInt32BE(offset + head);
        if (pending.length < offset + size) break;
        if (started && (pending[offset] === 0x51 || pending[offset] === 0x53)) {
          // 'Q' or 'S'
          if (options.silentAfter !== undefined && roundTrips >= options.silentAfter) {
            silent = true;
            break;
          }
          roundTrips++;
        }
        offset += size;
        started = true;
      }
      if (offset > 0) upstream.write(pending.subarray(0, offset));
      pending = pending.subarray(offset);
    });
    upstream.on('data', (chunk) => {
      if (!silent) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: (database) => {
      const proxied = new URL(database.href);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.href;
    },
    count: () => roundTrips,
    silence: () => {
      silent = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
