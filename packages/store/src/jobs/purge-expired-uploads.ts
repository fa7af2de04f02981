import type { Store } from '../store.ts';

/**
 * Deletes direct uploads that no verification used before they stopped being usable: the
 * record is marked purged (unless a running verification still holds it), then the object is
 * deleted. On AWS the staging bucket's lifecycle rule removes any object a day old anyway;
 * this job is what removes them locally (`npm run purge`) and earlier on AWS (the daily purge).
 */
export async function purgeExpiredUploads(store: Store, now = new Date()): Promise<{ purged: number }> {
  let purged = 0;
  for (;;) {
    const due = await store.uploadRecords.expired(now);
    if (due.length === 0) return { purged };
    let taken = 0;
    for (const upload of due) {
      if (!(await store.uploadRecords.markPurged(upload.id, now))) continue;
      await store.uploads.deleteMany([upload.key]);
      taken++;
      purged++;
    }
    // Every remaining due entry is held by a running verification: the next run takes them.
    if (taken === 0) return { purged };
  }
}
