import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { normalizeImage } from '../../src/image/normalize.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { VALUE_WEIGHT_DEVIATION, weightOutliers } from '../../src/tamper/value-weight.ts';

/**
 * A value typed again in another weight: the page's values are DejaVu Sans Bold, the forger's
 * one is typed at the regular weight (or in another face) at the same size.
 */

const VALUES = [
  { field: 'surname', text: 'OUEDRAOGO' },
  { field: 'given_names', text: 'ADAMA MOUSSA' },
  { field: 'date_of_birth', text: '12.03.1987' },
  { field: 'date_of_expiry', text: '04.11.2031' },
  { field: 'document_number', text: 'B1234567' },
];
const ROW = 70;
const SIZE = 36;

/** The values typed one per row; `retyped` names the one typed in `face` instead. */
async function page(retyped?: string, face = { family: 'DejaVu Sans', weight: 'normal' }) {
  const rows = VALUES.map((v, i) => {
    const f = v.field === retyped ? face : { family: 'DejaVu Sans', weight: 'bold' };
    return `<text x="30" y="${60 + i * ROW}" font-family="${f.family}" font-weight="${f.weight}" font-size="${SIZE}">${v.text}</text>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="${40 + VALUES.length * ROW}"><rect width="100%" height="100%" fill="rgb(236,232,222)"/><g fill="rgb(24,24,28)">${rows}</g></svg>`;
  return normalizeImage(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));
}

async function overwritten(image: Awaited<ReturnType<typeof page>>) {
  const textBoxes = VALUES.map((v, i) => ({
    field: v.field,
    side: 'front',
    x: 20,
    y: 60 + i * ROW - 38,
    w: 580,
    h: 52,
  }));
  const { signals } = await detectTamper(
    { front: image },
    { layout: 'td1', portrait: null, textBoxes, lineBoxes: [] },
  );
  return signals.filter((s) => s.type === 'field_overwritten');
}

describe('field_overwritten: a value of another weight', () => {
  it('raises nothing when every value is of the page’s weight', async () => {
    expect(await overwritten(await page())).toEqual([]);
  });

  it('flags a date typed again at the regular weight, as a review', async () => {
    const signs = await overwritten(await page('date_of_birth'));
    expect(signs).toHaveLength(1);
    expect(signs[0]).toMatchObject({ field: 'date_of_birth', severity: 'medium' });
  });

  it('flags a name typed again in a serif face', async () => {
    const signs = await overwritten(await page('surname', { family: 'DejaVu Serif', weight: 'normal' }));
    expect(signs.map((s) => s.field)).toEqual(['surname']);
  });

  it('raises nothing with the cue switched off', async () => {
    process.env.IDV_TAMPER_VALUE_WEIGHT = '0';
    try {
      expect(await overwritten(await page('date_of_birth'))).toEqual([]);
    } finally {
      delete process.env.IDV_TAMPER_VALUE_WEIGHT;
    }
  });

  it('judges a value against at least three others, either way, from its bar', () => {
    const side = 'front' as const;
    const values = (weights: number[]) => weights.map((weight, i) => ({ field: `v${i}`, side, weight }));
    const over = 0.2 * (1 + VALUE_WEIGHT_DEVIATION + 0.01);
    const under = 0.2 / (1 + VALUE_WEIGHT_DEVIATION + 0.01);
    expect(weightOutliers(values([0.2, 0.2, 0.2, over])).map((o) => o.field)).toEqual(['v3']);
    expect(weightOutliers(values([0.2, 0.2, 0.2, under])).map((o) => o.field)).toEqual(['v3']);
    expect(weightOutliers(values([0.2, 0.2, 0.2, 0.2 * (1 + VALUE_WEIGHT_DEVIATION - 0.01)]))).toEqual([]);
    // Two others only: no median to trust.
    expect(weightOutliers(values([0.2, 0.2, over]))).toEqual([]);
    // Another side's values are not company.
    expect(weightOutliers([...values([0.2, 0.2, over]), { field: 'b', side: 'back', weight: 0.2 }])).toEqual(
      [],
    );
    expect(weightOutliers(values([0.2, 0.2, 0.2, 1]))[0]!.strength).toBe(0.49);
    // Letters drawn as outlines (a specimen overprint) are not a value's face: not weighed.
    expect(weightOutliers(values([0.165, 0.165, 0.17, 0.045]))).toEqual([]);
  });
});
