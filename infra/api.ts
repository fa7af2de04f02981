import type { Storage } from './storage';

export interface ApiSecrets {
  imageMasterKey: sst.Secret;
  urlSigningKey: sst.Secret;
}

/** The HTTP API: one Lambda function running the Hono app, behind an HTTP API (API Gateway v2). */
export function createApi(storage: Storage, analyzer: aws.lambda.Function, secrets: ApiSecrets) {
  const environment = {
    TABLE_NAME: storage.table.name,
    BUCKET_NAME: storage.bucket.name,
    EVENTS_QUEUE_URL: storage.events.url,
    EVENTS_DLQ_URL: storage.eventsDeadLetter.url,
    ANALYZER_FUNCTION_NAME: analyzer.name,
    IMAGE_MASTER_KEY: secrets.imageMasterKey.value,
    URL_SIGNING_KEY: secrets.urlSigningKey.value,
    // The /docs renderer's bundle is not imported (the app reads it), so it is copied beside the code.
    DOCS_BUNDLE_FILE: '/var/task/docs-assets/api-reference.js',
    // So is the web SDK bundle (built by npm install), served at /sdk/v1.js.
    SDK_DIST_DIR: '/var/task/web-sdk',
  };
  const api = new sst.aws.ApiGatewayV2('Api');
  api.route('$default', {
    handler: 'functions/api.handler',
    runtime: 'nodejs22.x',
    architecture: 'arm64',
    memory: '1024 MB',
    timeout: '60 seconds',
    link: [storage.table, storage.bucket, storage.events, storage.eventsDeadLetter],
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
