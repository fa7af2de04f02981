import { describe, expect, it } from 'vitest';
import {
  drawPortraitPrint,
  type PortraitPrint,
  printPortrait,
  zoomPortrait,
} from '../../scripts/eval/corpus/portrait-style.ts';
import { seededRng, seedOf } from '../../scripts/eval/corpus/rng.ts';
import type { RgbImage } from '../../src/image/raster.ts';

/**
 * The portrait print styles of the portrait-swap classifier's training pages
 * (scripts/eval/corpus/portrait-style.ts), on a page the test draws: a pale blue page with a
 * colourful photo (a red-green ramp with a dark disc for a head) at a known place.
 */
const W = 400;
const H = 300;
const PHOTO = { x: 100, y: 60, w: 120, h: 150 };
const PAGE: [number, number, number] = [200, 215, 235];

function page(): RgbImage {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const inPhoto = x >= PHOTO.x && x < PHOTO.x + PHOTO.w && y >= PHOTO.y && y < PHOTO.y + PHOTO.h;
      if (!inPhoto) {
        rgb.set(PAGE, o);
        continue;
      }
      const head = Math.hypot(x - 160, y - 120) < 35;
      rgb.set(head ? [60, 40, 30] : [Math.round(80 + x - PHOTO.x), Math.round(200 - (y - PHOTO.y)), 90], o);
    }
  }
  return { rgb, width: W, height: H };
}

const at = (img: RgbImage, x: number, y: number) =>
  Array.from(img.rgb.subarray((y * W + x) * 3, (y * W + x) * 3 + 3));
const chroma = (p: number[]) => Math.max(...p) - Math.min(...p);

