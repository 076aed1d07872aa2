import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttingProxy {
  url: string;
  /** Points the proxy at the agent on `port`. */
  target(port: number): void;
  /** Cuts every open connection, as a network drop would; new ones still get through. */
  cut(): void;
  close(): Promise<void>;
}

/** A TCP proxy on loopback whose open connections can be cut, to lose a stream mid-answer. */
export async function startCuttingProxy(): Promise<CuttingProxy> {
  let port = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target: (agentPort) => (port = agentPort),
    cut: () => {
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
