import { PutCommand, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { newId } from '@idv/core';
import { decodeCursor, encodeCursor, stripKeys, type Table } from '../table.ts';

/** One entry of the audit journal (kept without time limit: no TTL). */
export interface AuditEntry {
  id: string;
  org_id: string;
  action: string;
  /** Who: a key id, a console user id, or `system`. */
  actor: string;
  resource_id: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

const partition = (orgId: string) => `AUDIT#${orgId}`;

export class AuditRepository {
  constructor(private readonly table: Table) {}

  private item(entry: Omit<AuditEntry, 'id' | 'created_at'>, now: Date) {
    const full: AuditEntry = { ...entry, id: newId('aud'), created_at: now.toISOString() };
    return { pk: partition(entry.org_id), sk: `${full.created_at}#${full.id}`, ...full };
  }

  async record(entry: Omit<AuditEntry, 'id' | 'created_at'>, now = new Date()): Promise<void> {
    await this.table.doc.send(new PutCommand({ TableName: this.table.name, Item: this.item(entry, now) }));
  }

  /** The same entry as a transaction write, when it must be atomic with the change it records. */
  recordItem(
    entry: Omit<AuditEntry, 'id' | 'created_at'>,
    now = new Date(),
  ): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return { Put: { TableName: this.table.name, Item: this.item(entry, now) } };
  }

  async list(orgId: string, limit: number, cursor?: string) {
    const start = cursor === undefined ? undefined : decodeCursor(cursor);
    if (start === null || (start && start.pk !== partition(orgId))) throw new Error('invalid cursor');
    const out = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(orgId) },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    return {
      data: (out.Items ?? []).map((i) => stripKeys<AuditEntry>(i)),
      next_cursor: encodeCursor(out.LastEvaluatedKey),
    };
  }
}
