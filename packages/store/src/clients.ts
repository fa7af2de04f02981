import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isLocal, type StoreConfig } from './config.ts';

/** Static credentials for the local servers, which accept anything but need something. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface AwsClients {
  dynamo: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  s3: S3Client;
  /** Signs the presigned upload URLs callers use (their endpoint, no checksum of an empty body). */
  s3Presigner: S3Client;
  sqs: SQSClient;
}

export function createClients(config: StoreConfig): AwsClients {
  const local = isLocal(config);
  const credentials = local ? LOCAL_CREDENTIALS : undefined;
  const dynamo = new DynamoDBClient({ region: config.region, endpoint: config.dynamoEndpoint, credentials });
  const doc = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  const s3 = new S3Client({
    region: config.region,
    endpoint: config.s3Endpoint,
    credentials,
    // The local S3 answers on one host: path-style addressing avoids bucket subdomains.
    forcePathStyle: local,
  });
  const s3Presigner = new S3Client({
    region: config.region,
    endpoint: config.s3PublicEndpoint ?? config.s3Endpoint,
    credentials,
    forcePathStyle: local,
    // Otherwise the SDK signs a CRC32 of the (empty) body into the URL and S3 refuses the upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const sqs = new SQSClient({
    region: config.region,
    endpoint: config.sqsEndpoint,
    credentials,
    // Locally the queue URL's host is not the endpoint we were given: always use the endpoint.
    useQueueUrlAsEndpoint: !local,
  });
  return { dynamo, doc, s3, s3Presigner, sqs };
}
