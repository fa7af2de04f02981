import { DeleteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { queryItems } from '../pagination.ts';
import type { Table } from '../table.ts';

/**
 * The schedule of live images to delete: one item per verification with stored images,
 * sorted by due time, so the purge job reads only what is due. One partition is enough at
 * this scale (a few writes per verification); shard by month if it ever runs hot.
 */
const PARTITION = 'PURGE';

export interface PurgeDue {
  verification_id: string;
  keys: string[];
  due_at: string;
}

export class ImagePurgeRepository {
  constructor(private readonly table: Table) {}

  scheduleItem(
    verificationId: string,
    keys: string[],
    dueAt: Date,
  ): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return {
      Put: {
        TableName: this.table.name,
        Item: {
          pk: PARTITION,
          sk: `${dueAt.toISOString()}#${verificationId}`,
          verification_id: verificationId,
          keys,
          due_at: dueAt.toISOString(),
        },
      },
    };
  }

  due(now: Date, limit = 100): Promise<(PurgeDue & { sk: string })[]> {
    const query = {
      partition: PARTITION,
      sortKey: { condition: '< :now', values: { ':now': now.toISOString() } },
      newestFirst: false,
      limit,
    };
    return queryItems(this.table, query, (i) => ({
      sk: i.sk as string,
      verification_id: i.verification_id as string,
      keys: i.keys as string[],
      due_at: i.due_at as string,
    }));
  }

  removeItem(sk: string): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return { Delete: { TableName: this.table.name, Key: { pk: PARTITION, sk } } };
  }

  async remove(sk: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: { pk: PARTITION, sk } }));
  }
}
