import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { AwsClients } from '../clients.ts';
import type { StoreConfig } from '../config.ts';
import { TABLE_SCHEMA } from '../table-schema.ts';

/**
 * Creates the table, bucket and queues when missing. Local only: on AWS, SST owns them
 * (infra/), from the same TABLE_SCHEMA. Returns the config completed with queue URLs.
 */
export async function ensureResources(config: StoreConfig, clients: AwsClients): Promise<StoreConfig> {
  await ensureTable(config, clients);
  await ensureBucket(config.bucketName, clients);
  await ensureBucket(config.uploadsBucketName, clients);
  const dlqUrl = await createQueue(clients, config.eventsDeadLetterQueueName, {});
  const dlqArn = await queueArn(clients, dlqUrl);
  const queueUrl = await createQueue(clients, config.eventsQueueName, {
    // A message received this many times without being deleted is a worker crash loop: park it.
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: '10' }),
    VisibilityTimeout: '60',
  });
  return { ...config, eventsQueueUrl: queueUrl, eventsDeadLetterQueueUrl: dlqUrl };
}

async function ensureTable(config: StoreConfig, { dynamo }: AwsClients): Promise<void> {
  try {
    await dynamo.send(new DescribeTableCommand({ TableName: config.tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { partitionKey, sortKey, indexes } = TABLE_SCHEMA;
  await dynamo.send(
    new CreateTableCommand({
      TableName: config.tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: partitionKey, AttributeType: 'S' },
        { AttributeName: sortKey, AttributeType: 'S' },
        { AttributeName: indexes.gsi1.partitionKey, AttributeType: 'S' },
        { AttributeName: indexes.gsi1.sortKey, AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: indexes.gsi1.partitionKey, KeyType: 'HASH' },
            { AttributeName: indexes.gsi1.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
  await waitUntilTableExists({ client: dynamo, maxWaitTime: 30 }, { TableName: config.tableName });
  await dynamo.send(
    new UpdateTimeToLiveCommand({
      TableName: config.tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true },
    }),
  );
}

async function ensureBucket(bucket: string, { s3 }: AwsClients): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

async function createQueue(
  { sqs }: AwsClients,
  name: string,
  attributes: Record<string, string>,
): Promise<string> {
  // CreateQueue is idempotent for the same attributes.
  const out = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  if (!out.QueueUrl) throw new Error(`queue ${name} has no URL`);
  return out.QueueUrl;
}

async function queueArn({ sqs }: AwsClients, url: string): Promise<string> {
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  const arn = out.Attributes?.QueueArn;
  if (!arn) throw new Error(`queue ${url} has no ARN`);
  return arn;
}
