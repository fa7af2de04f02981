import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeImage } from '../../src/image/normalize.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { nativeScreenPeakRatio, SCREEN_PEAK_RATIO, screenPeakRatio } from '../../src/tamper/screen.ts';
import { colourDocument } from './synthetic.ts';

/**
 * photo_of_screen on a large upload: a 3840×2160 photo (a 4K video frame) of an LCD whose pixels span 4 camera
 * pixels (R, G, B stripes and a dark row gap), slightly out of focus, saved as JPEG. The working
 * copy (1600 px, 2.4 times smaller) no longer holds the grid; the upload's own pixels do.
 */
async function screenPhoto(): Promise<Uint8Array> {
  const width = 3840;
  const height = 2160;
  // The document shown on the screen: the synthetic colour document at 1600×900 enlarged to the
  // frame (its own print texture then lies far below the grid's frequencies).
  const doc = colourDocument(1600, 900, 3);
  const rgb = new Uint8Array(
    await sharp(Buffer.from(doc.rgb), { raw: { width: 1600, height: 900, channels: 3 } })
      .resize(width, height)
      .raw()
      .toBuffer(),
  );
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const stripe = Math.floor(((x % 4) * 3) / 4);
      const gap = y % 4 === 0 ? 0.9 : 1;
      for (let c = 0; c < 3; c++)
        rgb[i + c] = Math.min(255, rgb[i + c]! * (stripe === c ? 1.04 : 0.96) * gap);
    }
  }
  const jpeg = await sharp(Buffer.from(rgb), { raw: { width, height, channels: 3 } })
    .blur(0.8)
    .jpeg({ quality: 90 })
    .toBuffer();
  return new Uint8Array(jpeg);
}

describe('photo_of_screen at the upload resolution', () => {
  // The hand-made grid cue alone: the learned cue (capture-model.ts) reads the working copy as
  // a screen too, which would hide whether the upload's own pixels were measured.
  const previous = process.env.IDV_TAMPER_LEARNED;
  beforeAll(() => {
    process.env.IDV_TAMPER_LEARNED = '0';
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.IDV_TAMPER_LEARNED;
    else process.env.IDV_TAMPER_LEARNED = previous;
  });

  it('finds the grid in the upload when the working copy has lost it', async () => {
    const bytes = await screenPhoto();
    const working = await normalizeImage(bytes);
    expect(working.width).toBe(1600);
    expect(screenPeakRatio(working)).toBeLessThan(SCREEN_PEAK_RATIO);
    expect(await nativeScreenPeakRatio(bytes, working)).toBeGreaterThan(SCREEN_PEAK_RATIO);
    const types = async (originals?: { front: Uint8Array }) =>
      (
        await detectTamper(
          { front: working, ...(originals ? { originals } : {}) },
          { layout: 'td1', portrait: null },
        )
      ).signals.map((s) => s.type);
    expect(await types()).not.toContain('photo_of_screen');
    expect(await types({ front: bytes })).toContain('photo_of_screen');
  }, 30_000);

  it('adds nothing for an upload no larger than the working copy', async () => {
    // A decodable upload: the null must come from the size, not from a failed decode.
    const bytes = new Uint8Array(
      await sharp({ create: { width: 800, height: 500, channels: 3, background: '#ccd' } })
        .jpeg()
        .toBuffer(),
    );
    const small = await normalizeImage(bytes);
    expect(await nativeScreenPeakRatio(bytes, small)).toBeNull();
    // The same bytes, taken for a larger upload, are measured.
    expect(await nativeScreenPeakRatio(bytes, { ...small, width: 400, height: 250 })).toBeTypeOf('number');
  });
});
