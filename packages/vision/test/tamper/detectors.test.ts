import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceBox } from '../../src/faces/detect.ts';
import { blurStrength, glareFraction, sharpness } from '../../src/tamper/capture.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { colourSpread, PHOTOCOPY_MAX_SPREAD } from '../../src/tamper/photocopy.ts';
import { SCREEN_PEAK_RATIO, screenPeakRatio } from '../../src/tamper/screen.ts';
import { parseTextBoxes } from '../../src/tamper/text-boxes.ts';
import { boxBlur, colourDocument, glyphFieldPage, greyCopy, mapPixels, rng } from './synthetic.ts';

/**
 * Each tamper detector on synthetic images: the sign appears on the doctored picture and
 * not on the clean one. `portrait: null` skips face detection (no face in these pictures).
 */

const types = async (front: Parameters<typeof detectTamper>[0]['front'], extra: object = {}) =>
  (await detectTamper({ front }, { layout: 'td1', portrait: null, ...extra })).signals.map((s) => s.type);

describe('photocopy', () => {
  it('flags a grey copy with a lamp cast, not the colour original', async () => {
    const doc = colourDocument();
    const copy = greyCopy(doc);
    expect(colourSpread(doc)).toBeGreaterThan(PHOTOCOPY_MAX_SPREAD);
    expect(colourSpread(copy)).toBeLessThan(PHOTOCOPY_MAX_SPREAD);
    expect(await types(doc)).not.toContain('photocopy');
    const signals = (await detectTamper({ front: copy }, { layout: 'td1', portrait: null })).signals;
    const sign = signals.find((s) => s.type === 'photocopy');
    expect(sign?.severity).toBe('high');
    expect(sign?.side).toBe('front');
  });

  it('is not fooled by a lighting gradient across a grey copy (cast varying over the picture)', async () => {
    const copy = greyCopy(colourDocument());
    const pinkLamp = mapPixels(copy, (x, _y, [r, g, b]) => [
      r * (1 + (0.12 * x) / 640),
      g,
      b * (1 + (0.05 * x) / 640),
    ]);
    expect(await types(pinkLamp)).toContain('photocopy');
  });

  it('checks the back too', async () => {
    const doc = colourDocument();
    const { signals } = await detectTamper(
      { front: doc, back: greyCopy(doc) },
      { layout: 'td1', portrait: null },
    );
    expect(signals.filter((s) => s.type === 'photocopy').map((s) => s.side)).toEqual(['back']);
  });
  it('measures on the document, not on coloured objects lying beside a grey copy', async () => {
    // A grey copy in the middle of a wide photo; a bright blue and a pink object beside it,
    // inside the central window used when the document's extent is unknown.
    const copy = greyCopy(colourDocument(400, 260));
    const photo = mapPixels(colourDocument(1000, 700, 3), (x, y) => {
      if (x >= 300 && x < 700 && y >= 220 && y < 480) {
        const i = ((y - 220) * copy.width + (x - 300)) * 3;
        return [copy.rgb[i]!, copy.rgb[i + 1]!, copy.rgb[i + 2]!];
      }
      if (x >= 220 && x < 290 && y >= 150 && y < 560) return [40, 110, 230];
      if (x >= 700 && x < 780 && y >= 150 && y < 560) return [235, 120, 160];
      return [200, 200, 196];
    });
    const documentRegions = { front: { x: 300, y: 220, w: 400, h: 260 } };
    expect(await types(photo)).not.toContain('photocopy');
    expect(await types(photo, { documentRegions })).toContain('photocopy');
  });
});

describe('photo_of_screen', () => {
  // The hand-made grid cue alone: the learned cue (capture-model.ts, tested in
  // capture-model.test.ts) would raise the sign too and hide a grid cue that stopped working.
  // (It also reads this drawn pattern of thresholded sine waves, unlike a document, as a screen.)
  const previous = process.env.IDV_TAMPER_LEARNED;
  beforeAll(() => {
    process.env.IDV_TAMPER_LEARNED = '0';
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.IDV_TAMPER_LEARNED;
    else process.env.IDV_TAMPER_LEARNED = previous;
  });

  it('flags an RGB sub-pixel grid, not the printed document', async () => {
    const doc = colourDocument();
    // LCD: every pixel column lit through one of three colour stripes (period 3 px), plus the
    // dark gaps between rows of pixels (period 4 px).
    const screen = mapPixels(doc, (x, y, [r, g, b]) => {
      const stripe = x % 3;
      const gap = y % 4 === 0 ? 0.6 : 1;
      return [
        r * (stripe === 0 ? 1.15 : 0.8) * gap,
        g * (stripe === 1 ? 1.15 : 0.8) * gap,
        b * (stripe === 2 ? 1.15 : 0.8) * gap,
      ];
    });
    expect(screenPeakRatio(doc)).toBeLessThan(SCREEN_PEAK_RATIO);
    expect(screenPeakRatio(screen)).toBeGreaterThan(SCREEN_PEAK_RATIO);
    expect(await types(screen)).toContain('photo_of_screen');
    expect(await types(doc)).not.toContain('photo_of_screen');
  });
});

