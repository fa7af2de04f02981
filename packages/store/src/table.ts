import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The document client bound to the one table, handed to every repository. */
export interface Table {
  doc: DynamoDBDocumentClient;
  name: string;
}

/** Epoch seconds, the unit of DynamoDB's TTL attribute. */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** Drops the table's key attributes from an item before it leaves the store. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, expires_at: _ttl, ...rest } = item;
  return rest as T;
}

/** True when an error is DynamoDB's failed-condition error (plain or inside a transaction). */
export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'ConditionalCheckFailedException') return true;
  if (name === 'TransactionCanceledException') {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === 'ConditionalCheckFailed');
  }
  return false;
}
