import type { DocumentLayout } from '@idv/core';
import { afterAll, beforeAll } from 'vitest';
import { phoneCaptureMapped } from '../../scripts/eval/corpus/phone-capture.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import { detectTamper } from '../../src/tamper/index.ts';

/**
 * The tamper step's `photocopy` sign on a phone capture of `img` (the attack corpus's capture,
 * seeded), with the document's extent known as the reading step would give it, and the raw
 * measures the step took (`front.spread`, `front.learned_copy`, …), for a document of `layout`.
 * With `measured` false the step runs as in service, without measures (the bars' shortcuts on).
 * Shared by the copy tests.
 */
export async function photocopyOnCapture(
  img: RgbImage,
  seed: number,
  layout: DocumentLayout = 'unknown',
  measured = true,
) {
  const { bytes, map } = await phoneCaptureMapped(img, seededRng(seed));
  const image = await normalizeImage(bytes);
  const k = image.width / image.originalWidth;
  const [x0, y0] = map(0, 0);
  const [x1, y1] = map(img.width, img.height);
  const window = { x: x0 * k, y: y0 * k, w: (x1 - x0) * k, h: (y1 - y0) * k };
  const measures: Record<string, number> = {};
  const { signals } = await detectTamper(
    { front: image },
    { layout, portrait: null, documentRegions: { front: window }, nativeScreenRatios: {} },
    measured ? { measures } : {},
  );
  return { sign: signals.find((s) => s.type === 'photocopy'), signals, measures };
}

/** `img` printed in pale tints: each pixel pulled towards its grey by 1 − `keep` (as grey as a copy to the colour spread). */
export function paleTints(img: RgbImage, keep: number): RgbImage {
  const rgb = new Uint8Array(img.rgb.length);
  for (let p = 0; p < img.rgb.length; p += 3) {
    const l = 0.299 * img.rgb[p]! + 0.587 * img.rgb[p + 1]! + 0.114 * img.rgb[p + 2]!;
    for (let c = 0; c < 3; c++) rgb[p + c] = Math.round(l + keep * (img.rgb[p + c]! - l));
  }
  return { rgb, width: img.width, height: img.height };
}

/** The environment switches of the opt-in copy cues (tamper/opt-in-cues.ts, copy-agreement.ts). */
const COPY_CUE_SWITCHES = ['IDV_TAMPER_COPY_AGREE', 'IDV_TAMPER_LEARNED', 'IDV_TAMPER_SPECKLE'] as const;

/**
 * Runs the enclosing describe block with the copy cues as shipped (every opt-in switch unset), plus
 * `set`; the switches are restored afterwards, unset ones deleted.
 */
export function withCopyCues(set: Partial<Record<(typeof COPY_CUE_SWITCHES)[number], string>> = {}): void {
  const saved = COPY_CUE_SWITCHES.map((name) => process.env[name]);
  beforeAll(() => {
    for (const name of COPY_CUE_SWITCHES) delete process.env[name];
    Object.assign(process.env, set);
  });
  afterAll(() => {
    COPY_CUE_SWITCHES.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });
}
