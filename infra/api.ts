import type { Storage } from './storage';

/** The HTTP API: one Lambda function running the Hono app, behind an HTTP API (API Gateway v2). */
export function createApi(storage: Storage) {
  const environment = {
    TABLE_NAME: storage.table.name,
    BUCKET_NAME: storage.bucket.name,
    EVENTS_QUEUE_URL: storage.events.url,
    EVENTS_DLQ_URL: storage.eventsDeadLetter.url,
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
  });
  return api;
}
