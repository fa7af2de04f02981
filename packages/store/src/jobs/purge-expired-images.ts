import type { Store } from '../store.ts';

/**
 * Deletes live images whose retention period has ended: the objects first, then the record
 * is marked purged and the schedule entry removed (one transaction). Safe to run again: an
 * interrupted run leaves the schedule entry, and deleting absent objects is a no-op.
 * Runs daily on AWS (functions/purge.ts) and on demand locally (`npm run purge`).
 */
export async function purgeExpiredImages(store: Store, now = new Date()): Promise<{ purged: number }> {
  let purged = 0;
  for (;;) {
    const due = await store.imagePurges.due(now);
    if (due.length === 0) return { purged };
    for (const entry of due) {
      await store.images.deleteMany(entry.keys);
      const record = await store.verifications.getById(entry.verification_id);
      const writes = [store.imagePurges.removeItem(entry.sk)];
      if (record) {
        writes.push(store.verifications.purgedImagesUpdate(entry.verification_id, now));
        writes.push(
          store.audit.recordItem(
            {
              org_id: record.org_id,
              action: 'images_purged',
              actor: 'system',
              resource_id: entry.verification_id,
              details: { keys: entry.keys.length },
            },
            now,
          ),
        );
      }
      await store.transact(writes);
      purged++;
    }
  }
}
