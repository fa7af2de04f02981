import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, expectError, testApp } from '../support.ts';

describe('error envelope', () => {
  it('400 invalid_request naming the bad field', async () => {
    const org = await createTestOrganisation();
    const message = await expectError(
      await testApp().request('/v1/logs?limit=abc', bearer(org.testKey)),
      400,
      'invalid_request',
    );
    expect(message).toContain('limit');
  });

  it('400 invalid_request for a body that is not JSON', async () => {
    const org = await createTestOrganisation();
    const res = await testApp().request('/v1/webhooks', {
      method: 'POST',
      body: '{"url":',
      ...bearer(org.testKey, { 'content-type': 'application/json' }),
    });
    await expectError(res, 400, 'invalid_request');
  });

  it('500 internal_error without a stack trace', async () => {
    const app = testApp();
    app.get('/boom', () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    });
    const original = console.error;
    console.error = () => {};
    try {
      const message = await expectError(await app.request('/boom'), 500, 'internal_error');
      expect(message).not.toContain('secret');
      expect(message).not.toContain('.ts');
    } finally {
      console.error = original;
    }
  });
});
