import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Table } from '../table.ts';

/** Entry plan: the first 50 live verifications of each calendar month are free. */
export const FREE_LIVE_VERIFICATIONS_PER_MONTH = 50;

/** The calendar month (UTC) a moment falls in, `YYYY-MM`. */
export function billingMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export interface MonthlyUsage {
  month: string;
  live_verifications: number;
  free: number;
  billable: number;
  cost_usd: number;
}

const itemKey = (orgId: string, month: string) => ({ pk: `USAGE#${orgId}`, sk: `MONTH#${month}` });

/** Live verifications counted per organisation per month; usage never blocks a verification. */
export class UsageRepository {
  constructor(private readonly table: Table) {}

  /** Counts one live verification, in the same transaction that saves it (never twice). */
  countItem(
    orgId: string,
    month: string,
    costUsd: number,
  ): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return {
      Update: {
        TableName: this.table.name,
        Key: itemKey(orgId, month),
        UpdateExpression: 'ADD live_verifications :one, cost_usd :cost',
        ExpressionAttributeValues: { ':one': 1, ':cost': costUsd },
      },
    };
  }

  async get(orgId: string, month: string): Promise<MonthlyUsage> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: itemKey(orgId, month), ConsistentRead: true }),
    );
    const count = Number(out.Item?.live_verifications ?? 0);
    return {
      month,
      live_verifications: count,
      free: Math.min(count, FREE_LIVE_VERIFICATIONS_PER_MONTH),
      billable: Math.max(0, count - FREE_LIVE_VERIFICATIONS_PER_MONTH),
      cost_usd: Number(out.Item?.cost_usd ?? 0),
    };
  }
}
