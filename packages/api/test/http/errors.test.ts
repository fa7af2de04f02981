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

  it('503 service_unavailable with retry-after when the storage cannot be reached, 500 for anything else', async () => {
    const app = testApp();
    // What the AWS SDK throws when the table's or the bucket's endpoint refuses the connection,
    // and what a throttled or failing service answers.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });
    const throttled = Object.assign(new Error('slow down'), {
      name: 'ProvisionedThroughputExceededException',
      $fault: 'client',
    });
    const wrapped = new Error('could not store the image', { cause: refused });
    const validation = Object.assign(new Error('bad key'), { name: 'ValidationException', $fault: 'client' });
    app.get('/refused', () => {
      throw refused;
    });
    app.get('/throttled', () => {
      throw throttled;
    });
    app.get('/wrapped', () => {
      throw wrapped;
    });
    app.get('/validation', () => {
      throw validation;
    });
    const original = console.error;
    console.error = () => {};
    try {
      for (const path of ['/refused', '/throttled', '/wrapped']) {
        const res = await app.request(path);
        await expectError(res, 503, 'service_unavailable');
        expect(Number(res.headers.get('retry-after')), path).toBeGreaterThanOrEqual(1);
      }
      await expectError(await app.request('/validation'), 500, 'internal_error');
    } finally {
      console.error = original;
    }
  });
});
