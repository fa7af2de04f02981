import { ANALYZER_MEMORY_MB, stageDomain, TIMEOUTS } from './stage';
import type { Storage } from './storage';

export interface ApiSecrets {
  imageMasterKey: sst.Secret;
  urlSigningKey: sst.Secret;
}

/**
 * The HTTP API: one Lambda function running the Hono app, behind an HTTP API (API Gateway v2).
 * The secrets are linked (functions/linked-secrets.ts reads them); the public base address (image
 * URLs, the OpenAPI `servers` entry) is the stage's domain when it has one, else the gateway's URL.
 */
export function createApi(storage: Storage, analyzer: aws.lambda.Function, secrets: ApiSecrets) {
  const domain = stageDomain();
  const api = new sst.aws.ApiGatewayV2('Api', domain ? { domain } : {});
  const environment = {
    TABLE_NAME: storage.table.name,
    BUCKET_NAME: storage.bucket.name,
    UPLOADS_BUCKET_NAME: storage.uploads.name,
    EVENTS_QUEUE_URL: storage.events.url,
    EVENTS_DLQ_URL: storage.eventsDeadLetter.url,
    ANALYZER_FUNCTION_NAME: analyzer.name,
    ANALYZER_MEMORY_MB: String(ANALYZER_MEMORY_MB),
    ANALYSIS_TIMEOUT_MS: String(TIMEOUTS.analysisMs),
    // The gateway's URL has no trailing slash; a custom domain's neither (no path mapping).
    PUBLIC_BASE_URL: api.url,
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
    // Below the gateway's 30 s, so the function, not the gateway, decides what the client gets.
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
  return api;
}
