import { describe, expect, it } from 'vitest';
import { expectError, testApp } from '../support.ts';

describe('unknown routes and methods', () => {
  it('404 not_found for an unknown route, with or without /v1', async () => {
    await expectError(await testApp().request('/v1/nothing-here'), 404, 'not_found');
    await expectError(await testApp().request('/nothing'), 404, 'not_found');
  });

  it('405 with Allow for a known path and another method, before any authentication', async () => {
    const res = await testApp().request('/v1/logs', { method: 'DELETE' });
    await expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('lists every method of a path with parameters in Allow', async () => {
    const res = await testApp().request('/v1/webhooks/whe_abc123', { method: 'GET' });
    await expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('DELETE');
    const both = await testApp().request('/v1/webhooks', { method: 'PUT' });
    expect(both.headers.get('allow')).toBe('GET, POST');
  });
});