describe('glare', () => {
  it('flags a clipped highlight on the document, not white paper around it', async () => {
    const doc = colourDocument();
    const glare = mapPixels(doc, (x, y, px) => {
      const d = Math.hypot(x - 200, y - 200);
      if (d < 45) return [255, 255, 255];
      if (d < 70) return px.map((v) => v + ((70 - d) / 25) * (255 - v)) as [number, number, number];
      return px;
    });
    expect(glareFraction(doc)).toBe(0);
    expect(await types(glare)).toContain('glare');
    // A scan on a white bed: the white touches the border and is paper, not glare.
    const onPaper = mapPixels(doc, (x, y, px) =>
      x < 60 || y < 40 || x > 580 || y > 360 ? [255, 255, 255] : px,
    );
    expect(await types(onPaper)).not.toContain('glare');
  });

  it('does not take white entry fields or a white margin strip of a clean scan for glare', async () => {
    const doc = colourDocument();
    // Rendered form: three white fields, one text line high (14 px) and 180–300 px long, with
    // dark text inside; and a white strip along the top, just inside a thin dark page border.
    const fields = [
      { x: 200, y: 80, w: 300 },
      { x: 200, y: 120, w: 260 },
      { x: 200, y: 160, w: 180 },
    ];
    const form = mapPixels(doc, (x, y, px) => {
      if (y < 2 || x < 2 || x > 637 || y > 397) return [40, 40, 40];
      if (y >= 3 && y < 14 && x >= 6 && x < 634) return [255, 255, 255];
      for (const f of fields) {
        if (x >= f.x && x < f.x + f.w && y >= f.y && y < f.y + 14) {
          const glyph = (x - f.x) % 10 < 6 && y >= f.y + 3 && y < f.y + 11 && x < f.x + f.w / 2;
          return glyph ? [20, 20, 20] : [255, 255, 255];
        }
      }
      return px;
    });
    expect(glareFraction(form)).toBe(0);
    expect(await types(form)).not.toContain('glare');
  });
});

describe('blur', () => {
  it('flags a defocused photo, not the sharp one', async () => {
    const doc = colourDocument();
    const blurred = boxBlur(doc, 4);
    expect(blurStrength(sharpness(doc))).toBeNull();
    expect(blurStrength(sharpness(blurred))).not.toBeNull();
    expect(await types(blurred)).toContain('blur');
    expect(await types(doc)).not.toContain('blur');
  });
});

/** The field page of synthetic.ts; `tall` makes glyph k taller, `patch` pastes a label over it. */
const fieldImage = (tall?: number, patch = false) =>
  glyphFieldPage({ ...(tall !== undefined ? { tall } : {}), patch });

describe('font_inconsistency', () => {
  const box = [{ field: 'document_number', side: 'front', x: 100, y: 180, w: 320, h: 40 }];
  it('flags a glyph taller than the others in a uniform-height field', async () => {
    expect(await types(fieldImage(4), { textBoxes: box })).toContain('font_inconsistency');
    const sign = (
      await detectTamper({ front: fieldImage(4) }, { layout: 'td1', portrait: null, textBoxes: box })
    ).signals.find((s) => s.type === 'font_inconsistency');
    expect(sign?.field).toBe('document_number');
  });
  it('stays quiet when all glyphs agree', async () => {
    expect(await types(fieldImage(), { textBoxes: box })).not.toContain('font_inconsistency');
  });
});

describe('field_overwritten', () => {
  const box = [{ field: 'surname', side: 'front', x: 100, y: 180, w: 320, h: 40 }];
  it('flags a field whose background differs from the document around it', async () => {
    expect(await types(fieldImage(undefined, true), { textBoxes: box })).toContain('field_overwritten');
  });
  it('stays quiet on a field printed on the document background', async () => {
    expect(await types(fieldImage(), { textBoxes: box })).not.toContain('field_overwritten');
  });
  it("does not look at fields on Niger's paper card (stamps and handwriting cross fields)", async () => {
    const { signals } = await detectTamper(
      { front: fieldImage(4, true) },
      { layout: 'niger_paper_card', portrait: null, textBoxes: box },
    );
    expect(signals.map((s) => s.type)).not.toContain('field_overwritten');
    expect(signals.map((s) => s.type)).not.toContain('font_inconsistency');
  });
});

