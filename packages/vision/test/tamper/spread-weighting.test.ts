import { describe, expect, it } from 'vitest';
import { blurRgb, encodeJpeg } from '../../scripts/eval/corpus/raster-io.ts';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import {
  colourSpread,
  PHOTOCOPY_MAX_SPREAD,
  photocopyStrength,
  STRICT_SCALE,
} from '../../src/tamper/photocopy.ts';
import { colourDocument } from './synthetic.ts';

/**
 * The colour spread weighted by brightness (photocopy.ts BRIGHT_SUM): a phone's JPEG keeps one
 * colour per 2 × 2 pixels, so the dark dots of a grey copy's halftone take the paper's colour cast
 * beside them as an offset of a few grey levels. Chromaticity alone divides that offset by the
 * dot's small brightness and reads colour; weighted by brightness it stays a grey copy.
 */

/** A grey halftone page (a clustered dot screen of period 4 px at 45°, tones in bands) under a warm cast. */
function halftoneCopy(width: number, height: number, cast: [number, number, number]) {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const tone = 0.15 + 0.7 * ((Math.floor(x / 80) + Math.floor(y / 60)) % 5) * 0.25; // ink share
      const u = (x + y) / (4 * Math.SQRT2);
      const t = (y - x) / (4 * Math.SQRT2);
      const dot = (Math.cos(2 * Math.PI * u) + Math.cos(2 * Math.PI * t)) / 4 + 0.5;
      const level = tone > dot ? 30 : 235;
      for (let c = 0; c < 3; c++) rgb[(y * width + x) * 3 + c] = Math.min(255, Math.round(level * cast[c]!));
    }
  }
  return { rgb, width, height };
}

const whole = (image: NormalizedImage) => ({ x: 0, y: 0, w: image.width, h: image.height });

describe('the colour spread weighted by brightness', () => {
  it('reads a halftone grey copy under a warm cast, saved as a phone saves it, as grey', async () => {
    const softened = await blurRgb(halftoneCopy(640, 400, [1.06, 1, 0.9]), 0.8); // toner and lens
    const copy = await normalizeImage(await encodeJpeg(softened, 75));
    // The effect the weighting is for: chromaticity alone (the strict sides' measure, checked
    // against a plain computation in fast-paths-3.test.ts) reads the dots' borrowed cast as colour.
    expect(colourSpread(copy, whole(copy), false)).toBeGreaterThan(PHOTOCOPY_MAX_SPREAD);
    expect(colourSpread(copy, whole(copy))).toBeLessThan(PHOTOCOPY_MAX_SPREAD);
  });

  it('judges the strict sides by their former unweighted bars', () => {
    expect(photocopyStrength(STRICT_SCALE.flag + 0.0001, STRICT_SCALE)).toBeNull();
    expect(photocopyStrength(STRICT_SCALE.flag, STRICT_SCALE)).toBe(0);
    // Between the fail bar and the flag bar: a review at most.
    expect(photocopyStrength(STRICT_SCALE.fail + 0.0001, STRICT_SCALE)!).toBeLessThan(0.5);
    expect(photocopyStrength(STRICT_SCALE.unmistakable, STRICT_SCALE)).toBe(1);
  });

  it('still reads a colour document saved the same way as colour', async () => {
    const doc = colourDocument();
    const saved = await normalizeImage(
      await encodeJpeg({ rgb: doc.rgb, width: doc.width, height: doc.height }, 75),
    );
    expect(colourSpread(saved, whole(saved))).toBeGreaterThan(2 * PHOTOCOPY_MAX_SPREAD);
  });
});
