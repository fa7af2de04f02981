import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { addBlur, addGlare, addMarks } from '../../scripts/eval/corpus/hazards.ts';
import { drawPaperCard } from '../../scripts/eval/corpus/paper-card.ts';
import { phoneCaptureMapped } from '../../scripts/eval/corpus/phone-capture.ts';
import { decodeRgb, encodeJpeg } from '../../scripts/eval/corpus/raster-io.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { fieldFontDeviation, GLYPH_HEIGHT_TOLERANCE } from '../../src/tamper/font-consistency.ts';
import { glyphs, uprightField } from '../../src/tamper/glyphs.ts';
import { detectTamper, TAMPER_SIGNS } from '../../src/tamper/index.ts';

const SLOW = { timeout: 240_000 };

/**
 * A card prints its number after a label in a smaller face ("N° / No 4385…"), and the reading
 * step returns one box for the whole line: the label's lowercase and smaller capitals stand on
 * the number's baseline, further from the value than the box's one-line margin.
 */
async function numberLine(number: string): Promise<{
  image: Awaited<ReturnType<typeof normalizeImage>>;
  quad: [number, number][];
}> {
  const width = 760;
  const height = 70;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#dbeee8"/>
    <text x="14" y="50" font-family="DejaVu Sans" font-size="24" fill="#1b1b1b">N° / No</text>
    <text x="120" y="50" font-family="DejaVu Sans" font-weight="bold" font-size="36" fill="#151515">${number}</text>
  </svg>`;
  const png = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
  return {
    image: await normalizeImage(png),
    quad: [
      [0, 4],
      [width, 4],
      [width, height - 4],
      [0, height - 4],
    ],
  };
}

describe('font_inconsistency: a label glued to its value', () => {
  it('leaves the label out, and still sees a smaller digit inside the number', async () => {
    const genuine = await numberLine('43855424632391513');
    const box = { x: 0, y: 0, w: genuine.image.width, h: genuine.image.height, quad: genuine.quad };
    // The case the rule is for: glyphs left of the number, on its baseline, far shorter than it
    // (the former rule measured this box at 0.51, past the tolerance: a high sign).
    const crop = uprightField(genuine.image, genuine.quad);
    const heights = glyphs(crop)
      .filter((g) => g.x < 110 && g.w >= 0.2 * g.h)
      .map((g) => g.h);
    const tallest = Math.max(...glyphs(crop).map((g) => g.h));
    expect(Math.min(...heights)).toBeLessThan((1 - GLYPH_HEIGHT_TOLERANCE) * tallest);
    const judged = fieldFontDeviation(genuine.image, box, undefined, { paddedByHeight: true });
    expect(judged.height).not.toBeNull();
    expect(judged.height!).toBeLessThan(GLYPH_HEIGHT_TOLERANCE);

    // One digit at 0.72× the size inside the number: still judged, still flagged.
    const forged = await numberLine('43855424<tspan font-size="26">6</tspan>32391513');
    const measured = fieldFontDeviation(forged.image, { ...box, quad: forged.quad }, undefined, {
      paddedByHeight: true,
    });
    expect(measured.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);

    // A narrow digit substituted smaller next to the value's last glyph stands a word gap off
    // its neighbours (the generated corpus's case): still the value's, still flagged.
    const atEnd = await numberLine('NE38328<tspan font-size="26">1</tspan>1');
    const end = fieldFontDeviation(atEnd.image, { ...box, quad: atEnd.quad }, undefined, {
      paddedByHeight: true,
    });
    expect(end.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
  });
});

/**
 * The spec: on Niger's paper card glare, blur, wear, stamps and handwriting are normal and never
 * fail the tamper check alone. Cards drawn here, marked (an extra stamp across a value,
 * ballpoint over another, a fingerprint, stains, a crease), photographed, then a lamp's glare and
 * a blurred shot laid on the capture (scripts/eval/corpus/hazards.ts).
 */
describe('Niger paper card under glare, blur, stamps, handwriting and wear', () => {
  it('raises capture signs at most, never a tamper fail', SLOW, async () => {
    for (const seed of [31, 32]) {
      const rng = seededRng(seed);
      const card = await drawPaperCard(rng, `paper-hazards-${seed}`);
      const { bytes, map } = await phoneCaptureMapped(await addMarks(card, rng), rng);
      const [x0, y0] = map(0, 0);
      const [x1, y1] = map(card.image.width, card.image.height);
      const glared = addGlare(await decodeRgb(bytes), rng, { x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
      const upload = await encodeJpeg(await addBlur(glared, rng), 85);
      const front = await normalizeImage(upload);
      const { signals } = await detectTamper(
        { front, originals: { front: upload } },
        { layout: 'niger_paper_card', portrait: null },
      );
      // The hazards are there: the step sees the blur (and glare when the spot stays compact).
      expect(signals.map((s) => s.type)).toContain('blur');
      const fails = signals.filter((s) => TAMPER_SIGNS[s.type].maxEffect === 'fail' && s.severity === 'high');
      expect(fails).toEqual([]);
    }
  });
});
