import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { answerClientError, clientErrorResponse, unreadableRequestResponse } from './client-error.ts';

export interface NodeServerOptions {
  /** The app's fetch handler (`createApp(deps).fetch`). */
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  hostname: string;
}

/**
 * The one way the API is served by Node (`npm start`, benchmarks): @hono/node-server's request
 * listener on a plain node:http server, with every refusal made before the app runs answered in
 * the error envelope (server/client-error.ts): the parser's ('clientError'), the adaptor's when
 * no web Request can be built (no or bad Host, bad absolute URL, `OPTIONS *`), and CONNECT.
 * Listening starts at once; wait for 'listening' (and handle 'error') on the returned server.
 */
export function startNodeServer(options: NodeServerOptions): Server {
  const listener = getRequestListener(options.fetch, {
    hostname: options.hostname,
    errorHandler: unreadableRequestResponse,
  });
  const server = createServer(listener);
  server.on('clientError', answerClientError);
  // A proxy's method: with no listener Node would close the socket without a word.
  server.on('connect', (_request, socket) => {
    socket.end(
      clientErrorResponse({
        status: 405,
        code: 'method_not_allowed',
        message: 'CONNECT is not supported: this is not a proxy',
      }),
    );
  });
  server.listen(options.port, options.hostname);
  return server;
}
