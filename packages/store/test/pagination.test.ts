import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { encodeCursor, type PageResult, queryItems, queryPage } from '../src/pagination.ts';
import { freshPartition, putItems, testTable } from './support.ts';

const numberOf = (item: Record<string, unknown>) => item.n as number;

function pageOf<T>(result: PageResult<T>) {
  if (!result.ok) throw new Error(`expected a page, got ${result.reason}`);
  return result.page;
}

describe('queryPage (DynamoDB Local)', () => {
  it('walks a partition newest first in pages of `limit`, the cursor leading to the next page', async () => {
    const partition = freshPartition('pages');
    await putItems(partition, 7);
    const seen: number[][] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = pageOf(await queryPage(testTable(), { partition, limit: 3, cursor }, numberOf));
      seen.push(page.data);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen).toEqual([[6, 5, 4], [3, 2, 1], [0]]);
  });

  it('after an exactly full last page, the cursor (DynamoDB cannot know it is the end) gives an empty page', async () => {
    const partition = freshPartition('exact');
    await putItems(partition, 4);
    let page = pageOf(await queryPage(testTable(), { partition, limit: 2 }, numberOf));
    page = pageOf(
      await queryPage(testTable(), { partition, limit: 2, cursor: page.next_cursor ?? '' }, numberOf),
    );
    expect(page.data).toEqual([1, 0]);
    expect(page.next_cursor).not.toBeNull();
    const end = pageOf(
      await queryPage(testTable(), { partition, limit: 2, cursor: page.next_cursor ?? '' }, numberOf),
    );
    expect(end).toEqual({ data: [], next_cursor: null });
  });

  it('fills a filtered page by reading on (DynamoDB counts the limit before filtering)', async () => {
    const partition = freshPartition('filter');
    await putItems(partition, 10, (n) => ({ even: n % 2 === 0 }));
    const query = {
      partition,
      limit: 3,
      filter: { expression: '#even = :yes', names: { '#even': 'even' }, values: { ':yes': true } },
    };
    const first = pageOf(await queryPage(testTable(), query, numberOf));
    expect(first.data).toEqual([8, 6, 4]);
    const second = pageOf(
      await queryPage(testTable(), { ...query, cursor: first.next_cursor ?? undefined }, numberOf),
    );
    expect(second.data).toEqual([2, 0]);
    expect(second.next_cursor).toBeNull();
  });

  it('reads oldest first with a sort-key condition, and everything without a limit', async () => {
    const partition = freshPartition('range');
    await putItems(partition, 5);
    const before = new Date(Date.UTC(2026, 0, 1, 0, 0, 3)).toISOString();
    const due = await queryItems(
      testTable(),
      { partition, newestFirst: false, sortKey: { condition: '< :before', values: { ':before': before } } },
      numberOf,
    );
    expect(due).toEqual([0, 1, 2]);
    expect(await queryItems(testTable(), { partition }, numberOf)).toEqual([4, 3, 2, 1, 0]);
  });

  it('answers invalid_cursor, without querying, for garbled, forged and foreign cursors', async () => {
    const partition = freshPartition('mine');
    const other = freshPartition('theirs');
    await putItems(partition, 3);
    await putItems(other, 3);
    const theirs = pageOf(await queryPage(testTable(), { partition: other, limit: 1 }, numberOf)).next_cursor;
    const forged = [
      'not base64 json!',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('"pk"').toString('base64url'),
      encodeCursor({ pk: partition }),
      encodeCursor({ pk: partition, sk: 5 }),
      encodeCursor({ pk: partition, sk: 'x', extra: 'y' }),
      encodeCursor({ pk: partition, sk: 'x', gsi1pk: partition, gsi1sk: 'x' }),
      theirs,
    ];
    for (const cursor of forged) {
      expect(await queryPage(testTable(), { partition, limit: 2, cursor: cursor ?? '' }, numberOf)).toEqual({
        ok: false,
        reason: 'invalid_cursor',
      });
    }
  });

  it('on an index, wants the index keys and the table keys in the cursor', async () => {
    const partition = freshPartition('index');
    const table = testTable();
    for (let n = 0; n < 3; n++) {
      await table.doc.send(
        new PutCommand({
          TableName: table.name,
          Item: {
            pk: `${partition}#${n}`,
            sk: 'ITEM',
            gsi1pk: partition,
            gsi1sk: `2026-01-0${n + 1}#${n}`,
            n,
          },
        }),
      );
    }
    const first = pageOf(await queryPage(table, { index: 'gsi1', partition, limit: 2 }, numberOf));
    expect(first.data).toEqual([2, 1]);
    const next = pageOf(
      await queryPage(
        table,
        { index: 'gsi1', partition, limit: 2, cursor: first.next_cursor ?? '' },
        numberOf,
      ),
    );
    expect(next).toEqual({ data: [0], next_cursor: null });
    const tableOnly = encodeCursor({ pk: `${partition}#1`, sk: 'ITEM' }) ?? '';
    expect((await queryPage(table, { index: 'gsi1', partition, cursor: tableOnly }, numberOf)).ok).toBe(
      false,
    );
  });
});
