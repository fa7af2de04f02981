import { TABLE_SCHEMA } from '../packages/store/src/table-schema';

/** The table, the image bucket and the event queues (see packages/store for how they are used). */
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

  const eventsDeadLetter = new sst.aws.Queue('EventsDeadLetter', {
    transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
  });
  const events = new sst.aws.Queue('Events', {
    visibilityTimeout: '60 seconds',
    dlq: { queue: eventsDeadLetter.arn, retry: 10 },
  });

  return { table, bucket, events, eventsDeadLetter };
}

export type Storage = ReturnType<typeof createStorage>;
