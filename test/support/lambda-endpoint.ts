import { createServer, type Server } from 'node:http';

/**
 * A local stand-in for the Lambda Invoke API (POST /2015-03-31/functions/{name}/invocations),
 * running real handlers in this process, as DynamoDB Local and fauxqs stand in for their
 * services. Unknown names answer like a crashed function (X-Amz-Function-Error).
 */
export async function startLambdaEndpoint(handlers: Record<string, (event: unknown) => Promise<unknown>>) {
  const server: Server = createServer(async (req, res) => {
    const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const handler = match ? handlers[decodeURIComponent(match[1]!)] : undefined;
    try {
      if (!handler) throw new Error('function crashed');
      const result = await handler(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    } catch (error) {
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' })
        .end(JSON.stringify({ errorMessage: String(error) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
