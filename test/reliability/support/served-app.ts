import type { Server } from 'node:http';
import { startNodeServer } from '@idv/api/node-server';

/**
 * An app served over real HTTP on loopback, the way `npm start` serves it (the Node server's
 * own refusals included), so requests go through a socket and a hang shows as a time-out.
 */
export interface Served {
  url: string;
  close(): Promise<void>;
}

export async function serve(app: {
  fetch: (request: Request) => Response | Promise<Response>;
}): Promise<Served> {
  const server: Server = startNodeServer({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Limits far above what a suite sends, so that the faults under test are what answers. */
export const UNLIMITED = {
  perKeyPerMinute: 1_000_000,
  perIpPerMinute: 1_000_000,
  sessionUploadsPerMinute: 1_000_000,
  sessionHelpersPerMinute: 1_000_000,
};

/** Names registered webhook hosts with a public address (no DNS in tests). */
export const PUBLIC_RESOLVER = { resolve: async () => ['93.184.215.14'] };
