/** Plain HTTP servers that misbehave on purpose, for the checker to survive. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listening } from 'a2a-testing/http';

/** Listens on a free loopback port with a bare node:http handler. */
export async function serve(handler: http.RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const MiB = 1024 * 1024;

/**
 * Writes `head`, then filler until `totalBytes` or until the client goes away,
 * honouring back-pressure so the server itself never holds much.
 */
export function writeEndless(
  response: http.ServerResponse,
  head: string,
  totalBytes = 1024 * MiB,
): void {
  const chunk = Buffer.alloc(MiB, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < totalBytes && !response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
    if (!response.destroyed) response.end();
  };
  response.write(head);
  pump();
}