describe('partial_document', () => {
  it('flags text cut by the frame, not text inside it', async () => {
    const doc = colourDocument();
    const cut = [{ field: 'mrz_1', side: 'front', x: 0, y: 300, w: 500, h: 30 }];
    const inside = [{ field: 'mrz_1', side: 'front', x: 40, y: 300, w: 500, h: 30 }];
    expect(await types(doc, { textBoxes: cut })).toContain('partial_document');
    expect(await types(doc, { textBoxes: inside })).not.toContain('partial_document');
  });
});

describe('portrait_edge', () => {
  const face: FaceBox = { x: 120, y: 140, w: 100, h: 110, score: 0.9, landmarks: [] };
  it('flags a flat photo pasted over the security print, not a portrait printed under it', async () => {
    const doc = colourDocument(640, 480, 5);
    // Pasted: a flat, noise-free rectangle with hard edges around the face.
    const pasted = mapPixels(doc, (x, y, px) =>
      x >= 70 && x < 270 && y >= 80 && y < 420 ? [160, 160, 165] : px,
    );
    // Printed: the portrait's tone blends in and the guilloche continues over it.
    const printed = mapPixels(doc, (x, y, px) => {
      const d = Math.hypot((x - 170) / 100, (y - 250) / 170);
      const k = Math.max(0, 1 - d) * 0.5;
      return px.map((v) => v * (1 - k) + 160 * k) as [number, number, number];
    });
    const signals = (await detectTamper({ front: pasted }, { layout: 'td3', portrait: face })).signals;
    expect(signals.find((s) => s.type === 'portrait_edge')?.severity).toBe('high');
    expect(
      (await detectTamper({ front: printed }, { layout: 'td3', portrait: face })).signals.map((s) => s.type),
    ).not.toContain('portrait_edge');
  });

  it('does not read an overexposed capture, its paper clipped white, as a photo cut out', async () => {
    // A genuine page: a photo (grain of a photograph) printed on light paper that carries a fine
    // print of its own, as textured as the photo, so no side shows a texture break.
    const noise = rng(11);
    const page = mapPixels(colourDocument(640, 480, 5), (x, y) => {
      const photo = x >= 70 && x < 270 && y >= 80 && y < 420;
      const v = photo ? 140 + (noise() - 0.5) * 24 : 222 + (noise() - 0.5) * 16;
      return [v, v, v + 4];
    });
    const edgeSigns = async (front: typeof page) =>
      (await detectTamper({ front }, { layout: 'td3', portrait: face })).signals.filter(
        (s) => s.type === 'portrait_edge',
      );
    expect(await edgeSigns(page)).toEqual([]);
    // The same page photographed 50 % too bright: the paper clips to flat white around the photo
    // (its print gone), the photo keeps its grain. The step and the straight sides remain, the
    // texture break is the clipping's, not a cut's.
    const bright = mapPixels(page, (_x, _y, px) => px.map((v) => v * 1.5) as [number, number, number]);
    expect(await edgeSigns(bright)).toEqual([]);
  });
});

/**
 * A field on a line tilted by `tilt` radians, as the reading step passes it: its quad along the
 * text. Glyph k is 16 px wide, 22 px tall (capitals), except: `tall` (taller by 8 px), `marks`
 * (mid-height marks 10 px tall, like the MRZ filler '<'), and `shrink` (each glyph `shrink` px
 * shorter than the previous one, like text receding on a photo taken at an angle).
 */
