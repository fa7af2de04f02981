import { createStore, type Store, sessionStatus } from '@idv/store';
import { beforeAll, describe, expect, inject, it } from 'vitest';

/** Against DynamoDB Local, started once per run by test/global-setup.ts. */
let store: Store;
beforeAll(() => {
  store = createStore(inject('storeConfig'));
});

const t0 = new Date('2030-05-01T10:00:00.000Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

async function openSession(ttlSeconds = 900, documentType: 'passport' | 'cni' | null = null) {
  return store.sessions.create(
    {
      orgId: 'org_t',
      appId: 'app_t',
      mode: 'test',
      keyId: 'key_t',
      reference: 'file-42',
      documentType,
      ttlSeconds,
    },
    t0,
  );
}

describe('sessions repository', () => {
  it('keeps only a hash of the client token and finds the session by it', async () => {
    const { record, clientToken } = await openSession();
    expect(clientToken).toMatch(/^vn_ct_[A-Za-z0-9]{40}$/);
    expect(record.id).toMatch(/^ses_/);
    const raw = await store.clients.doc.send(
      new (await import('@aws-sdk/lib-dynamodb')).GetCommand({
        TableName: store.config.tableName,
        Key: { pk: `SES#${record.id}`, sk: 'SES' },
      }),
    );
    expect(JSON.stringify(raw.Item)).not.toContain(clientToken);
    expect(raw.Item?.token_hash).toMatch(/^[0-9a-f]{64}$/);

    expect((await store.sessions.findByClientToken(record.id, clientToken))?.reference).toBe('file-42');
    const other = await openSession();
    // A token opens its own session only.
    expect(await store.sessions.findByClientToken(other.record.id, clientToken)).toBeNull();
    // One character changed (to another one: a token may already end in the replacement).
    const altered = `${clientToken.slice(0, -1)}${clientToken.endsWith('x') ? 'y' : 'x'}`;
    expect(await store.sessions.findByClientToken(record.id, altered)).toBeNull();
    // Reads are scoped to the organisation and mode.
    expect(await store.sessions.get('org_t', 'live', record.id)).toBeNull();
    expect(await store.sessions.get('org_other', 'test', record.id)).toBeNull();
    expect((await store.sessions.get('org_t', 'test', record.id))?.id).toBe(record.id);
  });

  it('reads as open, then expired once the token lifetime is over', async () => {
    const { record } = await openSession(60);
    expect(sessionStatus(record, later(59))).toBe('open');
    expect(sessionStatus(record, later(60))).toBe('expired');
    expect(await store.sessions.claimUpload(record.id, later(61))).toEqual({ state: 'expired' });
  });

  it('lets exactly one of ten concurrent uploads claim the session, and completes it once', async () => {
    const { record } = await openSession();
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => store.sessions.claimUpload(record.id, later(5))),
    );
    const won = claims.filter((c) => c.state === 'claimed');
    expect(won).toHaveLength(1);
    expect(claims.filter((c) => c.state === 'in_progress')).toHaveLength(9);
    const claim = won[0] as { claimId: string };
    await store.transact([store.sessions.completeItem(record.id, claim.claimId, 'vrf_x', later(6))]);
    const done = await store.sessions.getById(record.id);
    expect(done && sessionStatus(done, later(7))).toBe('completed');
    expect(done?.verification_id).toBe('vrf_x');
    expect(await store.sessions.claimUpload(record.id, later(8))).toEqual({ state: 'completed' });
    // A second completion with the same claim is refused: the token is spent once.
    await expect(
      store.transact([store.sessions.completeItem(record.id, claim.claimId, 'vrf_y', later(9))]),
    ).rejects.toThrow();
  });

  it('is usable again after a released claim, and after a stale claim times out', async () => {
    const { record } = await openSession();
    const first = await store.sessions.claimUpload(record.id, later(1));
    expect(first.state).toBe('claimed');
    await store.sessions.releaseUpload(record.id, (first as { claimId: string }).claimId);
    const second = await store.sessions.claimUpload(record.id, later(2));
    expect(second.state).toBe('claimed');
    // The holder died: its claim lapses after the lease.
    expect((await store.sessions.claimUpload(record.id, later(3))).state).toBe('in_progress');
    expect((await store.sessions.claimUpload(record.id, later(200))).state).toBe('claimed');
    // The lapsed holder can no longer complete.
    await expect(
      store.transact([
        store.sessions.completeItem(record.id, (second as { claimId: string }).claimId, 'v', later(201)),
      ]),
    ).rejects.toThrow();
  });
});
