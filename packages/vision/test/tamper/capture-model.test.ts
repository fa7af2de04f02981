import { describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { phoneCapture, phoneCaptureMapped } from '../../scripts/eval/corpus/phone-capture.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { screenRecapture } from '../../scripts/eval/corpus/screen.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import { capturePatches, captureScores } from '../../src/tamper/capture-model.ts';

const SLOW = { timeout: 240_000 };

describe('capture classifier input', () => {
  it('cuts a 4 × 3 grid of 96 px patches from the window, planar RGB', () => {
    // A 400 × 300 image whose red channel is the column, green the row, blue constant.
    const width = 400;
    const height = 300;
    const rgb = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) rgb.set([x % 256, y % 256, 7], (y * width + x) * 3);
    const image = {
      rgb,
      width,
      height,
      originalWidth: width,
      originalHeight: height,
      format: 'png' as const,
    };
    const t = capturePatches(image, { x: 100, y: 50, w: 296, h: 240 });
    const plane = 96 * 96;
    expect(t.length).toBe(12 * 3 * plane);
    // First patch: origin at round(200 * 0.5 / 4) = 25, round(144 * 0.5 / 3) = 24 inside the window.
    expect(t[0]).toBe(125);
    expect(t[plane]).toBe(74);
    expect(t[2 * plane]).toBe(7);
    // Last patch (column 3, row 2): origin 175, 120 inside the window.
    const last = 11 * 3 * plane;
    expect(t[last]).toBe((100 + 175) % 256);
    expect(t[last + plane]).toBe(50 + 120);
  });
});

async function scoresOf(img: RgbImage, source: GenuineSource, seed: number) {
  const { bytes, map } = await phoneCaptureMapped(img, seededRng(seed));
  const n = await normalizeImage(bytes);
  const k = n.width / n.originalWidth;
  const [x0, y0] = map(0, 0);
  const [x1, y1] = map(source.image.width, source.image.height);
  return captureScores(n, { x: x0 * k, y: y0 * k, w: (x1 - x0) * k, h: (y1 - y0) * k });
}

describe('capture classifier on generated captures', () => {
  it(
    'scores a screen recapture of a drawn card as a screen, the card itself as bona fide',
    SLOW,
    async () => {
      const card = await drawColourCard(seededRng(41), 'card');
      const genuine = await scoresOf(card.image, card, 42);
      expect(genuine).not.toBeNull();
      expect(genuine!.bonaFide + genuine!.copy + genuine!.screen).toBeCloseTo(1, 5);
      expect(genuine!.screen).toBeLessThan(0.5);
      expect(genuine!.copy).toBeLessThan(0.85);
      const shot = await phoneCapture(await screenRecapture(card.image, seededRng(43)), seededRng(44), {
        flat: true,
      });
      const n = await normalizeImage(shot);
      const screen = await captureScores(n, {
        x: 0.2 * n.width,
        y: 0.2 * n.height,
        w: 0.6 * n.width,
        h: 0.6 * n.height,
      });
      expect(screen!.screen).toBeGreaterThan(0.5);
    },
  );
});
