import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './table.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

/**
 * The one way the store lists things: a query of one partition (of the table or of `gsi1`),
 * newest first by default, read page by page until `limit` items are found or the partition
 * ends, with one cursor format and one cursor validation for every list.
 */

export type IndexName = keyof typeof TABLE_SCHEMA.indexes;

export interface PageQuery {
  /** Omitted: the table itself. */
  index?: IndexName;
  /** The partition key's value. */
  partition: string;
  /** An extra condition on the sort key, e.g. `< :before`, with its values. */
  sortKey?: { condition: string; values: Record<string, unknown> };
  /** Applied after the key condition; DynamoDB counts `Limit` before filtering, hence the loop. */
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /** At most this many items; omitted: the whole partition. */
  limit?: number;
  /** A cursor returned by an earlier page of the same query. */
  cursor?: string;
  /** Default true (sort keys start with the creation time). */
  newestFirst?: boolean;
}

export interface Page<T> {
  data: T[];
  /** Null when there is nothing after this page. */
  next_cursor: string | null;
}

/** A list's result: the page, or a cursor this list did not make (the API answers 400). */
export type PageResult<T> = { ok: true; page: Page<T> } | { ok: false; reason: 'invalid_cursor' };

/**
 * Reads one page. A cursor is checked before DynamoDB sees it: it must decode, hold exactly the
 * key attributes of the queried index, and belong to the queried partition; anything else is
 * `invalid_cursor` (never sent on, so it can neither fail inside DynamoDB nor read elsewhere).
 */
export async function queryPage<T>(
  table: Table,
  query: PageQuery,
  view: (item: Record<string, unknown>) => T,
): Promise<PageResult<T>> {
  let start: Record<string, unknown> | undefined;
  if (query.cursor !== undefined) {
    const decoded = decodeCursor(query.cursor);
    if (!decoded || !isKeyOf(decoded, query)) return { ok: false, reason: 'invalid_cursor' };
    start = decoded;
  }
  return { ok: true, page: await readPages(table, query, view, start) };
}

/** Every item of a query without a cursor (short lists, jobs): the same reading, no paging. */
export async function queryItems<T>(
  table: Table,
  query: Omit<PageQuery, 'cursor'>,
  view: (item: Record<string, unknown>) => T,
): Promise<T[]> {
  return (await readPages(table, query, view, undefined)).data;
}

async function readPages<T>(
  table: Table,
  query: Omit<PageQuery, 'cursor'>,
  view: (item: Record<string, unknown>) => T,
  start: Record<string, unknown> | undefined,
): Promise<Page<T>> {
  const keys = keyAttributes(query.index);
  const names: Record<string, string> = { '#pk': keys.partition, '#sk': keys.sort, ...query.filter?.names };
  const values: Record<string, unknown> = {
    ':pk': query.partition,
    ...query.sortKey?.values,
    ...query.filter?.values,
  };
  const keyCondition = query.sortKey ? `#pk = :pk AND #sk ${query.sortKey.condition}` : '#pk = :pk';
  // '#sk' is only declared when used: DynamoDB refuses unused expression attribute names.
  if (!query.sortKey) delete names['#sk'];
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  const data: T[] = [];
  let startKey = start;
  let lastKey: Record<string, unknown> | undefined;
  do {
    const out = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: query.index,
        KeyConditionExpression: keyCondition,
        FilterExpression: query.filter?.expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: !(query.newestFirst ?? true),
        Limit: Number.isFinite(limit) ? limit - data.length : undefined,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) data.push(view(item));
    lastKey = out.LastEvaluatedKey;
    startKey = lastKey;
  } while (lastKey && data.length < limit);
  return { data, next_cursor: lastKey && data.length >= limit ? encodeCursor(lastKey) : null };
}

function keyAttributes(index: IndexName | undefined): { partition: string; sort: string } {
  if (!index) return { partition: TABLE_SCHEMA.partitionKey, sort: TABLE_SCHEMA.sortKey };
  const { partitionKey, sortKey } = TABLE_SCHEMA.indexes[index];
  return { partition: partitionKey, sort: sortKey };
}

/** A LastEvaluatedKey of this query: the table's keys (plus the index's), strings, same partition. */
function isKeyOf(key: Record<string, unknown>, query: Pick<PageQuery, 'index' | 'partition'>): boolean {
  const expected: string[] = [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey];
  if (query.index) expected.push(...Object.values(keyAttributes(query.index)));
  const names = Object.keys(key);
  if (names.length !== expected.length || !expected.every((name) => typeof key[name] === 'string'))
    return false;
  return key[keyAttributes(query.index).partition] === query.partition;
}

/** The cursor format: the LastEvaluatedKey as base64url-encoded JSON, opaque to callers. */
export function encodeCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;
}

/** Decodes a cursor made by encodeCursor; null for anything else. */
export function decodeCursor(cursor: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
