import { describe, expect, it } from 'vitest';
import { openSession } from '../routes/sessions/session-support.ts';
import { bearer, createTestOrganisation, expectError, testApp } from '../support.ts';

/**
 * Every id taken from a path is checked at the edge: a malformed one (wrong prefix, wrong
 * alphabet, any length up to 10,000 characters) answers 404 `not_found` in the envelope and
 * never reaches the store (DynamoDB refuses keys over 2 KB, which used to surface as a 500).
 */
describe('path ids checked at the edge', () => {
  const app = testApp();

  /** Each route with an id in its path, with the credential kind it takes. */
  const ROUTES = [
    { method: 'GET', path: '/v1/verifications/:id', prefix: 'vrf', auth: 'key' },
    { method: 'GET', path: '/v1/verifications/:id/images/:kind', prefix: 'vrf', auth: 'key' },
    { method: 'GET', path: '/v1/sessions/:id', prefix: 'ses', auth: 'key' },
    { method: 'POST', path: '/v1/sessions/:id/precheck', prefix: 'ses', auth: 'token' },
    { method: 'POST', path: '/v1/sessions/:id/mrz', prefix: 'ses', auth: 'token' },
    { method: 'POST', path: '/v1/sessions/:id/verify', prefix: 'ses', auth: 'token' },
    { method: 'POST', path: '/v1/sessions/:id/uploads', prefix: 'ses', auth: 'token' },
    { method: 'DELETE', path: '/v1/webhooks/:id', prefix: 'whe', auth: 'key' },
    { method: 'GET', path: '/v1/webhooks/:id/deliveries', prefix: 'whe', auth: 'key' },
    { method: 'GET', path: '/capture/:id', prefix: 'ses', auth: 'none' },
  ] as const;

  it('covers every route of the app that takes an id', () => {
    const withId = app.routes
      .filter((r) => r.path.includes('/:id') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path}`);
    expect(new Set(withId)).toEqual(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)));
  });

  /** Malformed ids: every length the issue tried, other prefixes, other alphabets. */
  function badIds(prefix: string): string[] {
    return [
      'x',
      `${prefix}_${'a'.repeat(100)}`,
      `${prefix}_${'a'.repeat(3000)}`,
      `${prefix}_${'0'.repeat(10_000)}`,
      'a'.repeat(10_000),
      `${prefix}_`,
      `${prefix}_ABC123`,
      `${prefix}_abc-123`,
      `${prefix === 'vrf' ? 'ses' : 'vrf'}_abc123`,
      `${prefix}_abc%00`,
    ];
  }

  it('answers 404 not_found in the envelope for a malformed id on each route', async () => {
    const org = await createTestOrganisation();
    // A real client token: the id, not the credential, is what is refused.
    const session = await openSession(app, org.testKey);
    for (const route of ROUTES) {
      for (const id of badIds(route.prefix)) {
        const url = route.path.replace(':id', id).replace(':kind', 'front');
        const headers =
          route.auth === 'key'
            ? bearer(org.testKey).headers
            : route.auth === 'token'
              ? bearer(session.client_token).headers
              : {};
        const res = await app.request(url, { method: route.method, headers });
        const message = await expectError(res, 404, 'not_found');
        // The refusal does not echo the forged id back.
        expect(message.length, `${route.method} ${route.path} ${id.length}`).toBeLessThan(200);
      }
    }
  });

  it('still answers 404 for a well-formed id that names nothing, and 401 before looking without a credential', async () => {
    const org = await createTestOrganisation();
    await expectError(
      await app.request(`/v1/verifications/vrf_${'z'.repeat(64)}`, bearer(org.testKey)),
      404,
      'not_found',
    );
    await expectError(
      await app.request(`/v1/webhooks/whe_${'a'.repeat(3000)}/deliveries`),
      401,
      'unauthorized',
    );
  });
});
