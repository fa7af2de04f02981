import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ImageKind, Verification } from '@idv/core';
import { type PageResult, queryPage } from '../pagination.ts';
import type { Table } from '../table.ts';
import type { Mode } from './api-keys.ts';

export interface StoredImage {
  key: string;
  content_type: string;
  bytes: number;
}

/** What finance sums per organisation per month; never shown to customers. */
export interface CostEstimate {
  analyzer_ms: number;
  compute_usd: number;
  storage_usd: number;
  total_usd: number;
}

/** A verification as kept: the public object plus what only the service needs. */
export interface VerificationRecord {
  verification: Verification;
  org_id: string;
  app_id: string;
  mode: Mode;
  /** Live mode only: the encrypted images and when they must be deleted. */
  images: Partial<Record<ImageKind, StoredImage>>;
  images_purge_after: string | null;
  images_purged_at: string | null;
  cost: CostEstimate;
  session_id: string | null;
  /** The calendar month (UTC, YYYY-MM) it is counted in, live mode only. */
  billing_month: string | null;
  /** The caller's file reference of the session it came from (console search); null otherwise. */
  reference?: string | null;
}

/** What the console's list can narrow a mode's verifications to; every field optional. */
export interface VerificationFilter {
  verdict?: 'verified' | 'review' | 'rejected';
  /** `none`: not decided (yet); otherwise the reviewer's final verdict. */
  finalVerdict?: 'verified' | 'rejected' | 'none';
  /** Creation time bounds, ISO 8601 (inclusive `from`, exclusive `to`). */
  from?: string;
  to?: string;
  reference?: string;
}

const itemKey = (id: string) => ({ pk: `VRF#${id}`, sk: 'VRF' });
const listPartition = (orgId: string, mode: Mode) => `ORG#${orgId}#MODE#${mode}#VRF`;

export class VerificationRepository {
  constructor(private readonly table: Table) {}

  /** The Put of a new verification, to be written in one transaction with its side effects. */
  putItem(record: VerificationRecord): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    const v = record.verification;
    return {
      Put: {
        TableName: this.table.name,
        Item: {
          ...itemKey(v.id),
          gsi1pk: listPartition(record.org_id, record.mode),
          gsi1sk: `${v.created_at}#${v.id}`,
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** Reads a verification of this organisation and mode; anything else is "not found". */
  async get(orgId: string, mode: Mode, id: string): Promise<VerificationRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: itemKey(id), ConsistentRead: true }),
    );
    const item = out.Item as (VerificationRecord & Record<string, unknown>) | undefined;
    if (!item || item.org_id !== orgId || item.mode !== mode) return null;
    return toRecord(item);
  }

  /** Reads by id alone (console, purge job); callers check the organisation themselves. */
  async getById(id: string): Promise<VerificationRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: itemKey(id), ConsistentRead: true }),
    );
    return out.Item ? toRecord(out.Item as VerificationRecord & Record<string, unknown>) : null;
  }

  /**
   * Newest first; `invalid_cursor` for a cursor this list did not make. The date range narrows
   * the key condition (the sort key starts with the creation time); the other filters are
   * applied by DynamoDB after it (the reading loop still fills the page).
   */
  list(
    orgId: string,
    mode: Mode,
    limit: number,
    cursor?: string,
    filter: VerificationFilter = {},
  ): Promise<PageResult<VerificationRecord>> {
    return queryPage(
      this.table,
      {
        index: 'gsi1',
        partition: listPartition(orgId, mode),
        limit,
        cursor,
        sortKey: dateRange(filter),
        filter: listFilter(filter),
      },
      (item) => toRecord(item as VerificationRecord & Record<string, unknown>),
    );
  }

  /**
   * Records a reviewer's decision on a `review` verification, once: the condition refuses a
   * verification that is not in review or already decided, so of concurrent decisions exactly
   * one is written. `verdict` is left as it is; only `final_verdict` is set.
   */
  decideItem(
    id: string,
    orgId: string,
    finalVerdict: 'verified' | 'rejected',
  ): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return {
      Update: {
        TableName: this.table.name,
        Key: itemKey(id),
        UpdateExpression: 'SET #v.#fv = :fv',
        ConditionExpression:
          'attribute_exists(pk) AND org_id = :org AND #v.verdict = :review AND ' +
          '(attribute_not_exists(#v.#fv) OR attribute_type(#v.#fv, :nullType))',
        ExpressionAttributeNames: { '#v': 'verification', '#fv': 'final_verdict' },
        ExpressionAttributeValues: {
          ':fv': finalVerdict,
          ':org': orgId,
          ':review': 'review',
          ':nullType': 'NULL',
        },
      },
    };
  }

  /**
   * The review queue of one organisation and mode: verdict `review` and no decision yet,
   * oldest first (the ones waiting longest come first).
   */
  listAwaitingReview(
    orgId: string,
    mode: Mode,
    limit: number,
    cursor?: string,
  ): Promise<PageResult<VerificationRecord>> {
    return queryPage(
      this.table,
      {
        index: 'gsi1',
        partition: listPartition(orgId, mode),
        limit,
        cursor,
        newestFirst: false,
        filter: {
          expression:
            '#v.verdict = :review AND (attribute_not_exists(#v.#fv) OR attribute_type(#v.#fv, :nullType))',
          names: { '#v': 'verification', '#fv': 'final_verdict' },
          values: { ':review': 'review', ':nullType': 'NULL' },
        },
      },
      (item) => toRecord(item as VerificationRecord & Record<string, unknown>),
    );
  }

  /** Marks the images of a verification as purged (they were deleted from the bucket). */
  purgedImagesUpdate(id: string, at: Date): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return {
      Update: {
        TableName: this.table.name,
        Key: itemKey(id),
        UpdateExpression: 'SET images_purged_at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at.toISOString() },
      },
    };
  }
}

