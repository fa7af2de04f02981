import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type PageResult, queryPage } from '../pagination.ts';
import { epochSeconds, stripKeys, type Table } from '../table.ts';
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
  cursor?: string;
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
   * Newest first, filtered server-side (status, route; expired entries that DynamoDB's TTL sweep
   * has not removed yet are hidden). `invalid_cursor` for a cursor this list did not make.
   */
  list(query: RequestLogQuery): Promise<PageResult<RequestLogEntry>> {
    const filters = ['(attribute_not_exists(expires_at) OR expires_at > :now)'];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':now': epochSeconds(new Date()) };
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
    return queryPage(
      this.table,
      {
        partition: partition(query.orgId, query.mode),
        filter: { expression: filters.join(' AND '), names, values },
        limit: query.limit,
        cursor: query.cursor,
      },
      (item) => stripKeys<RequestLogEntry>(item),
    );
  }
}
