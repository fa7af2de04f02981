import { describe, expect, it, vi } from 'vitest';
import { rotateRgb } from '../../src/image/raster.ts';
import { turnedLook, unrotatePoint, uprightQuarterTurns } from '../../src/mrz/turned-look.ts';
import type { PageView } from '../../src/ocr/focus.ts';
import type { PageReading, TextLine } from '../../src/ocr/page.ts';

/** The quarter turn of mrz/turned-look.ts and its mapping back to the input image. */

// The page reader stands in for the second reading: it fails loudly, so a test sees whether the
// turned page was read again.
vi.mock('../../src/ocr/focus.ts', () => ({
  readDocumentPage: vi.fn(async () => {
    throw new Error('read again');
  }),
}));

describe('a page read a quarter turned', () => {
  it('is turned clockwise when its text reads upwards, anticlockwise when downwards', () => {
    expect(uprightQuarterTurns(-Math.PI / 2)).toBe(1);
    expect(uprightQuarterTurns(-Math.PI / 2 + 0.2)).toBe(1);
    expect(uprightQuarterTurns((3 * Math.PI) / 2)).toBe(1);
    expect(uprightQuarterTurns(Math.PI / 2)).toBe(3);
    expect(uprightQuarterTurns(Math.PI / 2 - 0.2)).toBe(3);
  });

  it('is left alone when upright, upside down or only tilted', () => {
    for (const a of [0, 0.3, -0.3, Math.PI, -Math.PI, Math.PI - 0.4, Math.PI / 4])
      expect(uprightQuarterTurns(a)).toBe(0);
  });

  it('maps every pixel of the turned image back to the pixel it came from', () => {
    const w = 5;
    const h = 3;
    // Each pixel's red value is its index in the source image.
    const rgb = new Uint8Array(w * h * 3);
    for (let i = 0; i < w * h; i++) rgb[3 * i] = i;
    for (const q of [1, 3] as const) {
      const turned = rotateRgb({ rgb, width: w, height: h }, q);
      expect([turned.width, turned.height]).toEqual([h, w]);
      for (let y = 0; y < turned.height; y++)
        for (let x = 0; x < turned.width; x++) {
          const [sx, sy] = unrotatePoint([x, y], q, w, h);
          expect(turned.rgb[3 * (y * turned.width + x)]).toBe(sy * w + sx);
        }
    }
  });

  it('is not read again when no filler was read on it (a paper card without an MRZ)', async () => {
    const page = (texts: string[]) =>
      ({
        angle: -Math.PI / 2,
        lines: texts.map((text) => ({ text }) as TextLine),
      }) as unknown as PageReading;
    const view = (p: PageReading): PageView => ({
      image: { rgb: new Uint8Array(4 * 4 * 3), width: 4, height: 4 },
      page: p,
      toSource: (q) => q,
      focused: false,
    });
    // No filler: null, and no second reading of the page.
    expect(
      await turnedLook(view(page(['REPUBLIQUE DU NIGER', 'CARTE D IDENTITE', 'NOM : ISSA']))),
    ).toBeNull();
    // A filler read: the page is read again.
    await expect(turnedLook(view(page(['IDBFA1172', '<', '7905045M'])))).rejects.toThrow('read again');
    // Not turned by a quarter: never read again.
    expect(await turnedLook(view({ ...page(['<<<<']), angle: 0 }))).toBeNull();
  });
});
