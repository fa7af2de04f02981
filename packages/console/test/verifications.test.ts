import { randomBytes } from 'node:crypto';
import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { auditEntries, sampleVerification } from '../../api/test/support.ts';
import {
  consoleApp,
  createTeam,
  seedVerification,
  signedIn,
  type TestOrganisation,
  testStore,
} from './support.ts';

/**
 * The image link is public and limited per IP; `app.request` calls carry no address, so they
 * share one counter with every other test that does the same in this run (the fuzz suite
 * fetches image links by the hundred). These tests are about permissions, not the limit.
 */
const NO_IP_LIMIT = {
  perKeyPerMinute: 1_000_000,
  perIpPerMinute: 1_000_000,
  sessionUploadsPerMinute: 1_000_000,
  sessionHelpersPerMinute: 1_000_000,
};

const ROLES: Role[] = ['owner', 'admin', 'reviewer', 'developer'];
const rowIds = (html: string) =>
  [...html.matchAll(/data-testid="verification-row" data-id="([^"]+)"/g)].map((m) => m[1]);

/** A verification written straight to the store with the fields the list filters on. */
async function seed(
  org: TestOrganisation,
  options: {
    mode?: 'test' | 'live';
    verdict?: 'verified' | 'review' | 'rejected';
    finalVerdict?: 'verified' | 'rejected' | null;
    createdAt?: string;
    reference?: string | null;
  } = {},
) {
  const store = testStore();
  const mode = options.mode ?? 'test';
  const verdict = options.verdict ?? 'review';
  const verification = sampleVerification({
    mode,
    verdict,
    status: verdict.toUpperCase() as 'REVIEW',
    final_verdict: options.finalVerdict ?? null,
    created_at: options.createdAt ?? new Date().toISOString(),
  });
  await store.transact([
    store.verifications.putItem({
      verification,
      org_id: org.orgId,
      app_id: org.appId,
      mode,
      images: {},
      images_purge_after: null,
      images_purged_at: null,
      cost: { analyzer_ms: 1200, compute_usd: 0.0000481, storage_usd: 0.00001, total_usd: 0.0000581 },
      session_id: null,
      billing_month: null,
      reference: options.reference ?? null,
    }),
  ]);
  return verification;
}

describe('the verifications list', () => {
  it('filters by verdict, final verdict, date range and reference, in the chosen mode', async () => {
    const team = await createTeam();
    const { org } = team;
    const verified = await seed(org, { verdict: 'verified', createdAt: '2026-03-02T10:00:00.000Z' });
    const approved = await seed(org, {
      verdict: 'review',
      finalVerdict: 'verified',
      createdAt: '2026-03-05T10:00:00.000Z',
      reference: 'dossier-42',
    });
    const waiting = await seed(org, { verdict: 'review', createdAt: '2026-03-09T23:59:59.000Z' });
    const rejected = await seed(org, { verdict: 'rejected', createdAt: '2026-04-01T00:00:00.000Z' });
    const live = await seed(org, { mode: 'live', verdict: 'verified' });
    const browser = await signedIn(consoleApp(), team, 'developer');
    const list = async (query: string) => {
      const res = await browser.get(`/console/verifications?${query}`);
      expect(res.status).toBe(200);
      return rowIds(await res.text());
    };

    expect(await list('mode=test')).toEqual([rejected.id, waiting.id, approved.id, verified.id]);
    expect(await list('mode=live')).toEqual([live.id]);
    expect(await list('mode=test&verdict=review')).toEqual([waiting.id, approved.id]);
    expect(await list('mode=test&final_verdict=verified')).toEqual([approved.id]);
    expect(await list('mode=test&verdict=review&final_verdict=none')).toEqual([waiting.id]);
    // Whole UTC days, both ends included.
    expect(await list('mode=test&from=2026-03-05&to=2026-03-09')).toEqual([waiting.id, approved.id]);
    expect(await list('mode=test&to=2026-03-04')).toEqual([verified.id]);
    expect(await list('mode=test&reference=dossier-42')).toEqual([approved.id]);
    expect(await list('mode=test&reference=other')).toEqual([]);
  });

  it('pages with the store cursor, keeping the filters', async () => {
    const team = await createTeam();
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      const day = String(1 + i).padStart(2, '0');
      ids.unshift((await seed(team.org, { createdAt: `2026-01-${day}T12:00:00.000Z` })).id);
    }
    await seed(team.org, { verdict: 'verified', createdAt: '2026-01-15T13:00:00.000Z' });
    const browser = await signedIn(consoleApp(), team, 'reviewer');
    const first = await (await browser.get('/console/verifications?mode=test&verdict=review')).text();
    expect(rowIds(first)).toEqual(ids.slice(0, 25));
    const next =
      /data-testid="next-page" rel="next" href="([^"]+)"|href="([^"]+)" data-testid="next-page"/.exec(first);
    const href = (next?.[1] ?? next?.[2] ?? '').replaceAll('&amp;', '&');
    expect(href).toContain('verdict=review');
    const second = await (await browser.get(href)).text();
    expect(rowIds(second)).toEqual(ids.slice(25));
    expect(second).not.toContain('data-testid="next-page"');
  });

  it('answers 400 to a filter the form does not offer or a cursor it did not make', async () => {
    const team = await createTeam();
    const browser = await signedIn(consoleApp(), team, 'owner');
    for (const query of ['verdict=maybe', 'mode=prod', 'from=2026-02-30', 'from=2026-03-02&to=2026-03-01']) {
      expect((await browser.get(`/console/verifications?${query}`)).status, query).toBe(400);
    }
    const forged = Buffer.from(JSON.stringify({ pk: 'x' })).toString('base64url');
    expect((await browser.get(`/console/verifications?mode=test&cursor=${forged}`)).status).toBe(400);
  });

  it('shows only the organisation own verifications', async () => {
    const team = await createTeam();
    const other = await createTeam();
    const theirs = await seed(other.org);
    const browser = await signedIn(consoleApp(), team, 'owner');
    expect(rowIds(await (await browser.get('/console/verifications?mode=test')).text())).not.toContain(
      theirs.id,
    );
    expect((await browser.get(`/console/verifications/${theirs.id}`)).status).toBe(404);
  });
});

