import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type AwsClients, createClients } from './clients.ts';
import type { StoreConfig } from './config.ts';
import { ImageStore } from './images/image-store.ts';
import { JsonQueue } from './queue.ts';
import { ApiKeyRepository } from './repos/api-keys.ts';
import { AuditRepository } from './repos/audit.ts';
import { EventRepository } from './repos/events.ts';
import { IdempotencyRepository } from './repos/idempotency.ts';
import { ImagePurgeRepository } from './repos/image-purges.ts';
import { OperatorRepository } from './repos/operators.ts';
import { OrganisationRepository } from './repos/organisations.ts';
import { RateLimitRepository } from './repos/rate-limits.ts';
import { RequestLogRepository } from './repos/request-logs.ts';
import { SessionRepository } from './repos/sessions.ts';
import { UploadRepository } from './repos/uploads.ts';
import { UsageRepository } from './repos/usage.ts';
import { UserRepository } from './repos/users.ts';
import { VerificationRepository } from './repos/verifications.ts';
import { WebhookDeliveryRepository } from './repos/webhook-deliveries.ts';
import { WebhookEndpointRepository } from './repos/webhook-endpoints.ts';
import type { Table } from './table.ts';
import { UploadStore } from './uploads/upload-store.ts';

/** Every repository over one set of AWS clients; built once per process. */
export interface Store {
  config: StoreConfig;
  clients: AwsClients;
  organisations: OrganisationRepository;
  apiKeys: ApiKeyRepository;
  users: UserRepository;
  /** Platform operators (not members of any organisation). */
  operators: OperatorRepository;
  rateLimits: RateLimitRepository;
  requestLogs: RequestLogRepository;
  verifications: VerificationRepository;
  sessions: SessionRepository;
  idempotency: IdempotencyRepository;
  usage: UsageRepository;
  audit: AuditRepository;
  imagePurges: ImagePurgeRepository;
  events: EventRepository;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  /** The events queue (webhook fan-out and attempts) and its dead-letter queue; JSON bodies. */
  eventsQueue: JsonQueue<unknown>;
  eventsDeadLetterQueue: JsonQueue<unknown>;
  /** Encrypted images in the bucket; throws on use when no master key is configured. */
  images: ImageStore;
  /** Direct uploads: the records (who may use what) and the staging bucket's objects. */
  uploadRecords: UploadRepository;
  uploads: UploadStore;
  /** Writes several items atomically (all or nothing). */
  transact(items: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<void>;
}

export function createStore(config: StoreConfig): Store {
  const clients = createClients(config);
  const table: Table = { doc: clients.doc, name: config.tableName };
  return {
    config,
    clients,
    organisations: new OrganisationRepository(table),
    apiKeys: new ApiKeyRepository(table),
    users: new UserRepository(table),
    operators: new OperatorRepository(table),
    rateLimits: new RateLimitRepository(table),
    requestLogs: new RequestLogRepository(table),
    verifications: new VerificationRepository(table),
    sessions: new SessionRepository(table),
    idempotency: new IdempotencyRepository(table),
    usage: new UsageRepository(table),
    audit: new AuditRepository(table),
    imagePurges: new ImagePurgeRepository(table),
    events: new EventRepository(table),
    webhookEndpoints: new WebhookEndpointRepository(table, imageMasterKey(config)),
    webhookDeliveries: new WebhookDeliveryRepository(table),
    eventsQueue: new JsonQueue(clients.sqs, { url: config.eventsQueueUrl, name: config.eventsQueueName }),
    eventsDeadLetterQueue: new JsonQueue(clients.sqs, {
      url: config.eventsDeadLetterQueueUrl,
      name: config.eventsDeadLetterQueueName,
    }),
    images: new ImageStore(clients.s3, config.bucketName, imageMasterKey(config)),
    uploadRecords: new UploadRepository(table),
    uploads: new UploadStore(clients.s3, clients.s3Presigner, config.uploadsBucketName),
    async transact(items) {
      await clients.doc.send(new TransactWriteCommand({ TransactItems: items }));
    },
  };
}

/** The 32-byte master key for image envelopes (base64 in IMAGE_MASTER_KEY). */
function imageMasterKey(config: StoreConfig): Uint8Array {
  if (!config.imageMasterKey) return new Uint8Array(0); // ImageStore refuses to encrypt with it
  const key = Buffer.from(config.imageMasterKey, 'base64');
  if (key.byteLength !== 32) throw new Error('IMAGE_MASTER_KEY must be 32 bytes, base64-encoded');
  return new Uint8Array(key);
}
