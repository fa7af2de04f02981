import { LambdaClient } from '@aws-sdk/client-lambda';
import { createLambdaAnalyzer } from '@idv/api';
import { parseMrz, REMOTE_INLINE_IMAGE_BYTES } from '@idv/core';
import { storeConfigToEnv } from '@idv/store';
import { inProcessAnalyzer } from '@idv/vision';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { documentPhoto, matchingSelfie } from '../support/documents.ts';
import { startLambdaEndpoint } from '../support/lambda-endpoint.ts';
import { bearer, createTestOrganisation } from '../support/stack.ts';
import { imageForm, storedImageKeys, verifyApp } from '../support/verify-app.ts';

describe('analyzer as a Lambda function (functions/analyzer.ts behind the Invoke API)', () => {
  let lambda: Awaited<ReturnType<typeof startLambdaEndpoint>>;
  let client: LambdaClient;

  beforeAll(async () => {
    Object.assign(process.env, storeConfigToEnv(inject('storeConfig')));
    const { handler } = await import('../../functions/analyzer.ts');
    lambda = await startLambdaEndpoint({ analyzer: handler as (e: unknown) => Promise<unknown> });
    client = new LambdaClient({
      endpoint: lambda.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
  });
  afterAll(async () => lambda?.close());

  it('verifies with images passed by S3 reference, read and decrypted by the function', async () => {
    const app = await verifyApp({ analyzer: createLambdaAnalyzer(client, 'analyzer') });
    const org = await createTestOrganisation();
    const res = await app.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front: await documentPhoto('passport'), selfie: await matchingSelfie() }),
      ...bearer(org.testKey),
    });
    expect(res.status).toBe(200);
    const v = await res.json();
    expect(v.verdict).toBe('verified');
    expect(v.face_match.matched).toBe(true);
  });

  it('answers 503 analysis_unavailable when the function fails, leaving nothing behind', async () => {
    const app = await verifyApp({ analyzer: createLambdaAnalyzer(client, 'broken') });
    const org = await createTestOrganisation();
    const original = console.error;
    console.error = () => {};
    try {
      const res = await app.request('/v1/verify', {
        method: 'POST',
        body: imageForm({ front: await documentPhoto('passport') }),
        ...bearer(org.liveKey, { 'idempotency-key': 'retry-me' }),
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        error: { code: 'analysis_unavailable', message: expect.any(String) },
      });
    } finally {
      console.error = original;
    }
    expect(await storedImageKeys(org.orgId)).toEqual([]);
    const list = await (await app.request('/v1/verifications', bearer(org.liveKey))).json();
    expect(list.data).toEqual([]);
    // The idempotency key was released: a retry with the same key runs again.
    const healthy = await verifyApp({ analyzer: createLambdaAnalyzer(client, 'analyzer') });
    const retry = await healthy.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front: await documentPhoto('passport') }),
      ...bearer(org.liveKey, { 'idempotency-key': 'retry-me' }),
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('runs a session pre-check and chip-key read with the photo inline, as in process', async () => {
    const remote = createLambdaAnalyzer(client, 'analyzer');
    const local = inProcessAnalyzer();
    const photo = await documentPhoto('passport');
    const request = { bytes: photo, documentType: 'passport' as const, side: 'front' as const };
    expect(await remote.precheck?.(request)).toEqual(await local.precheck(request));
    const lines = await remote.readMrz?.(photo);
    expect(lines).toEqual(await local.readMrz(photo));
    expect(lines && parseMrz(lines.lines)).toBeTruthy();
    // A photo beyond the inline limit is not sent: the routes answer "not checked" for it.
    const huge = new Uint8Array(REMOTE_INLINE_IMAGE_BYTES + 1);
    await expect(remote.readMrz?.(huge)).rejects.toThrow(/too large/);
  });
});