/**
 * The sort key (`<created_at>#<id>`) between the bounds: `<to>#…` sorts after `<to>`, so an item
 * created exactly at `to` is left out (the bound is exclusive, as documented).
 */
function dateRange(filter: VerificationFilter) {
  if (filter.from && filter.to)
    return { condition: 'BETWEEN :from AND :to', values: { ':from': filter.from, ':to': filter.to } };
  if (filter.from) return { condition: '>= :from', values: { ':from': filter.from } };
  if (filter.to) return { condition: '< :to', values: { ':to': filter.to } };
  return undefined;
}

function listFilter(filter: VerificationFilter) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.verdict) {
    parts.push('#v.verdict = :verdict');
    names['#v'] = 'verification';
    values[':verdict'] = filter.verdict;
  }
  if (filter.finalVerdict) {
    names['#v'] = 'verification';
    names['#fv'] = 'final_verdict';
    if (filter.finalVerdict === 'none') {
      parts.push('(attribute_not_exists(#v.#fv) OR attribute_type(#v.#fv, :nullType))');
      values[':nullType'] = 'NULL';
    } else {
      parts.push('#v.#fv = :fv');
      values[':fv'] = filter.finalVerdict;
    }
  }
  if (filter.reference) {
    parts.push('#ref = :ref');
    names['#ref'] = 'reference';
    values[':ref'] = filter.reference;
  }
  return parts.length > 0 ? { expression: parts.join(' AND '), names, values } : undefined;
}

function toRecord(item: VerificationRecord & Record<string, unknown>): VerificationRecord {
  return {
    verification: item.verification,
    org_id: item.org_id,
    app_id: item.app_id,
    mode: item.mode,
    images: item.images ?? {},
    images_purge_after: item.images_purge_after ?? null,
    images_purged_at: item.images_purged_at ?? null,
    cost: item.cost,
    session_id: item.session_id ?? null,
    billing_month: item.billing_month ?? null,
    reference: item.reference ?? null,
  };
}
