import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, documentPhoto, expectError } from '../../support.ts';
import {
  analyzerApp,
  clientCall,
  expectWrongClientTokensRefused,
  onePart,
  openSession,
  plainJpeg,
  sessionFixture,
} from './session-support.ts';

let passport: Uint8Array;
beforeAll(async () => {
  passport = await documentPhoto('passport');
});

describe('POST /v1/sessions/{id}/precheck (precheckSessionPhoto)', () => {
  it('advises on a photo with the real analyzer: a good page, then the wrong side', async () => {
    const { org } = await sessionFixture();
    const app = await analyzerApp();
    const session = await openSession(app, org.testKey);
    const good = await clientCall(
      app,
      session,
      'precheck',
      onePart(passport),
      '?document_type=passport&side=front',
    );
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ issue: null, checked: true, latency_ms: expect.any(Number) });
    // The card's front has no MRZ: asked for its back, the pre-check says so.
    const side = await clientCall(
      app,
      session,
      'precheck',
      onePart(await documentPhoto('cni_front')),
      '?document_type=cni&side=back',
    );
    expect((await side.json()).issue).toBe('wrong_side');
  });

  it('answers checked:false for a time-out, a non-image, a bad query or no analyzer', async () => {
    const { org } = await sessionFixture();
    const slow = await analyzerApp({ precheckTimeoutMs: 1 });
    const session = await openSession(slow, org.testKey);
    const unchecked = { issue: null, checked: false, latency_ms: expect.any(Number) };
    const timedOut = await clientCall(slow, session, 'precheck', onePart(passport));
    expect(timedOut.status).toBe(200);
    expect(await timedOut.json()).toEqual(unchecked);
    const notImage = await clientCall(
      slow,
      session,
      'precheck',
      onePart(new TextEncoder().encode('not an image')),
    );
    expect(await notImage.json()).toEqual(unchecked);
    const badQuery = await clientCall(slow, session, 'precheck', onePart(passport), '?side=top');
    expect(await badQuery.json()).toEqual(unchecked);
    const { app: bare, session: other } = await sessionFixture();
    expect(await (await clientCall(bare, other, 'precheck', onePart(passport))).json()).toEqual(unchecked);
  });

  it('refuses wrong tokens', async () => {
    const { app, session } = await sessionFixture();
    const image = await plainJpeg();
    await expectWrongClientTokensRefused(app, (headers) =>
      app.request(`/v1/sessions/${session.id}/precheck`, { method: 'POST', body: onePart(image), headers }),
    );
  });

  it('limits pre-checks per session with the rate-limit headers and 429 retry-after', async () => {
    const { org, app, session } = await sessionFixture({
      now: () => new Date('2030-03-01T12:00:00Z'),
      limits: { sessionHelpersPerMinute: 2 },
    });
    const image = onePart(await plainJpeg());
    const first = await clientCall(app, session, 'precheck', image);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await clientCall(app, session, 'precheck', image)).status).toBe(200);
    const limited = await clientCall(app, session, 'precheck', image);
    await expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('60');
    // The chip key has its own allowance, and so has every other session.
    expect((await clientCall(app, session, 'mrz', image)).status).toBe(200);
    expect((await clientCall(app, await openSession(app, org.testKey), 'precheck', image)).status).toBe(200);
  });

  it('is in the request log under the session, metadata only', async () => {
    const { org, app, session } = await sessionFixture();
    await clientCall(app, session, 'precheck', onePart(await plainJpeg()));
    const logs = await (await app.request('/v1/logs', bearer(org.testKey))).json();
    const entry = logs.data.find((e: { route: string }) => e.route === '/v1/sessions/:id/precheck');
    expect(entry).toMatchObject({
      method: 'POST',
      status: 200,
      key: session.id,
      mode: 'test',
      resource_id: session.id,
    });
    expect(JSON.stringify(logs)).not.toContain(session.client_token);
  });
});
