import type { EventPublisher } from '@idv/api';
import { decideReview, REVIEW_NOTE_MAX } from '@idv/api';
import { webhookEventPublisher } from '@idv/webhooks';
import { describe, expect, it } from 'vitest';
import {
  auditEntries,
  bearer,
  createTestOrganisation,
  sampleVerification,
  seedVerification,
  testApp,
  testStore,
} from '../support.ts';

/** The real publisher (events table + queue), remembering the ids of the events it wrote. */
function recordingPublisher() {
  const real = webhookEventPublisher(testStore());
  const eventIds: string[] = [];
  const publisher: EventPublisher = {
    async publishVerificationCompleted(input) {
      const out = await real.publishVerificationCompleted(input);
      eventIds.push(out.eventId);
      return out;
    },
  };
  return { publisher, eventIds };
}

function appDeps(events?: EventPublisher) {
  return { store: testStore(), baseUrl: 'http://localhost:8787', events };
}

async function expectRefused(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toMatchObject({ name: 'ApiError', code });
}

describe('decideReview', () => {
  it('approves once: final_verdict set, verdict kept, audit entry, second event, shown by GET', async () => {
    const org = await createTestOrganisation();
    const v = await seedVerification(org, 'test');
    const { publisher, eventIds } = recordingPublisher();

    const decided = await decideReview(appDeps(publisher), {
      orgId: org.orgId,
      verificationId: v.id,
      decision: 'approve',
      note: 'photo checked by hand',
      actor: 'usr_reviewer1',
    });
    expect(decided.final_verdict).toBe('verified');
    expect(decided.verdict).toBe('review');

    const stored = await testStore().verifications.getById(v.id);
    expect(stored?.verification.final_verdict).toBe('verified');
    expect(stored?.verification.verdict).toBe('review');

    const [entry] = await auditEntries(org.orgId);
    expect(entry).toMatchObject({
      action: 'verification.reviewed',
      actor: 'usr_reviewer1',
      resource_id: v.id,
      details: { old_verdict: 'review', new_final_verdict: 'verified', note: 'photo checked by hand' },
    });

    expect(eventIds).toHaveLength(1);
    const event = await testStore().events.get(eventIds[0] ?? '');
    const body = JSON.parse(event?.body ?? '{}');
    expect(body.type).toBe('verification.completed');
    expect(body.data).toMatchObject({ id: v.id, verdict: 'review', final_verdict: 'verified', mode: 'test' });

    const res = await testApp().request(`/v1/verifications/${v.id}`, bearer(org.testKey));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: v.id, verdict: 'review', final_verdict: 'verified' });
  });

  it('rejects: final_verdict rejected; a second decision is refused with conflict', async () => {
    const org = await createTestOrganisation();
    const v = await seedVerification(org, 'live');
    const deps = appDeps();
    const input = { orgId: org.orgId, verificationId: v.id, actor: 'usr_a' };
    const decided = await decideReview(deps, { ...input, decision: 'reject' });
    expect(decided.final_verdict).toBe('rejected');
    await expectRefused(decideReview(deps, { ...input, decision: 'approve' }), 'conflict');
    const stored = await testStore().verifications.getById(v.id);
    expect(stored?.verification.final_verdict).toBe('rejected');
  });

  it('ten concurrent decisions: exactly one is kept, nine get conflict, one audit entry, one event', async () => {
    const org = await createTestOrganisation();
    const v = await seedVerification(org, 'test');
    const { publisher, eventIds } = recordingPublisher();
    const deps = appDeps(publisher);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        decideReview(deps, {
          orgId: org.orgId,
          verificationId: v.id,
          decision: i % 2 ? 'approve' : 'reject',
          actor: `usr_${i}`,
        }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    for (const r of lost) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
    const entries = (await auditEntries(org.orgId)).filter((e) => e.action === 'verification.reviewed');
    expect(entries).toHaveLength(1);
    expect(eventIds).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ final_verdict: string | null }>).value;
    const stored = await testStore().verifications.getById(v.id);
    expect(stored?.verification.final_verdict).toBe(winner.final_verdict);
  });

  it('refuses a verification that is not in review, of another organisation, or unknown', async () => {
    const org = await createTestOrganisation();
    const other = await createTestOrganisation();
    const deps = appDeps();
    const verified = sampleVerification({ verdict: 'verified', status: 'VERIFIED', score: 0.95 });
    await testStore().transact([
      testStore().verifications.putItem({
        verification: verified,
        org_id: org.orgId,
        app_id: org.appId,
        mode: 'test',
        images: {},
        images_purge_after: null,
        images_purged_at: null,
        cost: { analyzer_ms: 0, compute_usd: 0, storage_usd: 0, total_usd: 0 },
        session_id: null,
        billing_month: null,
      }),
    ]);
    const base = { decision: 'approve' as const, actor: 'usr_a' };
    await expectRefused(
      decideReview(deps, { ...base, orgId: org.orgId, verificationId: verified.id }),
      'conflict',
    );
    const theirs = await seedVerification(other, 'test');
    await expectRefused(
      decideReview(deps, { ...base, orgId: org.orgId, verificationId: theirs.id }),
      'not_found',
    );
    await expectRefused(
      decideReview(deps, { ...base, orgId: org.orgId, verificationId: 'vrf_none' }),
      'not_found',
    );
    const stillOpen = await testStore().verifications.getById(theirs.id);
    expect(stillOpen?.verification.final_verdict).toBeNull();
  });

  it('accepts a note of 2000 characters and refuses one of 2001', async () => {
    const org = await createTestOrganisation();
    const v = await seedVerification(org, 'test');
    const deps = appDeps();
    const base = { orgId: org.orgId, verificationId: v.id, decision: 'approve' as const, actor: 'usr_a' };
    await expectRefused(
      decideReview(deps, { ...base, note: 'x'.repeat(REVIEW_NOTE_MAX + 1) }),
      'invalid_request',
    );
    const ok = await decideReview(deps, { ...base, note: 'x'.repeat(REVIEW_NOTE_MAX) });
    expect(ok.final_verdict).toBe('verified');
  });
});
