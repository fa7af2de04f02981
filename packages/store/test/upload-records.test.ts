import { newId } from '@idv/core';
import { createStore, purgeExpiredUploads, type Store, type UploadRecord } from '@idv/store';
import { beforeAll, describe, expect, inject, it } from 'vitest';

/** Upload records and the purge of unused uploads, against the real local stack. */
let store: Store;
beforeAll(() => {
  store = createStore(inject('storeConfig'));
});

// Hours in the past: the purge reads the whole table's due list, and must not reach the
// uploads other test files are using right now (created at the wall clock).
const t0 = new Date(Date.now() - 3 * 3600_000);
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

async function upload(org: string, kind: UploadRecord['kind'] = 'front'): Promise<UploadRecord> {
  const id = newId('upl');
  const record: UploadRecord = {
    id,
    org_id: org,
    mode: 'test',
    session_id: null,
    kind,
    content_type: 'image/jpeg',
    size: 3,
    key: `uploads/${org}/test/${id}/${kind}`,
    created_at: t0.toISOString(),
    put_expires_at: at(10).toISOString(),
    usable_until: at(60).toISOString(),
    used_at: null,
    verification_id: null,
  };
  await store.transact(store.uploadRecords.createItems([record]));
  await store.uploads.putDirect(record.key, new Uint8Array([1, 2, 3]), 'image/jpeg');
  return record;
}

describe('upload records', () => {
  it('claims all or none, once at a time, and a consumed upload cannot be claimed again', async () => {
    const org = newId('org');
    const a = await upload(org);
    const b = await upload(org, 'back');
    const first = await store.uploadRecords.claim([a.id, b.id], at(1));
    expect(first.state).toBe('claimed');
    expect((await store.uploadRecords.claim([b.id], at(1))).state).toBe('refused');
    if (first.state !== 'claimed') return;
    await store.uploadRecords.release([a.id, b.id], first.claimId);
    const second = await store.uploadRecords.claim([a.id], at(2));
    expect(second.state).toBe('claimed');
    if (second.state !== 'claimed') return;
    await store.transact([store.uploadRecords.consumeItem(a.id, second.claimId, 'vrf_x', at(2))]);
    expect(await store.uploadRecords.get(a.id)).toMatchObject({
      upload_state: 'used',
      verification_id: 'vrf_x',
    });
    expect((await store.uploadRecords.claim([a.id], at(3))).state).toBe('refused');
    // Past its hour nothing can claim it.
    expect((await store.uploadRecords.claim([b.id], at(61))).state).toBe('refused');
  });

  it('the purge deletes unused uploads past their hour, and leaves used and held ones', async () => {
    const org = newId('org');
    const unused = await upload(org);
    const held = await upload(org, 'back');
    const used = await upload(org, 'selfie');
    const claim = await store.uploadRecords.claim([held.id, used.id], at(59));
    if (claim.state !== 'claimed') throw new Error('not claimed');
    await store.transact([store.uploadRecords.consumeItem(used.id, claim.claimId, 'vrf_y', at(59))]);

    // Within the hour: nothing of these goes.
    await purgeExpiredUploads(store, at(30));
    expect(await store.uploads.head(unused.key)).not.toBeNull();

    // The held one's lease (120 s from minute 59) is still running at minute 60.5.
    await purgeExpiredUploads(store, at(60.5));
    expect(await store.uploads.head(unused.key)).toBeNull();
    expect(await store.uploadRecords.get(unused.id)).toMatchObject({ upload_state: 'purged' });
    expect(await store.uploads.head(held.key)).not.toBeNull();
    expect(await store.uploadRecords.get(used.id)).toMatchObject({ upload_state: 'used' });

    // Once the lease is over, the held one goes too.
    await purgeExpiredUploads(store, at(62));
    expect(await store.uploads.head(held.key)).toBeNull();
  });
});
