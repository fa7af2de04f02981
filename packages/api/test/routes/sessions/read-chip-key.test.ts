import { describe, expect, it } from 'vitest';
import { documentPhoto, expectError } from '../../support.ts';
import {
  analyzerApp,
  clientCall,
  expectWrongClientTokensRefused,
  onePart,
  openSession,
  plainJpeg,
  sessionFixture,
} from './session-support.ts';

describe('POST /v1/sessions/{id}/mrz (readSessionChipKey)', () => {
  it('gives the key read from a valid MRZ, and null without one', async () => {
    const { org } = await sessionFixture();
    const app = await analyzerApp();
    const session = await openSession(app, org.testKey);
    const key = await clientCall(app, session, 'mrz', onePart(await documentPhoto('passport')));
    expect(key.status).toBe(200);
    // The holder drawn by the test's synthetic passport.
    expect(await key.json()).toEqual({
      key: { document_number: 'NE1234567', date_of_birth: '870412', date_of_expiry: '310925' },
    });
    const noMrz = await clientCall(app, session, 'mrz', onePart(await documentPhoto('cni_front')));
    expect(await noMrz.json()).toEqual({ key: null });
    const blank = await clientCall(app, session, 'mrz', onePart(await plainJpeg()));
    expect(await blank.json()).toEqual({ key: null });
  });

  it('refuses a request without the image part, and wrong tokens', async () => {
    const { app, session } = await sessionFixture();
    const image = await plainJpeg();
    await expectError(await clientCall(app, session, 'mrz', onePart(image, 'photo')), 400, 'invalid_request');
    await expectWrongClientTokensRefused(app, (headers) =>
      app.request(`/v1/sessions/${session.id}/mrz`, { method: 'POST', body: onePart(image), headers }),
    );
  });
});
