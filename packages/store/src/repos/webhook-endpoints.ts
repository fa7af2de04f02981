import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { newId, randomAlphanumeric } from '@idv/core';
import { decryptEnvelope, encryptEnvelope } from '../images/envelope.ts';
import { queryItems } from '../pagination.ts';
import { isConditionFailure, type Table } from '../table.ts';

/** An endpoint as the API shows it: never the secret. */
export interface WebhookEndpoint {
  id: string;
  org_id: string;
  app_id: string;
  url: string;
  description: string;
  created_at: string;
}

/** What the worker needs to sign and send a delivery. */
export interface WebhookSigningTarget extends WebhookEndpoint {
  secret: string;
}

/** DESIGN.md: at most 16 endpoints per organisation. */
export const MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION = 16;

/** 40 characters from a 62-letter alphabet after `whsec_`: ~238 bits. */
const SECRET_RANDOM_LENGTH = 40;
const SECRET_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export class WebhookEndpointLimitError extends Error {
  constructor() {
    super(`at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION} webhook endpoints per organisation`);
    this.name = 'WebhookEndpointLimitError';
  }
}

const endpointKey = (id: string) => ({ pk: `WHE#${id}`, sk: 'WHE' });
/** Per-organisation endpoint counter: the limit holds under concurrent creations. */
const counterKey = (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'WHE_COUNT' });
const listPartition = (orgId: string) => `ORG#${orgId}#WHE`;

function publicView(item: Record<string, unknown>): WebhookEndpoint {
  return {
    id: item.id as string,
    org_id: item.org_id as string,
    app_id: item.app_id as string,
    url: item.url as string,
    description: item.description as string,
    created_at: item.created_at as string,
  };
}

/**
 * Webhook endpoints. The signing secret must be readable by the worker (it signs every
 * delivery), so unlike API keys it cannot be stored as a hash. With a master key (the same
 * 32-byte key as the image envelopes) it is sealed with AES-256-GCM, bound to the endpoint id,
 * in `signing_secret_sealed`; without one (local runs without IMAGE_MASTER_KEY) it is stored as
 * is in `signing_secret`. Either way the table is encrypted at rest by DynamoDB, and only
 * `getSigningTarget` reads the secret: every other read picks the public fields explicitly.
 */
export class WebhookEndpointRepository {
  constructor(
    private readonly table: Table,
    private readonly masterKey: Uint8Array = new Uint8Array(0),
  ) {}

  private sealSecret(id: string, secret: string): Record<string, string> {
    if (this.masterKey.byteLength !== 32) return { signing_secret: secret };
    const sealed = encryptEnvelope(this.masterKey, Buffer.from(secret, 'utf8'), `whe:${id}`);
    return { signing_secret_sealed: sealed.toString('base64') };
  }

  private openSecret(item: Record<string, unknown>): string {
    if (typeof item.signing_secret_sealed !== 'string') return item.signing_secret as string;
    const sealed = Buffer.from(item.signing_secret_sealed, 'base64');
    return decryptEnvelope(this.masterKey, sealed, `whe:${item.id}`).toString('utf8');
  }

  /** Creates an endpoint; returns it with its secret, which no other call ever returns. */
  async create(
    input: { orgId: string; appId: string; url: string; description: string },
    now = new Date(),
  ): Promise<WebhookSigningTarget> {
    const endpoint: WebhookEndpoint = {
      id: newId('whe'),
      org_id: input.orgId,
      app_id: input.appId,
      url: input.url,
      description: input.description,
      created_at: now.toISOString(),
    };
    const secret = `whsec_${randomAlphanumeric(SECRET_RANDOM_LENGTH, SECRET_ALPHABET)}`;
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.table.name,
                Key: counterKey(input.orgId),
                UpdateExpression: 'ADD endpoint_count :one',
                ConditionExpression: 'attribute_not_exists(endpoint_count) OR endpoint_count < :max',
                ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION },
              },
            },
            {
              Put: {
                TableName: this.table.name,
                Item: {
                  ...endpointKey(endpoint.id),
                  ...endpoint,
                  ...this.sealSecret(endpoint.id, secret),
                  gsi1pk: listPartition(input.orgId),
                  gsi1sk: `${endpoint.created_at}#${endpoint.id}`,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new WebhookEndpointLimitError();
      throw error;
    }
    return { ...endpoint, secret };
  }

  /** The organisation's endpoints, newest first (at most 16, so one query). */
  listForOrganisation(orgId: string): Promise<WebhookEndpoint[]> {
    return queryItems(this.table, { index: 'gsi1', partition: listPartition(orgId) }, publicView);
  }

  /** The endpoints that receive an application's events. */
  async listForApplication(orgId: string, appId: string): Promise<WebhookEndpoint[]> {
    return (await this.listForOrganisation(orgId)).filter((e) => e.app_id === appId);
  }

  /** An endpoint of the organisation, or null (also for another organisation's endpoint). */
  async get(orgId: string, id: string): Promise<WebhookEndpoint | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: endpointKey(id), ConsistentRead: true }),
    );
    return out.Item && out.Item.org_id === orgId ? publicView(out.Item) : null;
  }

  /** For the worker only: the endpoint with its secret, or null once deleted. */
  async getSigningTarget(id: string): Promise<WebhookSigningTarget | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: endpointKey(id), ConsistentRead: true }),
    );
    if (!out.Item) return null;
    return { ...publicView(out.Item), secret: this.openSecret(out.Item) };
  }

  /** Deletes an endpoint of the organisation; false when there is no such endpoint there. */
  async delete(orgId: string, id: string): Promise<boolean> {
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.table.name,
                Key: endpointKey(id),
                ConditionExpression: 'attribute_exists(pk) AND org_id = :org',
                ExpressionAttributeValues: { ':org': orgId },
              },
            },
            {
              Update: {
                TableName: this.table.name,
                Key: counterKey(orgId),
                UpdateExpression: 'ADD endpoint_count :minus',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
