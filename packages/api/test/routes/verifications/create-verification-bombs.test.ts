import { analyzeImages } from '@idv/vision';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pngBomb } from '../../../../vision/test/support/bombs.ts';
import {
  bearer,
  createTestOrganisation,
  documentPhoto,
  imageForm,
  storedImageKeys,
  type TestOrganisation,
  verifyApp,
} from '../../support.ts';

/**
 * createVerification's refusal of decompression bombs. Bounded decoding at the API: an upload whose header states more pixels than the budget
 * (50 Mpx) is refused at upload with 400 invalid_image, before it is stored or analysed.
 */

type App = Awaited<ReturnType<typeof verifyApp>>;

describe('POST /v1/verify with pixel bombs', () => {
  let app: App;
  let org: TestOrganisation;
  let passport: Uint8Array;
  /** Calls that reached the (real) analyzer: a refusal at upload leaves it at zero. */
  let analysed = 0;

  beforeAll(async () => {
    app = await verifyApp({
      analyzer: {
        analyze: (request) => {
          analysed++;
          return analyzeImages(request);
        },
      },
    });
    org = await createTestOrganisation();
    passport = await documentPhoto('passport');
  });

  beforeEach(() => {
    analysed = 0;
  });

  async function post(parts: Record<string, Uint8Array>) {
    // Live mode: live images are kept, so an empty bucket proves the upload never got that far.
    return app.request('/v1/verify', { method: 'POST', body: imageForm(parts), ...bearer(org.liveKey) });
  }

  it('refuses a 16 000 × 16 000 PNG (31 KB, 768 MB decoded) before storing or decoding it', async () => {
    const before = process.memoryUsage().rss;
    const res = await post({ front: pngBomb(16_000, 16_000) });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toEqual({
      error: {
        code: 'invalid_image',
        message: 'front: the image is 16000 × 16000 pixels (256.0 megapixels); the limit is 50 megapixels',
      },
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    expect(analysed).toBe(0);
    expect(await storedImageKeys(org.orgId)).toEqual([]);
  });

  it('refuses a bomb in any part, next to a good document, and three at once', async () => {
    const selfie = await post({ front: passport, selfie: pngBomb(120_000, 500) });
    expect(selfie.status).toBe(400);
    expect((await selfie.json()).error).toMatchObject({
      code: 'invalid_image',
      message: /^selfie: .*60\.0 megapixels/,
    });
    const bomb = pngBomb(16_000, 16_000);
    const three = await post({ front: bomb, back: bomb, selfie: bomb });
    expect(three.status).toBe(400);
    expect((await three.json()).error.code).toBe('invalid_image');
    expect(analysed).toBe(0);
    expect(await storedImageKeys(org.orgId)).toEqual([]);
  });
});