function tiltedField(opts: {
  tilt: number;
  tall?: number;
  short?: number;
  marks?: number[];
  shrink?: number;
  field?: string;
  patch?: 'value' | 'entry_field';
}) {
  const cx = 320;
  const cy = 200;
  const [c, s] = [Math.cos(opts.tilt), Math.sin(opts.tilt)];
  const x0 = -200;
  const top = -22; // the field's quad spans v ∈ [-22, 15], glyphs stand on v = 11
  const bottomEdge = 15;
  const toLine = (x: number, y: number): [number, number] => [
    (x - cx) * c + (y - cy) * s,
    -(x - cx) * s + (y - cy) * c,
  ];
  const toImage = (u: number, v: number): [number, number] => [cx + u * c - v * s, cy + u * s + v * c];
  const clean = mapPixels(colourDocument(640, 400, 13), (_x, _y, px) => (px[0] < 60 ? [200, 188, 212] : px));
  const image = mapPixels(clean, (x, y, px) => {
    const [u, v] = toLine(x, y);
    const k = Math.floor((u - x0) / 24);
    let height = 22 - (opts.shrink ?? 0) * k;
    let bottom = 11;
    if (k === opts.tall) height += 8;
    if (k === opts.short) height -= 7;
    if (opts.marks?.includes(k)) {
      height = 10;
      bottom = 5;
    }
    const inGlyph = k >= 0 && k < 16 && (u - x0) % 24 < 16;
    if (inGlyph && v <= bottom && v > bottom - height) return [28, 28, 36];
    // White behind the value: a patch over the value alone (correction fluid, a filled
    // rectangle), or an entry field of a form that runs on along the line past the value.
    const reach = opts.patch === 'entry_field' ? 420 : 0;
    if (opts.patch && v > -24 && v < 17 && u > x0 - 10 && u < x0 + 16 * 24 + 4 + reach)
      return [250, 250, 248];
    return px;
  });
  const quad = [
    toImage(x0 - 6, top),
    toImage(x0 + 16 * 24, top),
    toImage(x0 + 16 * 24, bottomEdge),
    toImage(x0 - 6, bottomEdge),
  ];
  return { image, boxes: [{ field: opts.field ?? 'mrz_1', side: 'front', quad, confidence: 0.95 }] };
}

describe('font_inconsistency on field boxes given by their quad (tilted photos)', () => {
  it('stays quiet on a clean field tilted by 12°, which an axis-aligned crop cannot measure', async () => {
    const { image, boxes } = tiltedField({ tilt: 0.21 });
    expect(await types(image, { textBoxes: boxes })).not.toContain('font_inconsistency');
  });
  it('flags one glyph of another size on the same tilted field', async () => {
    const { image, boxes } = tiltedField({ tilt: 0.21, tall: 9 });
    const { signals } = await detectTamper(
      { front: image },
      { layout: 'td3', portrait: null, textBoxes: boxes },
    );
    expect(signals.find((s) => s.type === 'font_inconsistency')?.field).toBe('mrz_1');
  });
  it('does not take mid-height marks (the MRZ filler) for glyphs of a smaller font', async () => {
    const { image, boxes } = tiltedField({ tilt: -0.1, marks: [3, 8, 9, 10, 14] });
    expect(await types(image, { textBoxes: boxes })).not.toContain('font_inconsistency');
  });
  it('tolerates text shrinking steadily along the line (perspective), not a sudden change', async () => {
    const receding = tiltedField({ tilt: 0.05, shrink: 0.5 });
    expect(await types(receding.image, { textBoxes: receding.boxes })).not.toContain('font_inconsistency');
    const sudden = tiltedField({ tilt: 0.05, shrink: 0.5, tall: 12 });
    expect(await types(sudden.image, { textBoxes: sudden.boxes })).toContain('font_inconsistency');
  });
});

describe('text-field signs outside the MRZ, on tilted field boxes', () => {
  it('flags a shorter glyph standing on the baseline of a document number, not mid-height marks', async () => {
    const short = tiltedField({ tilt: 0.12, short: 6, field: 'document_number' });
    expect(await types(short.image, { textBoxes: short.boxes })).toContain('font_inconsistency');
    const marks = tiltedField({ tilt: 0.12, marks: [5, 11], field: 'document_number' });
    expect(await types(marks.image, { textBoxes: marks.boxes })).not.toContain('font_inconsistency');
  });
  it('flags a white patch over the value alone, not a white entry field running on along the line', async () => {
    const patched = tiltedField({ tilt: 0.12, field: 'surname', patch: 'value' });
    expect(await types(patched.image, { textBoxes: patched.boxes })).toContain('field_overwritten');
    const form = tiltedField({ tilt: 0.12, field: 'surname', patch: 'entry_field' });
    expect(await types(form.image, { textBoxes: form.boxes })).not.toContain('field_overwritten');
    const clean = tiltedField({ tilt: 0.12, field: 'surname' });
    expect(await types(clean.image, { textBoxes: clean.boxes })).not.toContain('field_overwritten');
  });
  it('reads a box given by its quad alone (the reading step field boxes)', () => {
    const [box] = parseTextBoxes([
      {
        field: 'surname',
        side: 'front',
        confidence: 0.9,
        quad: [
          [10, 20],
          [110, 30],
          [108, 50],
          [8, 40],
        ],
      },
    ]);
    expect(box).toMatchObject({ x: 8, y: 20, w: 102, h: 30, confidence: 0.9 });
    expect(parseTextBoxes([{ field: 'surname', side: 'front', quad: [[1, 2]] }])).toEqual([]);
  });
});
