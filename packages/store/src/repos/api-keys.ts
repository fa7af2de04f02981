import { createHash, timingSafeEqual } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newId, randomAlphanumeric } from '@idv/core';
import { queryItems } from '../pagination.ts';
import { isConditionFailure, stripKeys, type Table } from '../table.ts';

export type Mode = 'test' | 'live';

/** What is stored of a secret key: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  id: string;
  org_id: string;
  app_id: string;
  mode: Mode;
  /** Enough of the key for a person to recognise it in a list, e.g. `vn_test_4f9a…`. */
  display_prefix: string;
  created_at: string;
  revoked_at: string | null;
  /** When the API last accepted the key, to the minute (absent: never used). */
  last_used_at?: string | null;
}

/** A key's use is written at most once per this many seconds, so a busy key costs no write per call. */
export const KEY_USE_RESOLUTION_SECONDS = 60;

/** 40 random characters after the prefix: ~206 bits of entropy (the spec asks for ≥ 32). */
export const SECRET_KEY_RANDOM_LENGTH = 40;
const SECRET_KEY_PATTERN = /^vn_(test|live)_[A-Za-z0-9]{32,}$/;
const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function looksLikeSecretKey(credential: string): boolean {
  return SECRET_KEY_PATTERN.test(credential);
}

const keyItem = (hash: string) => ({ pk: `KEY#${hash}`, sk: 'KEY' });
const keyIdItem = (id: string) => ({ pk: `KEYID#${id}`, sk: 'KEYID' });

export class ApiKeyRepository {
  constructor(private readonly table: Table) {}

  /** Creates a key and returns the secret, which is never retrievable again. */
  async create(input: { orgId: string; appId: string; mode: Mode }, now = new Date()) {
    const secret = `vn_${input.mode}_${randomAlphanumeric(SECRET_KEY_RANDOM_LENGTH, KEY_ALPHABET)}`;
    const hash = hashSecret(secret);
    const record: ApiKeyRecord = {
      id: newId('key'),
      org_id: input.orgId,
      app_id: input.appId,
      mode: input.mode,
      display_prefix: `${secret.slice(0, 12)}…`,
      created_at: now.toISOString(),
      revoked_at: null,
    };
    await this.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.table.name,
              Item: {
                ...keyItem(hash),
                ...record,
                key_hash: hash,
                gsi1pk: `ORG#${input.orgId}#KEYS`,
                gsi1sk: `${record.created_at}#${record.id}`,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          // Lets revocation find the key by id without ever holding the secret.
          {
            Put: {
              TableName: this.table.name,
              Item: { ...keyIdItem(record.id), key_hash: hash, org_id: input.orgId },
            },
          },
        ],
      }),
    );
    return { secret, record };
  }

  /**
   * Finds an active key from the secret presented. The lookup is by hash (the table does the
   * matching); the stored hash is compared again in constant time so that no code path here
   * compares secret material with an early exit. Strongly consistent, so revocation holds on
   * the very next request.
   */
  async findActiveBySecret(secret: string): Promise<ApiKeyRecord | null> {
    if (!looksLikeSecretKey(secret)) return null;
    const hash = hashSecret(secret);
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keyItem(hash), ConsistentRead: true }),
    );
    const item = out.Item;
    if (!item || typeof item.key_hash !== 'string') return null;
    const same = timingSafeEqual(Buffer.from(item.key_hash, 'hex'), Buffer.from(hash, 'hex'));
    if (!same || item.revoked_at) return null;
    const { key_hash: _hash, ...rest } = stripKeys<ApiKeyRecord & { key_hash: string }>(item);
    return rest;
  }

  /**
   * Records that the key was just accepted. Throttled: nothing is written while the last
   * recorded use is under a minute old (read from the record the lookup already returned), and
   * the write is conditional on the stored value being that old, so concurrent calls of a busy
   * key write once. Never on a revoked or deleted key.
   */
  async recordUse(key: ApiKeyRecord, secret: string, now = new Date()): Promise<boolean> {
    const cutoff = new Date(now.getTime() - KEY_USE_RESOLUTION_SECONDS * 1000).toISOString();
    if (key.last_used_at && key.last_used_at > cutoff) return false;
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keyItem(hashSecret(secret)),
          UpdateExpression: 'SET last_used_at = :now',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null) AND ' +
            '(attribute_not_exists(last_used_at) OR last_used_at <= :cutoff)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':cutoff': cutoff, ':null': null },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  listForOrganisation(orgId: string): Promise<ApiKeyRecord[]> {
    return queryItems(this.table, { index: 'gsi1', partition: `ORG#${orgId}#KEYS` }, (item) => {
      const { key_hash: _hash, ...rest } = stripKeys<ApiKeyRecord & { key_hash: string }>(item);
      return rest;
    });
  }

  /** Revokes a key of the organisation; returns false when no such key exists there. */
  async revoke(orgId: string, keyId: string, now = new Date()): Promise<boolean> {
    const pointer = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keyIdItem(keyId), ConsistentRead: true }),
    );
    if (!pointer.Item || pointer.Item.org_id !== orgId) return false;
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keyItem(pointer.Item.key_hash as string),
          UpdateExpression: 'SET revoked_at = :now',
          // The first revocation time is kept; a second revoke changes nothing.
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    return true;
  }
}
