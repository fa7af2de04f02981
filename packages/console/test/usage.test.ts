import { billingMonth, type Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { sampleVerification } from '../../api/test/support.ts';
import { toCsv } from '../src/services/csv.ts';
import { consoleApp, createTeam, signedIn, type TestOrganisation, testStore } from './support.ts';

/** An RFC 4180 reader, written apart from the console's writer so that one checks the other. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  expect(quoted).toBe(false);
  expect(field).toBe('');
  return rows;
}

/** A live verification counted in the month's usage, as POST /v1/verify writes it. */
async function seedLive(org: TestOrganisation, createdAt: Date, reference: string | null, costUsd: number) {
  const store = testStore();
  const verification = sampleVerification({ mode: 'live', created_at: createdAt.toISOString() });
  const month = billingMonth(createdAt);
  await store.transact([
    store.verifications.putItem({
      verification,
      org_id: org.orgId,
      app_id: org.appId,
      mode: 'live',
      images: {},
      images_purge_after: null,
      images_purged_at: null,
      cost: { analyzer_ms: 1000, compute_usd: costUsd, storage_usd: 0, total_usd: costUsd },
      session_id: null,
      billing_month: month,
      reference,
    }),
    store.usage.countItem(org.orgId, month, costUsd),
  ]);
  return verification;
}

describe('the usage page and its CSV export', () => {
  it('counts a month: free left of the 50, billable, cost; the CSV parses back', async () => {
    const team = await createTeam();
    // A fixed past month: the counts cannot straddle a month's end while the test runs.
    const now = Date.parse('2026-02-14T12:00:00.000Z');
    const tricky = ['dossier "A", lot 3', 'ligne 1\nligne 2', '=HYPERLINK("x")', ' padded '];
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) {
      const at = new Date(now - (52 - i) * 1000);
      ids.push((await seedLive(team.org, at, tricky[i % tricky.length] ?? null, 0.001)).id);
    }
    const browser = await signedIn(consoleApp(), team, 'admin');
    const page = await (await browser.get('/console/usage?month=2026-02')).text();
    const count = ids.length;
    expect(count).toBe(52);
    expect(page).toMatch(new RegExp(`data-testid="usage-live">${count}<`));
    expect(page).toMatch(new RegExp(`data-testid="usage-free-left">${Math.max(0, 50 - count)}<`));
    expect(page).toMatch(new RegExp(`data-testid="usage-billable">${Math.max(0, count - 50)}<`));
    expect(page).toMatch(/data-testid="usage-cost">\$0\.0\d+/);

    const res = await browser.get(`/console/usage.csv?month=${billingMonth(new Date(now))}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([
      'month',
      'verification_id',
      'created_at',
      'reference',
      'document_type',
      'verdict',
      'final_verdict',
      'billing',
      'estimated_cost_usd',
    ]);
    const body = rows.slice(1);
    expect(body.map((r) => r[1])).toEqual(ids);
    expect(body.every((r) => r.length === 9)).toBe(true);
    expect(body.filter((r) => r[7] === 'free')).toHaveLength(Math.min(50, count));
    expect(body.filter((r) => r[7] === 'billable')).toHaveLength(Math.max(0, count - 50));
    expect(body[0]?.[3]).toBe('dossier "A", lot 3');
    expect(body[1]?.[3]).toBe('ligne 1\nligne 2');
    // A spreadsheet must not run the customer's text as a formula.
    expect(body[2]?.[3]).toBe(`'=HYPERLINK("x")`);
    expect(body[3]?.[3]).toBe(' padded ');
    expect(body[0]?.[8]).toBe('0.001');
  });

  it('an empty month is all free; a malformed month is refused', async () => {
    const team = await createTeam();
    const browser = await signedIn(consoleApp(), team, 'owner');
    const page = await (await browser.get('/console/usage?month=2020-01')).text();
    expect(page).toMatch(/data-testid="usage-live">0</);
    expect(page).toMatch(/data-testid="usage-free-left">50</);
    expect(parseCsv(await (await browser.get('/console/usage.csv?month=2020-01')).text())).toHaveLength(1);
    expect((await browser.get('/console/usage?month=2020-13')).status).toBe(400);
    expect((await browser.get('/console/usage.csv?month=x')).status).toBe(400);
  });

  it('writes RFC 4180 fields', () => {
    expect(toCsv([['a,b', 'say "hi"', null, 3, '+1', 'plain']])).toBe('"a,b","say ""hi""",,3,\'+1,plain\r\n');
  });

  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as Role[]) {
    const allowed = role === 'owner' || role === 'admin';
    it(`see usage and export it: ${role} ${allowed ? 'allowed' : 'refused with 403'}`, async () => {
      const team = await createTeam();
      const browser = await signedIn(consoleApp(), team, role);
      const nav = await (await browser.get('/console/reviews')).text();
      expect(nav.includes('href="/console/usage"')).toBe(allowed);
      expect((await browser.get('/console/usage')).status).toBe(allowed ? 200 : 403);
      expect((await browser.get('/console/usage.csv')).status).toBe(allowed ? 200 : 403);
    });
  }
});
