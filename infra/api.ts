import { createEdge } from './edge';
import { ANALYZER_MEMORY_MB, TIMEOUTS } from './stage';
import type { Storage } from './storage';

export interface ApiSecrets {
  imageMasterKey: sst.Secret;
  urlSigningKey: sst.Secret;
}

/**
 * The HTTP API: one Lambda function running the Hono app, behind an HTTP API (API Gateway v2),
 * behind a CloudFront distribution (infra/edge.ts) that answers bodies too large for the gateway
 * in the spec's envelope. The secrets are linked (functions/linked-secrets.ts reads them); the
 * public base address (image URLs, the OpenAPI `servers` entry) is the distribution's: the
 * stage's domain when it has one, else its cloudfront.net name.
 */
export async function createApi(storage: Storage, analyzer: aws.lambda.Function, secrets: ApiSecrets) {
  // No domain here: the stage's domain belongs to the distribution in front.
  const api = new sst.aws.ApiGatewayV2('Api');
  const edge = await createEdge(api);
  const environment = {
    TABLE_NAME: storage.table.name,
    BUCKET_NAME: storage.bucket.name,
    UPLOADS_BUCKET_NAME: storage.uploads.name,
    EVENTS_QUEUE_URL: storage.events.url,
    EVENTS_DLQ_URL: storage.eventsDeadLetter.url,
    ANALYZER_FUNCTION_NAME: analyzer.name,
    ANALYZER_MEMORY_MB: String(ANALYZER_MEMORY_MB),
    ANALYSIS_TIMEOUT_MS: String(TIMEOUTS.analysisMs),
    // The edge's address, never the gateway's (which would skip the edge's body check). No
    // trailing slash.
    PUBLIC_BASE_URL: edge.url,
    // The /docs renderer's bundle is not imported (the app reads it), so it is copied beside the code.
    DOCS_BUNDLE_FILE: '/var/task/docs-assets/api-reference.js',
    // So is the web SDK bundle (built by npm install), served at /sdk/v1.js.
    SDK_DIST_DIR: '/var/task/web-sdk',
  };
  api.route('$default', {
    handler: 'functions/api.handler',
    runtime: 'nodejs22.x',
    architecture: 'arm64',
    memory: '1024 MB',
    // Below the gateway's 30 s (and CloudFront's 60 s), so the function decides what the client gets.
    timeout: `${TIMEOUTS.apiFunctionSeconds} seconds`,
    link: [
      storage.table,
      storage.bucket,
      // Presigns PUTs (the URL carries the function role's credentials), reads and deletes uploads.
      storage.uploads,
      storage.events,
      storage.eventsDeadLetter,
      secrets.imageMasterKey,
      secrets.urlSigningKey,
      edge.originSecret,
    ],
    environment,
    permissions: [{ actions: ['lambda:InvokeFunction'], resources: [analyzer.arn] }],
    copyFiles: [
      {
        from: 'node_modules/@scalar/api-reference/dist/browser/standalone.js',
        to: 'docs-assets/api-reference.js',
      },
      { from: 'packages/web-sdk/dist', to: 'web-sdk' },
    ],
  });
  return { gateway: api, edge, url: edge.url };
}
