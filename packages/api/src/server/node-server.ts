import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { answerClientError } from './client-error.ts';

export interface NodeServerOptions {
  /** The app's fetch handler (`createApp(deps).fetch`). */
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  hostname: string;
}

/**
 * The one way the API is served by Node (`npm start`, benchmarks): @hono/node-server's adaptor,
 * with the parser's own refusals answered in the error envelope (server/client-error.ts).
 * Listening starts at once; wait for 'listening' (and handle 'error') on the returned server.
 */
export function startNodeServer(options: NodeServerOptions): Server {
  const server = createAdaptorServer({ fetch: options.fetch }) as Server;
  server.on('clientError', answerClientError);
  server.listen(options.port, options.hostname);
  return server;
}
