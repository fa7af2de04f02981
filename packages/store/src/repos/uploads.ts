import {
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { randomAlphanumeric } from '@idv/core';
import { queryItems } from '../pagination.ts';
import { epochSeconds, isConditionFailure, releaseClaim, stripKeys, type Table } from '../table.ts';
import type { Mode } from './api-keys.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One direct upload: the presigned target handed to a caller, and what may land there. It
 * belongs to an organisation and mode (and to a session when a client token asked for it), is
 * bound to one image kind, type and size, and is used by at most one verification.
 */
export interface UploadRecord {
  id: string;
  org_id: string;
  mode: Mode;
  /** The session whose client token asked for it; null for a secret key's upload. */
  session_id: string | null;
  kind: 'front' | 'back' | 'selfie';
  content_type: 'image/jpeg' | 'image/png' | 'image/webp';
  /** The exact byte size the presigned PUT allows. */
  size: number;
  /** The object's key in the staging bucket. */
  key: string;
  created_at: string;
  /** When the presigned PUT stops working. */
  put_expires_at: string;
  /** Until when a verification may name it; later it is purged. */
  usable_until: string;
  /** Set once a verification read it (the object is then deleted). */
  used_at: string | null;
  verification_id: string | null;
}

/** Why uploads could not be claimed for a verification. */
export type UploadClaim = { state: 'claimed'; claimId: string } | { state: 'refused' };

/** An upload is held this long by the verification reading it (the analysis times out at 45 s). */
export const UPLOAD_CLAIM_LEASE_SECONDS = 120;
/** Records stay a day after they stop being usable (for support), then DynamoDB drops them. */
const RECORD_RETENTION_SECONDS = 86_400;
/** The sparse gsi1 partition of uploads not yet used, sorted by the end of their usability. */
const DUE_PARTITION = 'UPL#DUE';

const itemKey = (id: string) => ({ pk: `UPL#${id}`, sk: 'UPL' });

export class UploadRepository {
  constructor(private readonly table: Table) {}

  /** The writes that create uploads (all or none, in one transaction with the caller's). */
  createItems(records: UploadRecord[]): TransactItem[] {
    return records.map((record) => ({
      Put: {
        TableName: this.table.name,
        Item: {
          ...itemKey(record.id),
          gsi1pk: DUE_PARTITION,
          gsi1sk: `${record.usable_until}#${record.id}`,
          ...record,
          upload_state: 'open',
          expires_at: epochSeconds(new Date(record.usable_until)) + RECORD_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }));
  }

  async get(
    id: string,
  ): Promise<(UploadRecord & { upload_state: 'open' | 'used' | 'purged'; claim_until?: number }) | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: itemKey(id), ConsistentRead: true }),
    );
    return out.Item ? stripKeys(out.Item) : null;
  }

  /**
   * Claims the uploads for one verification, all or none: each must be unused, still usable
   * and not held by another running verification. A crashed verification's lease runs out.
   */
  async claim(ids: string[], now = new Date()): Promise<UploadClaim> {
    const claimId = randomAlphanumeric(16);
    const nowSeconds = epochSeconds(now);
    try {
      await this.table.doc.send(
        transactWrite(
          ids.map((id) => ({
            Update: {
              TableName: this.table.name,
              Key: itemKey(id),
              UpdateExpression: 'SET upload_claim = :claim, claim_until = :until',
              ConditionExpression:
                'attribute_exists(pk) AND upload_state = :open AND usable_until > :nowIso AND (attribute_not_exists(claim_until) OR claim_until < :now)',
              ExpressionAttributeValues: {
                ':claim': claimId,
                ':until': nowSeconds + UPLOAD_CLAIM_LEASE_SECONDS,
                ':open': 'open',
                ':nowIso': now.toISOString(),
                ':now': nowSeconds,
              },
            },
          })),
        ),
      );
      return { state: 'claimed', claimId };
    } catch (error) {
      if (isConditionFailure(error)) return { state: 'refused' };
      throw error;
    }
  }

  /** The write that spends a claimed upload, in the transaction that saves its verification. */
  consumeItem(id: string, claimId: string, verificationId: string | null, now = new Date()): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: itemKey(id),
        UpdateExpression:
          'SET upload_state = :used, used_at = :now, verification_id = :vrf REMOVE upload_claim, claim_until, gsi1pk, gsi1sk',
        ConditionExpression: 'upload_claim = :claim',
        ExpressionAttributeValues: {
          ':used': 'used',
          ':now': now.toISOString(),
          ':vrf': verificationId,
          ':claim': claimId,
        },
      },
    };
  }

  /** Spends claimed uploads without a verification (the analysis refused the images). */
  async consume(ids: string[], claimId: string, now = new Date()): Promise<void> {
    if (ids.length === 0) return;
    await this.table.doc.send(transactWrite(ids.map((id) => this.consumeItem(id, claimId, null, now))));
  }

  /** Gives claimed uploads back (nothing was analysed): a retry may name them again. */
  async release(ids: string[], claimId: string): Promise<void> {
    await Promise.all(ids.map((id) => releaseClaim(this.table, itemKey(id), claimId)));
  }

  /** Unused uploads whose usability ended before `now`, oldest first. */
  expired(now: Date, limit = 100): Promise<UploadRecord[]> {
    return queryItems(
      this.table,
      {
        index: 'gsi1',
        partition: DUE_PARTITION,
        sortKey: { condition: '< :now', values: { ':now': now.toISOString() } },
        newestFirst: false,
        limit,
      },
      (item) => stripKeys<UploadRecord>(item),
    );
  }

  /**
   * Marks an expired upload purged, unless a verification holds it (its lease not yet over);
   * false when it was not taken. It leaves the due list; the caller deletes the object.
   */
  async markPurged(id: string, now = new Date()): Promise<boolean> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: itemKey(id),
          UpdateExpression: 'SET upload_state = :purged, purged_at = :nowIso REMOVE gsi1pk, gsi1sk',
          ConditionExpression:
            'upload_state = :open AND (attribute_not_exists(claim_until) OR claim_until < :now)',
          ExpressionAttributeValues: {
            ':purged': 'purged',
            ':open': 'open',
            ':nowIso': now.toISOString(),
            ':now': epochSeconds(now),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

function transactWrite(items: TransactItem[]) {
  return new TransactWriteCommand({ TransactItems: items });
}
