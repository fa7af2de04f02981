import { createServer, type Server, Socket } from 'node:net';

/**
 * A TCP relay in front of one of the local servers (DynamoDB Local, fauxqs's S3, the analyzer's
 * Invoke endpoint) that can be switched off and on again on the same port: off, connections are
 * refused and open ones cut, exactly what a client sees when the service goes away; on again,
 * the same endpoint answers. The real server behind it keeps its data meanwhile.
 */
export interface SwitchableProxy {
  /** `http://127.0.0.1:<port>`: give this to the client instead of the server's own endpoint. */
  endpoint: string;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startSwitchableProxy(target: string): Promise<SwitchableProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  const listen = async () => {
    const next = createServer((client) => {
      const upstream = new Socket();
      sockets.add(client).add(upstream);
      const forget = () => {
        sockets.delete(client);
        sockets.delete(upstream);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', forget).on('close', forget);
      upstream.on('error', forget).on('close', forget);
      upstream.connect(Number(targetPort), hostname, () => {
        client.pipe(upstream);
        upstream.pipe(client);
      });
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    const address = next.address();
    port = typeof address === 'object' && address ? address.port : port;
    server = next;
  };

  const down = async () => {
    const current = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    down,
    up: async () => {
      if (!server) await listen();
    },
    close: down,
  };
}
