import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp } from '../support/stack.ts';

async function expectEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = await res.json();
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message as string;
}

describe('error envelope', () => {
  it('404 for an unknown route', async () => {
    await expectEnvelope(await testApp().request('/v1/nothing-here'), 404, 'not_found');
  });

  it('405 with Allow for a known path and another method', async () => {
    const res = await testApp().request('/v1/logs', { method: 'DELETE' });
    await expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('400 invalid_request naming the bad field', async () => {
    const org = await createTestOrganisation();
    const message = await expectEnvelope(
      await testApp().request('/v1/logs?limit=abc', bearer(org.testKey)),
      400,
      'invalid_request',
    );
    expect(message).toContain('limit');
  });

  it('400 for a forged pagination cursor, never a 500 or another partition', async () => {
    const org = await createTestOrganisation();
    const forged = Buffer.from(JSON.stringify({ pk: 'LOG#org_other#test', sk: 'x' })).toString('base64url');
    const message = await expectEnvelope(
      await testApp().request(`/v1/logs?cursor=${forged}`, bearer(org.testKey)),
      400,
      'invalid_request',
    );
    expect(message).toContain('cursor');
    await expectEnvelope(
      await testApp().request('/v1/logs?cursor=%%%', bearer(org.testKey)),
      400,
      'invalid_request',
    );
  });

  it('500 internal_error without a stack trace', async () => {
    const app = testApp();
    app.get('/boom', () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    });
    const original = console.error;
    console.error = () => {};
    try {
      const message = await expectEnvelope(await app.request('/boom'), 500, 'internal_error');
      expect(message).not.toContain('secret');
      expect(message).not.toContain('.ts');
    } finally {
      console.error = original;
    }
  });
});
