import { describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  expectError,
  expectWrongCredentialsRefused,
  testApp,
} from '../../support.ts';
import { clientCall, onePart, openSession, plainJpeg } from './session-support.ts';

const t0 = new Date('2030-03-01T12:00:00.000Z');

describe('GET /v1/sessions/{id} (getSession)', () => {
  it('reads the session with its reference, never its token', async () => {
    const org = await createTestOrganisation();
    const app = testApp({ now: () => t0 });
    const session = await openSession(app, org.testKey, { reference: 'file-8', document_type: 'cni' });
    const res = await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey));
    expect(res.status).toBe(200);
    const read = await res.json();
    expect(read).toEqual({
      id: session.id,
      status: 'open',
      mode: 'test',
      reference: 'file-8',
      document_type: 'cni',
      url: `http://localhost:8787/capture/${session.id}`,
      expires_at: '2030-03-01T12:15:00.000Z',
      created_at: '2030-03-01T12:00:00.000Z',
      verification_id: null,
      verification: null,
    });
    expect(JSON.stringify(read)).not.toContain(session.client_token);
  });

  it("is not found for another organisation, the other mode's key, or an unknown id", async () => {
    const org = await createTestOrganisation();
    const app = testApp();
    const session = await openSession(app, org.testKey);
    const other = await createTestOrganisation();
    await expectError(
      await app.request(`/v1/sessions/${session.id}`, bearer(other.testKey)),
      404,
      'not_found',
    );
    await expectError(await app.request(`/v1/sessions/${session.id}`, bearer(org.liveKey)), 404, 'not_found');
    await expectError(await app.request('/v1/sessions/ses_unknown1', bearer(org.testKey)), 404, 'not_found');
    await expectError(
      await app.request('/v1/sessions/vrf_notasession', bearer(org.testKey)),
      404,
      'not_found',
    );
  });

  it('reads as expired once the token lifetime is over, and the token then answers 410', async () => {
    const org = await createTestOrganisation();
    let now = t0;
    const app = testApp({ now: () => now });
    const session = await openSession(app, org.testKey, { ttl_seconds: 60 });
    now = new Date(t0.getTime() + 59_000);
    expect((await (await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey))).json()).status).toBe(
      'open',
    );
    now = new Date(t0.getTime() + 61_000);
    expect((await (await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey))).json()).status).toBe(
      'expired',
    );
    for (const route of ['verify', 'precheck', 'mrz'] as const) {
      await expectError(
        await clientCall(app, session, route, onePart(await plainJpeg())),
        410,
        'session_expired',
      );
    }
  });

  it('refuses wrong credentials and the client token', async () => {
    const org = await createTestOrganisation();
    const app = testApp();
    const session = await openSession(app, org.testKey);
    await expectWrongCredentialsRefused((headers) => app.request(`/v1/sessions/${session.id}`, { headers }));
    await expectError(
      await app.request(`/v1/sessions/${session.id}`, bearer(session.client_token)),
      401,
      'unauthorized',
    );
  });
});
