import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError } from '@idv/core';
import { decodeCursor, encodeCursor, epochSeconds, stripKeys, type Table } from '../table.ts';
import type { Mode } from './api-keys.ts';

/** Metadata of one API call. Never a body, an image or a read field. */
export interface RequestLogEntry {
  id: string;
  method: string;
  route: string;
  status: number;
  error_code: string | null;
  /** The key's id (never the key), or the session id for client-token calls. */
  key: string | null;
  mode: Mode;
  duration_ms: number;
  resource_id: string | null;
  created_at: string;
}

/** Spec: request logs are kept 90 days. */
export const REQUEST_LOG_RETENTION_DAYS = 90;

export interface RequestLogQuery {
  orgId: string;
  mode: Mode;
  limit: number;
  cursor?: Record<string, unknown>;
  status?: number;
  route?: string;
}

const partition = (orgId: string, mode: Mode) => `LOG#${orgId}#${mode}`;

export class RequestLogRepository {
  constructor(private readonly table: Table) {}

  async record(orgId: string, entry: RequestLogEntry): Promise<void> {
    const created = new Date(entry.created_at);
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: partition(orgId, entry.mode),
          sk: `${entry.created_at}#${entry.id}`,
          ...entry,
          expires_at: epochSeconds(created) + REQUEST_LOG_RETENTION_DAYS * 86_400,
        },
      }),
    );
  }

  /**
   * Newest first. Filters run server-side, and DynamoDB applies `Limit` before filtering, so
   * pages are read until `limit` matching entries are found or the partition ends.
   */
  async list(query: RequestLogQuery): Promise<{ data: RequestLogEntry[]; next_cursor: string | null }> {
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':pk': partition(query.orgId, query.mode) };
    if (query.status !== undefined) {
      filters.push('#status = :status');
      names['#status'] = 'status';
      values[':status'] = query.status;
    }
    if (query.route !== undefined) {
      filters.push('#route = :route');
      names['#route'] = 'route';
      values[':route'] = query.route;
    }
    // Expired items linger until DynamoDB's TTL sweep runs: hide them.
    filters.push('(attribute_not_exists(expires_at) OR expires_at > :now)');
    values[':now'] = epochSeconds(new Date());

    // A cursor is only valid within the caller's own partition; anything else is refused
    // rather than passed to DynamoDB (which would fail, or worse, read elsewhere).
    if (query.cursor && query.cursor.pk !== values[':pk']) {
      throw new ApiError('invalid_request', 'cursor: not a cursor returned by this endpoint');
    }
    const data: RequestLogEntry[] = [];
    let startKey = query.cursor;
    let lastKey: Record<string, unknown> | undefined;
    do {
      const out = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: filters.join(' AND '),
          ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: query.limit - data.length,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of out.Items ?? []) data.push(stripKeys<RequestLogEntry>(item));
      lastKey = out.LastEvaluatedKey;
      startKey = lastKey;
    } while (lastKey && data.length < query.limit);
    return { data, next_cursor: data.length === query.limit ? encodeCursor(lastKey) : null };
  }
}

export { decodeCursor };
