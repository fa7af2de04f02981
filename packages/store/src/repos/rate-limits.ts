import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, type Table } from '../table.ts';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends (epoch seconds). */
  resetAt: number;
}

/**
 * Fixed-window counters kept in DynamoDB, so a limit holds across every Lambda instance
 * (an in-memory counter would give each instance its own allowance). One atomic ADD per
 * request; the window's item expires by TTL shortly after the window ends.
 */
export class RateLimitRepository {
  constructor(private readonly table: Table) {}

  async hit(scope: string, limit: number, windowSeconds: number, now = new Date()): Promise<RateLimitResult> {
    const nowSeconds = epochSeconds(now);
    const windowStart = nowSeconds - (nowSeconds % windowSeconds);
    const resetAt = windowStart + windowSeconds;
    const out = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: { pk: `RL#${scope}#${windowStart}`, sk: 'RL' },
        UpdateExpression: 'ADD hits :one SET expires_at = if_not_exists(expires_at, :expires)',
        ExpressionAttributeValues: { ':one': 1, ':expires': resetAt + 60 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const hits = Number(out.Attributes?.hits ?? 1);
    return { allowed: hits <= limit, limit, remaining: Math.max(0, limit - hits), resetAt };
  }

  /** The hits counted so far in the current window, without counting one more. */
  async peek(scope: string, windowSeconds: number, now = new Date()): Promise<number> {
    const nowSeconds = epochSeconds(now);
    const windowStart = nowSeconds - (nowSeconds % windowSeconds);
    const out = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: { pk: `RL#${scope}#${windowStart}`, sk: 'RL' },
        ConsistentRead: true,
      }),
    );
    return Number(out.Item?.hits ?? 0);
  }
}
