import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

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

/**
 * Removes a claim (`upload_claim`, `claim_until`) from an item if `claimId` still holds it:
 * a claim taken over or already spent since is left alone. Sessions and staged uploads both
 * claim before analysing and give the claim back when nothing was analysed.
 */
export async function releaseClaim(
  table: Table,
  key: Record<string, string>,
  claimId: string,
): Promise<void> {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: key,
        UpdateExpression: 'REMOVE upload_claim, claim_until',
        ConditionExpression: 'upload_claim = :claim',
        ExpressionAttributeValues: { ':claim': claimId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
