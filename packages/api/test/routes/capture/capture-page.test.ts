import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, testApp, testStore } from '../../support.ts';
import { sessionFixture } from '../sessions/session-support.ts';

describe('the hosted capture page and the web SDK files', () => {
  beforeAll(() => {
    // npm install / start / test build it; a direct vitest run may come first.
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../../../../web-sdk/scripts/build.mjs')]);
  });

  it('serves /capture/{id} without the token, with a strict policy', async () => {
    const { app, session } = await sessionFixture({}, { document_type: 'cni' });
    const page = await app.request(`/capture/${session.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(session.id);
    expect(html).toContain('"documentType":"cni"');
    expect(html).toContain("from '/sdk/v1.js'");
    expect(html).not.toContain(session.client_token);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(
      page.headers.get('content-security-policy') ?? '',
    )?.[1];
    expect(html).toContain(`nonce="${nonce}"`);
    // The photos go to the upload bucket by presigned PUTs: the only other origin it may reach.
    const uploads = new URL(await testStore().uploads.presignPut('uploads/x', 'image/jpeg', 1, 60)).origin;
    expect(page.headers.get('content-security-policy')).toContain(`connect-src 'self' ${uploads};`);
    await expectError(await app.request('/capture/ses_doesnotexist'), 404, 'not_found');
  });

  it('serves the SDK bundle and its typings to any origin', async () => {
    const app = testApp();
    const sdk = await app.request('/sdk/v1.js');
    expect(sdk.status).toBe(200);
    expect(sdk.headers.get('content-type')).toContain('javascript');
    expect(sdk.headers.get('access-control-allow-origin')).toBe('*');
    expect(await sdk.text()).toMatch(/export\s*\{[^}]*mount/);
    const types = await app.request('/sdk/v1.d.ts');
    expect(await types.text()).toContain(
      'export declare function mount(element: HTMLElement, options: MountOptions)',
    );
    await expectError(await app.request('/sdk/other.js'), 404, 'not_found');
  });

  it('documents the five session operations in /openapi.json', async () => {
    const doc = await (await testApp().request('/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/sessions',
        '/v1/sessions/{id}',
        '/v1/sessions/{id}/verify',
        '/v1/sessions/{id}/precheck',
        '/v1/sessions/{id}/mrz',
      ]),
    );
    expect(doc.paths['/v1/sessions/{id}/verify'].post.security).toEqual([{ ClientToken: [] }]);
    expect(doc.components.securitySchemes.ClientToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
