import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { can, type Permission, ROLE_PERMISSIONS } from '../src/index.ts';
import { consoleApp, createTeam, seedVerification, signedIn, testStore } from './support.ts';

/** The spec's roles table, copied row by row: every cell is checked below. */
const SPEC_TABLE: [Permission, Record<Role, boolean>][] = [
  ['verifications.view', { owner: true, admin: true, reviewer: true, developer: true }],
  ['sessions.create', { owner: true, admin: true, reviewer: true, developer: true }],
  ['reviews.decide', { owner: true, admin: true, reviewer: true, developer: false }],
  ['keys.manage', { owner: true, admin: true, reviewer: false, developer: true }],
  ['logs.view', { owner: true, admin: true, reviewer: false, developer: true }],
  ['audit.view', { owner: true, admin: true, reviewer: false, developer: false }],
  ['team.manage', { owner: true, admin: true, reviewer: false, developer: false }],
];
const ROLES: Role[] = ['owner', 'admin', 'reviewer', 'developer'];

describe('the roles table', () => {
  it('covers exactly the spec rows', () => {
    expect(Object.keys(ROLE_PERMISSIONS).sort()).toEqual(SPEC_TABLE.map(([p]) => p).sort());
  });

  for (const [permission, row] of SPEC_TABLE) {
    for (const role of ROLES) {
      it(`${permission}: ${role} ${row[role] ? 'allowed' : 'refused'}`, () => {
        expect(can(role, permission)).toBe(row[role]);
      });
    }
  }
});

describe('the roles table, enforced by the server', () => {
  for (const role of ROLES) {
    it(`see the review queue (verifications): ${role} allowed`, async () => {
      const team = await createTeam();
      const v = await seedVerification(team.org, 'test');
      const browser = await signedIn(consoleApp(), team, role);
      const res = await browser.get('/console/reviews');
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(`data-id="${v.id}"`);
    });

    const allowed = role !== 'developer';
    it(`decide a review: ${role} ${allowed ? 'allowed' : 'refused with 403'}`, async () => {
      const team = await createTeam();
      const v = await seedVerification(team.org, 'test');
      const browser = await signedIn(consoleApp(), team, role);
      const page = await (await browser.get('/console/reviews')).text();
      // The form is not even shown to a role that may not decide, and the server refuses it anyway.
      expect(page.includes('data-testid="review-approve"')).toBe(allowed);
      const res = await browser.post(`/console/reviews/${v.id}/decision`, {
        decision: 'approve',
        csrf: browser.csrf(),
      });
      expect(res.status).toBe(allowed ? 303 : 403);
      const stored = await testStore().verifications.getById(v.id);
      expect(stored?.verification.final_verdict).toBe(allowed ? 'verified' : null);
    });
  }
});
