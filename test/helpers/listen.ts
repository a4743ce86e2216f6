/**
 * A loopback HTTP server for tests that closes promptly: open keep-alive (or deliberately hung)
 * connections are destroyed on close, so a test never waits on a socket it left behind.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
