import { DeleteCommand, GetCommand, PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, isConditionFailure, type Table } from '../table.ts';
import type { Mode } from './api-keys.ts';

/** Keys are kept 48 hours (the spec asks for at least 24). */
export const IDEMPOTENCY_RETENTION_SECONDS = 48 * 3600;
/**
 * A request holds its key for this long while it runs. If the process dies mid-request the
 * key frees itself after the lease instead of answering "in progress" for two days.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 120;

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type IdempotencyBegin =
  | { state: 'started' }
  | { state: 'in_progress' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'mismatch' };

const itemKey = (orgId: string, mode: Mode, key: string) => ({
  pk: `IDEM#${orgId}#${mode}#${key}`,
  sk: 'IDEM',
});

export class IdempotencyRepository {
  constructor(private readonly table: Table) {}

  /**
   * Claims `key` for a request whose content hashes to `requestHash`. Exactly one of several
   * concurrent callers gets `started` (a conditional write); the others see `in_progress`.
   */
  async begin(
    orgId: string,
    mode: Mode,
    key: string,
    requestHash: string,
    now = new Date(),
  ): Promise<IdempotencyBegin> {
    const nowSeconds = epochSeconds(now);
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...itemKey(orgId, mode, key),
            state: 'in_progress',
            request_hash: requestHash,
            lease_until: nowSeconds + IDEMPOTENCY_LEASE_SECONDS,
            expires_at: nowSeconds + IDEMPOTENCY_RETENTION_SECONDS,
          },
          ConditionExpression:
            'attribute_not_exists(pk) OR expires_at < :now OR (#state = :running AND lease_until < :now AND request_hash = :hash)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':running': 'in_progress', ':hash': requestHash },
        }),
      );
      return { state: 'started' };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: itemKey(orgId, mode, key), ConsistentRead: true }),
    );
    const item = out.Item;
    if (!item) return this.begin(orgId, mode, key, requestHash, now); // released meanwhile
    if (item.request_hash !== requestHash) return { state: 'mismatch' };
    if (item.state === 'done') return { state: 'replay', response: item.response as StoredResponse };
    return { state: 'in_progress' };
  }

  /** The write that records the response, for the transaction that also saves the result. */
  completeItem(
    orgId: string,
    mode: Mode,
    key: string,
    requestHash: string,
    response: StoredResponse,
    now = new Date(),
  ) {
    const item: NonNullable<TransactWriteCommandInput['TransactItems']>[number] = {
      Put: {
        TableName: this.table.name,
        Item: {
          ...itemKey(orgId, mode, key),
          state: 'done',
          request_hash: requestHash,
          response,
          expires_at: epochSeconds(now) + IDEMPOTENCY_RETENTION_SECONDS,
        },
        // Only the request that holds the key may complete it.
        ConditionExpression: '#state = :running AND request_hash = :hash',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':running': 'in_progress', ':hash': requestHash },
      },
    };
    return item;
  }

  /** Frees the key after a failure that changed nothing, so the client may retry with it. */
  async release(orgId: string, mode: Mode, key: string, requestHash: string): Promise<void> {
    try {
      await this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: itemKey(orgId, mode, key),
          ConditionExpression: '#state = :running AND request_hash = :hash',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':running': 'in_progress', ':hash': requestHash },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
