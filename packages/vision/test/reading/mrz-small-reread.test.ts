import { beforeAll, describe, expect, it } from 'vitest';
import type { Quad, RgbImage } from '../../src/image/raster.ts';
import { mrzCandidates } from '../../src/mrz/locate.ts';
import { mrzFromPage } from '../../src/mrz/read.ts';
import { resampledLines, smallGlyphsMeasured } from '../../src/mrz/small-glyphs.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { warmUp } from '../../src/read-document.ts';
import { type ProfileEvent, startProfile, stopProfile } from '../../src/runtime/profile.ts';
import { renderMrzPage } from '../support/mrz-page.ts';
import { PASSPORT_ZONE } from '../support/mrz-zones.ts';

/**
 * On small glyphs the vote reads the MRZ model's base crop again from a Lanczos-upscaled copy
 * (plain and sharpened), shifted up and down and taller, and combines those readings with the
 * base one before PP-OCR's (mrz/model-read.ts SMALL_MODEL). Checked on images drawn here: the
 * copy's geometry, the pitch measured where a candidate carries none, then whole passport pages
 * read with the real models on either side of the small-glyph threshold.
 */

/** A white image with one black box (x0..x1, y0..y1 exclusive). */
function boxImage(width: number, height: number, box: [number, number, number, number]): RgbImage {
  const rgb = new Uint8Array(width * height * 3).fill(255);
  const [x0, y0, x1, y1] = box;
  for (let y = y0; y < y1; y++) rgb.fill(0, (y * width + x0) * 3, (y * width + x1) * 3);
  return { rgb, width, height };
}

function greyAt(img: RgbImage, x: number, y: number): number {
  return img.rgb[(Math.floor(y) * img.width + Math.floor(x)) * 3]!;
}

describe('resampledLines', () => {
  it('upscales the lines so that a crop is about 64 px tall, its quads landing on the same ink', async () => {
    // A 10-px tall line crop (a small photo's MRZ row) over a dark box in its middle.
    const img = boxImage(200, 60, [80, 22, 120, 38]);
    const quad: Quad = [
      [40, 25],
      [160, 25],
      [160, 35],
      [40, 35],
    ];
    const out = await resampledLines(img, [quad], { sharpen: 0 });
    const [q] = out.quads;
    // 64 / 10 px: a factor above 6 is held at 6.
    expect(q![3][1] - q![0][1]).toBeCloseTo(60, 0);
    expect(q![1][0] - q![0][0]).toBeCloseTo(720, 0);
    // The box's centre (100, 30) maps to the middle of the mapped quad, dark; the quad's left
    // end (x 40) stays light.
    const cx = (q![0][0] + q![1][0]) / 2;
    const cy = (q![0][1] + q![3][1]) / 2;
    expect(greyAt(out.image, cx, cy)).toBeLessThan(40);
    expect(greyAt(out.image, q![0][0] + 5, cy)).toBeGreaterThan(215);
    // The box's left edge (x 80) sits 40 source px right of the quad's left end.
    const edge = q![0][0] + 40 * 6;
    expect(greyAt(out.image, edge - 6, cy)).toBeGreaterThan(200);
    expect(greyAt(out.image, edge + 6, cy)).toBeLessThan(60);
  });

  it('sharpening steepens the edges of a blurred line and leaves flat areas alone', async () => {
    // A soft edge between two greys: light (200) up to x 30, dark (60) from x 34, a ramp between.
    const width = 60;
    const height = 20;
    const rgb = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const v = Math.round(60 + 140 * Math.min(1, Math.max(0, (34 - x) / 4)));
        rgb.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
      }
    const quad: Quad = [
      [5, 5],
      [55, 5],
      [55, 15],
      [5, 15],
    ];
    const plain = await resampledLines({ rgb, width, height }, [quad], { sharpen: 0 });
    const sharp = await resampledLines({ rgb, width, height }, [quad], { sharpen: 0.6 });
    // Source pixel x's centre in the copies (both made at the same factor, 6).
    const at = (x: number) => plain.quads[0]![0][0] + (x + 0.5 - 5) * 6;
    const y = (plain.quads[0]![0][1] + plain.quads[0]![3][1]) / 2;
    const row = (img: RgbImage) => Array.from({ length: 6 * 12 }, (_, i) => greyAt(img, at(26) + i, y));
    // Around the ramp the sharpened copy overshoots: lighter than the plain copy's lightest on
    // the light side, darker than its darkest on the dark side; far from the edge both keep the
    // flat grey.
    expect(Math.max(...row(sharp.image))).toBeGreaterThan(Math.max(...row(plain.image)));
    expect(Math.min(...row(sharp.image))).toBeLessThan(Math.min(...row(plain.image)));
    expect(Math.abs(greyAt(sharp.image, at(12), y) - greyAt(plain.image, at(12), y))).toBeLessThan(3);
    expect(Math.abs(greyAt(sharp.image, at(50), y) - 60)).toBeLessThan(3);
  });
});

/** Each test reads whole pages with the real models (slow on a loaded machine, not timed). */
const SLOW = { timeout: 240_000 };

async function readAt(width: number): Promise<{ lines: string[] | undefined; events: ProfileEvent[] }> {
  const img = await renderMrzPage(PASSPORT_ZONE, { width, title: 'Passeport / Passport' });
  const view = await readDocumentPage(img, { deferMrzRows: true });
  startProfile();
  const mrz = await mrzFromPage(view.image, view.page);
  return { lines: mrz?.lines, events: stopProfile() };
}

const resamples = (events: ProfileEvent[]) =>
  events.filter((e) => e.kind === 'resize' && e.name === 'mrz-small-resample').length;

describe('MRZ of small glyphs read again', () => {
  beforeAll(async () => {
    await warmUp();
  });

  it('rows without a measured pitch are measured on their ink', SLOW, async () => {
    for (const [width, small] of [
      [480, true],
      [900, false],
    ] as const) {
      const img = await renderMrzPage(PASSPORT_ZONE, { width, title: 'Passeport / Passport' });
      const view = await readDocumentPage(img);
      // Candidates made without the ink measure carry no pitch (locate.ts).
      const rows = mrzCandidates(view.page.lines).find((c) => c.format === 'TD3')!.rows;
      expect(rows.every((r) => r.pitch === undefined)).toBe(true);
      expect(smallGlyphsMeasured(view.image, view.page, rows)).toBe(small);
    }
  });

  it('a pitch of about 6 px: the vote adds the resampled readings and reads the zone', SLOW, async () => {
    const got = await readAt(420);
    // Plain and sharpened copies, made once for the block's rows.
    expect(resamples(got.events)).toBe(2);
    expect(got.lines).toEqual(PASSPORT_ZONE);
  });

  it('a pitch of about 11 px: no copy is made, the reading is unchanged', SLOW, async () => {
    const got = await readAt(640);
    expect(resamples(got.events)).toBe(0);
    expect(got.lines).toEqual(PASSPORT_ZONE);
  });
});
