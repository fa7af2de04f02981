import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '@idv/store';

/**
 * Everything one organisation has in the table and the bucket, as a set of keys: compared
 * before and after refused requests to prove that nothing was half-written. Request-log
 * entries and rate-limit windows are left out: every call writes them, refused or not.
 */
export interface OrgSnapshot {
  items: Set<string>;
  objects: Set<string>;
}

const CALL_BOOKKEEPING = ['LOG#', 'RL#'];

export async function snapshotOrg(store: Store, orgId: string): Promise<OrgSnapshot> {
  const items = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.clients.doc.send(
      new ScanCommand({
        TableName: store.config.tableName,
        FilterExpression: 'contains(pk, :org) OR org_id = :org OR contains(gsi1pk, :org)',
        ExpressionAttributeValues: { ':org': orgId },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const pk = String(item.pk);
      if (CALL_BOOKKEEPING.some((prefix) => pk.startsWith(prefix))) continue;
      items.add(`${pk} ${String(item.sk)}`);
    }
    start = page.LastEvaluatedKey;
  } while (start);

  const objects = new Set<string>();
  let token: string | undefined;
  do {
    const page = await store.clients.s3.send(
      new ListObjectsV2Command({
        Bucket: store.config.bucketName,
        Prefix: `images/${orgId}/`,
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) objects.add(object.Key ?? '');
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return { items, objects };
}

/** What `after` holds that `before` did not (and what it lost), item keys and object keys. */
export function snapshotDiff(before: OrgSnapshot, after: OrgSnapshot) {
  return {
    addedItems: [...after.items].filter((k) => !before.items.has(k)),
    removedItems: [...before.items].filter((k) => !after.items.has(k)),
    addedObjects: [...after.objects].filter((k) => !before.objects.has(k)),
    removedObjects: [...before.objects].filter((k) => !after.objects.has(k)),
  };
}
