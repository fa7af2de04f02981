import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createStore, type Store } from '../src/store.ts';
import type { Table } from '../src/table.ts';

/**
 * The store over the real DynamoDB Local started by test/global-setup.ts (the integration
 * project). Every test writes under partitions of its own, so files never see each other's data.
 */
let store: Store | undefined;

export function testStore(): Store {
  store ??= createStore(inject('storeConfig'));
  return store;
}

export function testTable(): Table {
  const s = testStore();
  return { doc: s.clients.doc, name: s.config.tableName };
}

/** A partition no other test uses. */
export function freshPartition(label: string): string {
  return `TEST#${label}#${randomUUID()}`;
}

/** Writes `count` items into a partition, oldest first (sort keys in time order, like the repositories'). */
export async function putItems(
  partition: string,
  count: number,
  extra: (n: number) => Record<string, unknown> = () => ({}),
): Promise<void> {
  const table = testTable();
  for (let n = 0; n < count; n++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
    await table.doc.send(
      new PutCommand({ TableName: table.name, Item: { pk: partition, sk: `${at}#${n}`, n, ...extra(n) } }),
    );
  }
}
