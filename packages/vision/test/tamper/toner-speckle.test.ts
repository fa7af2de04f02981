import { describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { drawPaperCard } from '../../scripts/eval/corpus/paper-card.ts';
import { phoneCapture } from '../../scripts/eval/corpus/phone-capture.ts';
import { colourCopy, roomLight } from '../../scripts/eval/corpus/photocopy.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { documentWindow } from '../../src/tamper/photocopy.ts';
import { measureSpeckle, SPECKLE_MIN_DENSITY, speckleStrength } from '../../src/tamper/toner-speckle.ts';

const SLOW = { timeout: 240_000 };

/** Blank paper (tone 225) with sensor-like noise and, optionally, dark dots on a grid. */
function paper(noise: number, dots: number): NormalizedImage {
  const width = 600;
  const height = 400;
  const rgb = new Uint8Array(width * height * 3);
  const rng = seededRng(42);
  for (let p = 0; p < width * height; p++) {
    const v = 225 + rng.normal() * noise;
    rgb.fill(Math.max(0, Math.min(255, Math.round(v))), p * 3, p * 3 + 3);
  }
  // Dots 1 px wide, 60 levels deep, far apart: each is one stray toner dot.
  for (let k = 0; k < dots; k++) {
    const x = 20 + ((k * 37) % 560);
    const y = 20 + Math.floor((k * 37) / 560) * 23;
    rgb.fill(165, (y * width + x) * 3, (y * width + x) * 3 + 3);
  }
  return { rgb, width, height, originalWidth: width, originalHeight: height } as NormalizedImage;
}

const whole = (img: NormalizedImage) => ({ x: 0, y: 0, w: img.width, h: img.height });

describe('toner speckle, measured', () => {
  it('counts isolated dark dots on blank paper, per 10,000 paper positions', () => {
    const img = paper(1.5, 100);
    const s = measureSpeckle(img, whole(img))!;
    // 100 dots over ≈ 596 × 396 paper positions: ≈ 4.2 per 10,000.
    expect(s.density).toBeGreaterThan(3.5);
    expect(s.density).toBeLessThan(5);
    expect(speckleStrength(s.density)).toBeGreaterThanOrEqual(0.5);
  });

  it('does not read sensor noise as dots', () => {
    // σ 2 per pixel at the working size: a phone's noise after the reduction (noisier paper has
    // no flat ring at all, and then no measure).
    const img = paper(2, 0);
    const s = measureSpeckle(img, whole(img))!;
    expect(s.candidates).toBeGreaterThan(100_000);
    expect(s.density).toBeLessThan(SPECKLE_MIN_DENSITY);
    expect(speckleStrength(s.density)).toBeNull();
  });
});

/** The speckle density of a phone capture of `image`, in the window the tamper step uses. */
async function speckleOf(image: RgbImage, seed: number): Promise<number> {
  const shot = await normalizeImage(await phoneCapture(image, seededRng(seed)));
  return measureSpeckle(shot, documentWindow(shot))?.density ?? 0;
}

/** A genuine document printed in pale tints: the card with most of its saturation taken out. */
function pale(img: RgbImage, keep: number): RgbImage {
  const rgb = new Uint8Array(img.rgb.length);
  for (let p = 0; p < img.rgb.length; p += 3) {
    const l = 0.299 * img.rgb[p]! + 0.587 * img.rgb[p + 1]! + 0.114 * img.rgb[p + 2]!;
    for (let c = 0; c < 3; c++) rgb[p + c] = Math.round(l + keep * (img.rgb[p + c]! - l));
  }
  return { rgb, width: img.width, height: img.height };
}

describe('toner speckle on generated copies (the corpus generators)', () => {
  it('flags a colour copy of a colour card and its print photographed under a lamp', SLOW, async () => {
    const card = await drawColourCard(seededRng(31), 'card');
    const copy = await colourCopy(card.image, seededRng(32));
    expect(await speckleOf(copy, 33)).toBeGreaterThanOrEqual(SPECKLE_MIN_DENSITY);
    expect(await speckleOf(roomLight(copy, seededRng(34)), 35)).toBeGreaterThanOrEqual(SPECKLE_MIN_DENSITY);
  });

  it(
    'does not flag the genuine card, a pale genuine card, or Niger paper cards drawn three ways',
    SLOW,
    async () => {
      const card = await drawColourCard(seededRng(31), 'card');
      expect(await speckleOf(card.image, 36)).toBeLessThan(SPECKLE_MIN_DENSITY);
      expect(await speckleOf(pale(card.image, 0.3), 37)).toBeLessThan(SPECKLE_MIN_DENSITY);
      for (const seed of [11, 12, 13]) {
        const paperCard = await drawPaperCard(seededRng(seed), `paper-${seed}`);
        expect(await speckleOf(paperCard.image, seed + 100)).toBeLessThan(SPECKLE_MIN_DENSITY);
      }
    },
  );
});

describe('the tamper step with the speckle cue (IDV_TAMPER_SPECKLE=1)', () => {
  it('raises photocopy on a colour copy only when the cue is on', SLOW, async () => {
    const card = await drawColourCard(seededRng(31), 'card');
    const copy = await colourCopy(card.image, seededRng(32));
    const front = await normalizeImage(await phoneCapture(copy, seededRng(33)));
    const copySign = async () =>
      (await detectTamper({ front }, { layout: card.layout, portrait: null })).signals.find(
        (s) => s.type === 'photocopy',
      );
    const before = process.env.IDV_TAMPER_SPECKLE;
    try {
      delete process.env.IDV_TAMPER_SPECKLE;
      // This copy kept enough colour for the colour spread: without the cue it passes.
      expect(await copySign()).toBeUndefined();
      process.env.IDV_TAMPER_SPECKLE = '1';
      expect(await copySign()).toBeDefined();
    } finally {
      if (before === undefined) delete process.env.IDV_TAMPER_SPECKLE;
      else process.env.IDV_TAMPER_SPECKLE = before;
    }
  });
});
