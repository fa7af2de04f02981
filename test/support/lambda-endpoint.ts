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

/** The invocation context fields the entries read (the runtime passes more). */
export const lambdaContext = (id: string, memory: string) => ({
  awsRequestId: id,
  memoryLimitInMB: memory,
  functionName: 'idv',
});

/**
 * The analyzer Lambda (functions/analyzer.ts) behind a local Invoke endpoint, and the API
 * entry's environment pointed at it, as a stage links them. Call after the store's settings are
 * in the environment (the entries read them when they load).
 */
export async function startLambdaAnalyzer(functionName: string) {
  const { handler: analyzer } = await import('../../functions/analyzer.ts');
  const lambda = await startLambdaEndpoint({
    [functionName]: (event) => analyzer(event as never, lambdaContext('analyzer-req', '3008') as never),
  });
  Object.assign(process.env, {
    ANALYZER_FUNCTION_NAME: functionName,
    ANALYZER_MEMORY_MB: '3008',
    // Generous: the analysis shares two cores with the rest of the suite (never a speed measure).
    ANALYSIS_TIMEOUT_MS: '240000',
    PUBLIC_BASE_URL: 'https://api.example.com',
    // The SDK's per-service endpoint variable: the API's LambdaClient reaches the local endpoint.
    AWS_ENDPOINT_URL_LAMBDA: lambda.endpoint,
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
  });
  return lambda;
}
