import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: the client's
 * simple queries (`Q`) and its extended-protocol syncs (`S`), each of which
 * the client then waits for. Whatever the client sends is passed on as it is.
 */
export interface RoundTripCounter {
  /** `postgres://...` through the proxy, to the same database as `target`. */
  url: string;
  /** Round trips so far, over every connection. */
  count(): number;
  /** The text of each simple query and each statement parsed, in order: for messages. */
  statements: string[];
  /** Each round trip's statement (the last one bound before its sync), in order. */
  trips: string[];
  close(): Promise<void>;
}

export async function countRoundTrips(target: string): Promise<RoundTripCounter> {
  const upstream = new URL(target);
  let count = 0;
  const statements: string[] = [];
  const trips: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const server = connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client).add(server);
    let buffer = Buffer.alloc(0);
    let started = false;
    // Prepared statements by name, on this connection: a named one is parsed once, bound often.
    const prepared = new Map<string, string>();
    let bound = '';
    client.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        // The startup message (and an SSL request) has a length but no type byte.
        const header = started ? 5 : 4;
        if (buffer.length < header) break;
        const length = buffer.readUInt32BE(started ? 1 : 0) + (started ? 1 : 0);
        if (buffer.length < length) break;
        if (!started) {
          const code = buffer.readUInt32BE(4);
          // SSLRequest and GSSENCRequest are answered, then the real startup follows.
          if (code !== 80877103 && code !== 80877104) started = true;
        } else {
          const type = String.fromCharCode(buffer[0]!);
          if (type === 'Q' || type === 'S') count += 1;
          if (type === 'Q') {
            statements.push(cString(buffer, 5));
            trips.push(cString(buffer, 5));
          }
          if (type === 'S') trips.push(bound);
          if (type === 'P') {
            const name = cString(buffer, 5);
            const text = cString(buffer, 5 + name.length + 1);
            statements.push(text);
            prepared.set(name, text);
          }
          if (type === 'B') {
            const portal = cString(buffer, 5);
            bound = prepared.get(cString(buffer, 5 + portal.length + 1)) ?? '';
          }
        }
        buffer = buffer.subarray(length);
      }
      server.write(chunk);
    });
    server.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      server.destroy();
    };
    client.on('close', end).on('error', end);
    server.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    count: () => count,
    statements,
    trips,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function cString(buffer: Buffer, from: number): string {
  const end = buffer.indexOf(0, from);
  return buffer.toString('utf8', from, end < 0 ? buffer.length : end);
}