describe('the verification detail', () => {
  it('shows checks with explanations, fields, similarity, timings, cost and the decision', async () => {
    const team = await createTeam();
    const v = await seed(team.org, { reference: 'case-7' });
    const app = consoleApp();
    const reviewer = await signedIn(app, team, 'reviewer');
    await reviewer.get('/console/reviews');
    const decided = await reviewer.post(`/console/reviews/${v.id}/decision`, {
      decision: 'reject',
      note: 'photocopie évidente',
      csrf: reviewer.csrf(),
    });
    expect(decided.status).toBe(303);

    const res = await reviewer.get(`/console/verifications/${v.id}?lang=fr`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const check of v.checks) expect(html).toContain(`data-check="${check.name}"`);
    expect(html).toContain(v.checks[0]?.explanation.fr ?? 'missing');
    expect(html).toContain('A1234567'); // the MRZ read
    expect(html).toContain('ocr_ms');
    expect(html).toContain('case-7');
    expect(html).toMatch(/data-testid="verification-cost">0,0000581/);
    expect(html).toMatch(/data-testid="verification-final-verdict">rejected</);
    expect(html).toContain('data-testid="verification-decision"');
    expect(html).toContain(team.emails.reviewer);
    expect(html).toContain('photocopie évidente');
    expect(html).toContain('pas de selfie envoyé');
  });
});

describe('the photos of a live verification', () => {
  const image = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5]);

  for (const role of ROLES) {
    const allowed = role !== 'developer';
    it(`see photos: ${role} ${allowed ? 'allowed, through an audited short-lived URL' : 'refused with 403'}`, async () => {
      const team = await createTeam();
      const v = await seedVerification(team.org, 'live', { front: image, selfie: image });
      const app = consoleApp({ urlSigningKey: randomBytes(32), limits: NO_IP_LIMIT });
      const browser = await signedIn(app, team, role);
      const page = await (await browser.get(`/console/verifications/${v.id}`)).text();
      expect(page.includes('data-testid="verification-image"')).toBe(allowed);

      const res = await browser.get(`/console/verifications/${v.id}/images/front`);
      expect(res.status).toBe(allowed ? 303 : 403);
      if (!allowed) {
        expect((await auditEntries(team.org.orgId)).map((e) => e.action)).not.toContain('image_url_issued');
        return;
      }
      const url = new URL(res.headers.get('location') ?? '');
      expect(url.pathname).toMatch(/^\/v1\/image-content\//);
      const served = await app.request(url.pathname);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(image);

      const user = await testStore().users.getByEmail(team.emails[role]);
      const entries = await auditEntries(team.org.orgId);
      for (const action of ['image_url_issued', 'image_viewed']) {
        expect(entries.find((e) => e.action === action)).toMatchObject({
          actor: user?.id,
          resource_id: v.id,
        });
      }
    });
  }

  it('test mode keeps no photo; purged photos are gone (410)', async () => {
    const team = await createTeam();
    const app = consoleApp({ urlSigningKey: randomBytes(32), limits: NO_IP_LIMIT });
    const browser = await signedIn(app, team, 'owner');
    const test = await seedVerification(team.org, 'test');
    expect(await (await browser.get(`/console/verifications/${test.id}`)).text()).toContain(
      'Test mode keeps no image.',
    );
    expect((await browser.get(`/console/verifications/${test.id}/images/front`)).status).toBe(404);
    const purged = await seedVerification(team.org, 'live', { front: image }, { purged: true });
    expect((await browser.get(`/console/verifications/${purged.id}/images/front`)).status).toBe(410);
  });
});
