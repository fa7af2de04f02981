/**
 * Where the storage lives. The same code talks to AWS or to the local servers; only these
 * values differ, and they come from the environment (set by SST on AWS, by the local
 * launcher or the test setup locally).
 */
export interface StoreConfig {
  region: string;
  tableName: string;
  bucketName: string;
  /** The staging bucket of direct uploads (presigned PUTs; unused objects expire in a day). */
  uploadsBucketName: string;
  eventsQueueName: string;
  eventsDeadLetterQueueName: string;
  /** Local only: explicit endpoints and static credentials. Undefined on AWS. */
  dynamoEndpoint?: string;
  s3Endpoint?: string;
  /**
   * Local only: the S3 address callers reach with presigned URLs, when it is not s3Endpoint
   * (on AWS the presigned URL names the bucket's own public endpoint).
   */
  s3PublicEndpoint?: string;
  sqsEndpoint?: string;
  /** Queue URLs when known (AWS injects them); otherwise resolved by name. */
  eventsQueueUrl?: string;
  eventsDeadLetterQueueUrl?: string;
  /** Base64 of the 32-byte master key sealing image data keys (a secret: SST Secret on AWS). */
  imageMasterKey?: string;
}

export function storeConfigFromEnv(env: NodeJS.ProcessEnv = process.env): StoreConfig {
  return {
    region: env.AWS_REGION ?? 'us-east-1',
    tableName: env.TABLE_NAME ?? 'idv',
    bucketName: env.BUCKET_NAME ?? 'idv-images',
    uploadsBucketName: env.UPLOADS_BUCKET_NAME ?? 'idv-uploads',
    eventsQueueName: env.EVENTS_QUEUE_NAME ?? 'idv-events',
    eventsDeadLetterQueueName: env.EVENTS_DLQ_NAME ?? 'idv-events-dlq',
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    s3PublicEndpoint: env.S3_PUBLIC_ENDPOINT || undefined,
    sqsEndpoint: env.SQS_ENDPOINT || undefined,
    eventsQueueUrl: env.EVENTS_QUEUE_URL || undefined,
    eventsDeadLetterQueueUrl: env.EVENTS_DLQ_URL || undefined,
    imageMasterKey: env.IMAGE_MASTER_KEY || undefined,
  };
}

/** The environment variables that carry a StoreConfig to another process. */
export function storeConfigToEnv(config: StoreConfig): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: config.region,
    TABLE_NAME: config.tableName,
    BUCKET_NAME: config.bucketName,
    UPLOADS_BUCKET_NAME: config.uploadsBucketName,
    EVENTS_QUEUE_NAME: config.eventsQueueName,
    EVENTS_DLQ_NAME: config.eventsDeadLetterQueueName,
  };
  if (config.dynamoEndpoint) env.DYNAMODB_ENDPOINT = config.dynamoEndpoint;
  if (config.s3Endpoint) env.S3_ENDPOINT = config.s3Endpoint;
  if (config.s3PublicEndpoint) env.S3_PUBLIC_ENDPOINT = config.s3PublicEndpoint;
  if (config.sqsEndpoint) env.SQS_ENDPOINT = config.sqsEndpoint;
  if (config.eventsQueueUrl) env.EVENTS_QUEUE_URL = config.eventsQueueUrl;
  if (config.eventsDeadLetterQueueUrl) env.EVENTS_DLQ_URL = config.eventsDeadLetterQueueUrl;
  if (config.imageMasterKey) env.IMAGE_MASTER_KEY = config.imageMasterKey;
  return env;
}

export function isLocal(config: StoreConfig): boolean {
  return Boolean(config.dynamoEndpoint);
}