describe('portrait print styles (training pages of the portrait-swap model)', () => {
  it('draws one style per seed, the same on every call, and every style among a few dozen sources', () => {
    const a = drawPortraitPrint(seededRng(seedOf('print:one')));
    expect(drawPortraitPrint(seededRng(seedOf('print:one')))).toEqual(a);
    const prints = Array.from({ length: 60 }, (_, i) => drawPortraitPrint(seededRng(seedOf(`print:${i}`))));
    const has = (f: (p: PortraitPrint) => unknown) => prints.filter((p) => f(p)).length;
    // Plain photos stay (the generator's own look, and a real page's), but are a minority.
    expect(has((p) => Object.keys(p).length === 0)).toBeGreaterThan(2);
    expect(has((p) => Object.keys(p).length === 0)).toBeLessThan(20);
    for (const kind of ['grey', 'sepia', 'tint'] as const)
      expect(has((p) => p.tone?.kind === kind)).toBeGreaterThan(0);
    for (const kind of ['halftone', 'lines', 'engraved'] as const)
      expect(has((p) => p.screen?.kind === kind)).toBeGreaterThan(0);
    expect(has((p) => p.frame && p.frame.width < 3)).toBeGreaterThan(0);
    expect(has((p) => p.frame && p.frame.width >= 3)).toBeGreaterThan(0);
    expect(has((p) => p.corner)).toBeGreaterThan(0);
    expect(has((p) => p.vignette)).toBeGreaterThan(0);
    expect(has((p) => p.pattern)).toBeGreaterThan(0);
    expect(has((p) => p.ghost)).toBeGreaterThan(0);
  });

  it('greys the photo on a colour page and leaves the page as it was', async () => {
    const src = page();
    const out = await printPortrait(src, PHOTO, { tone: { kind: 'grey', tint: [255, 255, 255], amount: 1 } });
    expect(chroma(at(out, 110, 70))).toBeLessThanOrEqual(1);
    expect(chroma(at(src, 110, 70))).toBeGreaterThan(50);
    expect(at(out, 20, 20)).toEqual(PAGE);
    expect(src.rgb).toEqual(page().rgb);
  });

  it('prints a frame along the photo, rounds its corners into the page colour', async () => {
    const ink: [number, number, number] = [20, 20, 60];
    const out = await printPortrait(page(), PHOTO, { corner: 0.15, frame: { width: 4, ink, outside: true } });
    // The line lies just outside the photo's left edge, half-way down.
    expect(at(out, PHOTO.x - 2, PHOTO.y + 75)).toEqual(ink);
    // The photo's own corner pixel now shows the page, and its middle is untouched.
    const corner = at(out, PHOTO.x + 1, PHOTO.y + 1);
    for (let c = 0; c < 3; c++) expect(Math.abs(corner[c]! - PAGE[c]!)).toBeLessThan(3);
    expect(at(out, 130, 180)).toEqual(at(page(), 130, 180));
  });

  it('fades the border into the page, screens the photo, prints a pattern and a ghost beside it', async () => {
    const src = page();
    const faded = await printPortrait(src, PHOTO, { vignette: { fade: 0.2, oval: false } });
    const edge = at(faded, PHOTO.x, PHOTO.y + 75);
    for (let c = 0; c < 3; c++) expect(Math.abs(edge[c]! - PAGE[c]!)).toBeLessThan(12);
    expect(at(faded, 160, 120)).toEqual(at(src, 160, 120));

    // A line screen on a flat dark area: alternating light and dark rows where there were none.
    const screened = await printPortrait(src, PHOTO, {
      screen: { kind: 'lines', period: 4, angle: 0, amount: 1 },
    });
    const column = Array.from({ length: 8 }, (_, i) => at(screened, 160, 116 + i)[0]!);
    expect(Math.max(...column) - Math.min(...column)).toBeGreaterThan(40);

    const patterned = await printPortrait(src, PHOTO, {
      pattern: { ink: [40, 120, 60], opacity: 0.35, spacing: 6, wave: 30, phase: 0 },
    });
    // The pattern reaches past the photo onto the page, darker there than the plain page.
    let darker = 0;
    for (let x = PHOTO.x - 20; x < PHOTO.x; x++)
      if (at(patterned, x, PHOTO.y + 40)[0]! < PAGE[0] - 10) darker++;
    expect(darker).toBeGreaterThan(0);

    const ghosted = await printPortrait(src, PHOTO, { ghost: { side: 1, contrast: 0.5, scale: 0.45 } });
    // The ghost's head (the dark disc, scaled down) lands right of the photo, bottom-aligned.
    let ink = 0;
    for (let y = PHOTO.y + 80; y < PHOTO.y + PHOTO.h; y++)
      for (let x = PHOTO.x + PHOTO.w + 5; x < PHOTO.x + PHOTO.w + 70; x++)
        if (at(ghosted, x, y)[0]! < 150) ink++;
    expect(ink).toBeGreaterThan(50);
  });

  it('reprints the photo as an identity photo: the head enlarged around its face, the page untouched', async () => {
    const src = page();
    // The dark disc is the head: its box is the face the generator's truth gives.
    const face = { x: 125, y: 85, w: 70, h: 70 };
    const zoom = 1.4;
    const { image, face: moved } = await zoomPortrait(src, PHOTO, face, zoom);
    // The face box grows by the zoom (up to the whole-pixel part shown) and stays in the photo.
    expect(moved.w / face.w).toBeCloseTo(zoom, 1);
    expect(moved.h / face.h).toBeCloseTo(zoom, 1);
    expect(moved.x).toBeGreaterThanOrEqual(PHOTO.x);
    expect(moved.x + moved.w).toBeLessThanOrEqual(PHOTO.x + PHOTO.w);
    expect(moved.y).toBeGreaterThanOrEqual(PHOTO.y);
    expect(moved.y + moved.h).toBeLessThanOrEqual(PHOTO.y + PHOTO.h);
    // The head is drawn where the new box says, as wide as it: dark pixels across its middle row.
    const row = Math.round(moved.y + moved.h / 2);
    let dark = 0;
    for (let x = PHOTO.x; x < PHOTO.x + PHOTO.w; x++) if (at(image, x, row)[0]! < 100) dark++;
    expect(Math.abs(dark - moved.w)).toBeLessThan(4);
    expect(at(image, Math.round(moved.x + moved.w / 2), row)[0]!).toBeLessThan(100);
    // The page around the photo is as it was; the source page is not changed.
    expect(at(image, PHOTO.x - 1, PHOTO.y + 20)).toEqual(PAGE);
    expect(at(image, PHOTO.x + PHOTO.w, PHOTO.y + 20)).toEqual(PAGE);
    expect(at(src, 160, 120)).toEqual([60, 40, 30]);
    // No enlargement, no change.
    const same = await zoomPortrait(src, PHOTO, face, 1);
    expect(same.image).toBe(src);
    expect(same.face).toEqual(face);
  });
});
