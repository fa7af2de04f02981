import { PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { newId } from '@idv/core';
import { type PageResult, queryItems, queryPage } from '../pagination.ts';
import { stripKeys, type Table } from '../table.ts';

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

  /**
   * The entries of one action on one resource, newest first. `since` (the resource's creation
   * time) bounds the read to the journal written after it; the rest is filtered by DynamoDB.
   */
  findForResource(orgId: string, resourceId: string, action: string, since: string): Promise<AuditEntry[]> {
    return queryItems(
      this.table,
      {
        partition: partition(orgId),
        sortKey: { condition: '>= :since', values: { ':since': since } },
        filter: {
          expression: 'resource_id = :rid AND #action = :action',
          names: { '#action': 'action' },
          values: { ':rid': resourceId, ':action': action },
        },
      },
      (i) => stripKeys<AuditEntry>(i),
    );
  }

  /** Newest first; `invalid_cursor` for a cursor this list did not make. */
  list(orgId: string, limit: number, cursor?: string): Promise<PageResult<AuditEntry>> {
    return queryPage(this.table, { partition: partition(orgId), limit, cursor }, (i) =>
      stripKeys<AuditEntry>(i),
    );
  }
}
