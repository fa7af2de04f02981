import { DeleteCommand, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
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

  async due(now: Date, limit = 100): Promise<(PurgeDue & { sk: string })[]> {
    const out = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND sk < :now',
        ExpressionAttributeValues: { ':pk': PARTITION, ':now': now.toISOString() },
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map((i) => ({
      sk: i.sk as string,
      verification_id: i.verification_id,
      keys: i.keys,
      due_at: i.due_at,
    }));
  }

  removeItem(sk: string): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return { Delete: { TableName: this.table.name, Key: { pk: PARTITION, sk } } };
  }

  async remove(sk: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: { pk: PARTITION, sk } }));
  }
}
