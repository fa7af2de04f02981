import { TABLE_SCHEMA } from '../packages/store/src/table-schema';

/** The table, the image bucket, the upload staging bucket and the event queues (see packages/store for how they are used). */
export function createStorage() {
  const { partitionKey, sortKey, ttlAttribute, indexes } = TABLE_SCHEMA;
  const table = new sst.aws.Dynamo('Table', {
    fields: {
      [partitionKey]: 'string',
      [sortKey]: 'string',
      [indexes.gsi1.partitionKey]: 'string',
      [indexes.gsi1.sortKey]: 'string',
    },
    primaryIndex: { hashKey: partitionKey, rangeKey: sortKey },
    globalIndexes: { gsi1: { hashKey: indexes.gsi1.partitionKey, rangeKey: indexes.gsi1.sortKey } },
    ttl: ttlAttribute,
  });

  // Images: private, server-side encrypted (SSE-S3 by default on new buckets); the application
  // adds its own AES-GCM envelope on top. Objects are deleted by the retention purge.
  const bucket = new sst.aws.Bucket('Images', {
    transform: {
      bucket: (args) => {
        args.forceDestroy = $app.stage !== 'production';
      },
    },
  });

  // Direct uploads (packages/store/src/uploads): callers PUT images here with presigned URLs, so
  // large images never pass through the API gateway. Private and SSE-S3 encrypted; the API reads
  // each object once, then deletes it (live images are re-encrypted into the image bucket). CORS
  // lets any page PUT (the presigned URL is the credential; the hosted page and the web SDK run
  // in browsers); the lifecycle rule removes whatever no verification used within a day.
  const uploads = new sst.aws.Bucket('Uploads', {
    cors: {
      allowOrigins: ['*'],
      allowMethods: ['PUT'],
      allowHeaders: ['content-type'],
      exposeHeaders: ['ETag'],
      maxAge: '3000 seconds',
    },
    lifecycle: [{ id: 'expire-unused-uploads', prefix: 'uploads/', expiresIn: '1 day' }],
    transform: {
      bucket: (args) => {
        args.forceDestroy = $app.stage !== 'production';
      },
    },
  });

  const eventsDeadLetter = new sst.aws.Queue('EventsDeadLetter', {
    transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
  });
  const events = new sst.aws.Queue('Events', {
    visibilityTimeout: '60 seconds',
    dlq: { queue: eventsDeadLetter.arn, retry: 10 },
  });

  return { table, bucket, uploads, events, eventsDeadLetter };
}

export type Storage = ReturnType<typeof createStorage>;
