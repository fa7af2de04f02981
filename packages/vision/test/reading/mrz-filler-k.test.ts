import { buildMrz, MRZ_LAYOUTS, type MrzFormat, mrzCheckDigit, parseMrz } from '@idv/core';
import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/image/raster.ts';
import type { ConstrainedLine } from '../../src/mrz/constrained-decode.ts';
import { restoreFillers } from '../../src/mrz/filler-k.ts';
import { MRZ_MODEL_PATH, mrzLineInput, mrzLinePosteriors } from '../../src/mrz/line-model.ts';
import { decodeMrzLines } from '../../src/mrz/model-read.ts';
import { escapeSvg, rasterizeSvg, wholeQuad } from '../support/mrz-page.ts';

/**
 * The filler '<' read as K (filler-k.ts). Lines drawn here in OCR-B whose fillers are drawn as
 * another printer's K-like chevron (thicker, with a stem through the tip), read by the project's
 * MRZ recogniser: the fillers come back as fillers; genuine K's in names stay K's; a wrongly
 * printed check digit still fails (a K and a '<' weigh the same in a check digit, so the rule
 * can never turn a failing MRZ valid).
 */

/** The system OCR-B's advance, em (measured); the chevron spans its cell as OCR-B's own '<' does. */
const ADVANCE = 0.72;

/** One line in OCR-B, its fillers drawn as a chevron with a stem through the tip (or OCR-B's own). */
async function renderLine(
  text: string,
  kLike: boolean,
  size = 40,
  stemHalf = 0.25,
  stemW = 0.06,
): Promise<RgbImage> {
  const width = Math.round(text.length * size * ADVANCE + size);
  const height = Math.round(size * 1.5);
  const x0 = size / 2;
  const base = Math.round(size * 1.1);
  const shown = kLike ? text.replace(/</g, ' ') : text;
  const cy = base - 0.385 * size;
  const glyphs = kLike
    ? [...text]
        .map((c, i) => {
          if (c !== '<') return '';
          const cell = x0 + i * ADVANCE * size;
          const tip = cell + 0.12 * size;
          const arm = cell + 0.56 * size;
          const half = 0.3 * size;
          const stem = stemHalf * size;
          return `<path d="M${arm} ${cy - half} L${tip} ${cy} L${arm} ${cy + half}" fill="none" stroke="#202020" stroke-width="${0.12 * size}"/><line x1="${tip}" y1="${cy - stem}" x2="${tip}" y2="${cy + stem}" stroke="#202020" stroke-width="${stemW * size}"/>`;
        })
        .join('')
    : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#ece6d8"/>
    <text x="${x0}" y="${base}" font-family="OCR B" font-size="${size}" fill="#202020" xml:space="preserve">${escapeSvg(shown)}</text>${glyphs}
  </svg>`;
  return rasterizeSvg(svg);
}

const whole = wholeQuad;

async function read(lines: string[], format: MrzFormat, kLike: boolean, stemHalf?: number, stemW?: number) {
  const inputs = [];
  for (const l of lines) {
    const img = await renderLine(l, kLike, 40, stemHalf, stemW);
    inputs.push(mrzLineInput(img, whole(img), { chars: l.length }));
  }
  return decodeMrzLines(await mrzLinePosteriors(inputs, MRZ_MODEL_PATH), format);
}

const CARD = buildMrz({
  format: 'TD1',
  documentCode: 'ID',
  issuingState: 'NER',
  nationality: 'NER',
  documentNumber: 'AB1234567',
  surname: 'KONE',
  givenNames: 'KARIM KADER',
  dateOfBirth: '880412',
  sex: 'M',
  dateOfExpiry: '320930',
});

/**
 * A decoded line: every K read at 0.9 with '<' as its alternative at `support[i]` (0 when
 * absent: no '<' alternative at all), every other character sure.
 */
function decodedLine(text: string, support: Record<number, number> = {}): ConstrainedLine {
  const positions = [...text].map((char, i) => {
    const s = support[i] ?? 0;
    return { char, prob: 0.9, alternatives: s > 0 ? [{ char: '<', prob: s }] : [] };
  });
  return { text, positions, logProb: 0 };
}

describe('fillers read as K, restored by the layout and the recogniser (restoreFillers)', () => {
  it('a K weighs what a filler weighs in a check digit: no check can tell them apart', () => {
    expect(mrzCheckDigit('AB12K<<')).toBe(mrzCheckDigit('AB12<<<'));
    expect(mrzCheckDigit('KKKKK')).toBe(mrzCheckDigit('<<<<<'));
  });

  it("turns optional data's K's standing among fillers back into fillers, when '<' had support", () => {
    const [l1, l2, l3] = CARD;
    const opt = MRZ_LAYOUTS.TD1.optionalData2!;
    const read = `${l2!.slice(0, opt.start)}<<K<<KK<<<<${l2!.slice(opt.end)}`;
    const s = opt.start;
    const supported = { [s + 2]: 0.05, [s + 5]: 0.03, [s + 6]: 0.2 };
    const out = restoreFillers([decodedLine(l1!), decodedLine(read, supported), decodedLine(l3!)], 'TD1');
    expect(out.lines[1]!.text).toBe(l2);
    // The K becomes the filler's alternative (a later vote still sees it).
    expect(out.lines[1]!.positions[s + 2]!.alternatives[0]).toEqual({ char: 'K', prob: 0.9 });
    // Without '<' support (the recogniser sure of a K) the K stays.
    const sure = restoreFillers([decodedLine(l1!), decodedLine(read), decodedLine(l3!)], 'TD1');
    expect(sure.lines[1]!.text).toBe(read);
  });

  it('leaves a K that touches content in optional data (content is not padding)', () => {
    const [l1, l2, l3] = CARD;
    const opt = MRZ_LAYOUTS.TD1.optionalData2!;
    const read = `${l2!.slice(0, opt.start)}A7K<<<<<<<<${l2!.slice(opt.end)}`;
    const out = restoreFillers(
      [decodedLine(l1!), decodedLine(read, { [opt.start + 2]: 0.3 }), decodedLine(l3!)],
      'TD1',
    );
    expect(out.lines[1]!.text).toBe(read);
  });

  it('restores the padding after the names and a missing separator, keeping genuine K names', () => {
    const truth = 'KONE<<KARIM<KADER<<<<<<<<<<<<<';
    // Padding K's, the '<<' read KK: all with '<' support; the genuine K's with none.
    const read = 'KONEKKKARIM<KADER<<K<<KK<<<<<<';
    const out = restoreFillers(
      [
        decodedLine(CARD[0]!),
        decodedLine(CARD[1]!),
        decodedLine(read, { 4: 0.3, 5: 0.25, 19: 0.05, 22: 0.04, 23: 0.03 }),
      ],
      'TD1',
    );
    expect(out.lines[2]!.text).toBe(truth);
  });

  it('keeps a name K the recogniser gave no real filler support (KONE<<KARIM, MALIK)', () => {
    const read = 'MALIK<<KARIM<KADER<<<<<<<<<<<<';
    const weak = { 4: 0.05, 7: 0.03, 13: 0.02 };
    const out = restoreFillers(
      [decodedLine(CARD[0]!), decodedLine(CARD[1]!), decodedLine(read, weak)],
      'TD1',
    );
    expect(out.lines[2]!.text).toBe(read);
  });

  it("reads a document code's K second as a filler only with '<' support at the names' bar", () => {
    const read = `IK${CARD[0]!.slice(2)}`;
    const lines = (support: number) => [
      decodedLine(read, { 1: support }),
      decodedLine(CARD[1]!),
      decodedLine(CARD[2]!),
    ];
    expect(restoreFillers(lines(0.3), 'TD1').lines[0]!.text).toBe(`I<${CARD[0]!.slice(2)}`);
    expect(restoreFillers(lines(0.05), 'TD1').lines[0]!.text).toBe(read);
  });

  it("takes a K the recogniser itself found less likely than '<' for a filler, anywhere", () => {
    const line = decodedLine(CARD[2]!);
    const at = 20;
    line.positions[at] = { char: 'K', prob: 0.03, alternatives: [{ char: '<', prob: 0.95 }] };
    line.text = `${CARD[2]!.slice(0, at)}K${CARD[2]!.slice(at + 1)}`;
    const out = restoreFillers([decodedLine(CARD[0]!), decodedLine(CARD[1]!), line], 'TD1');
    expect(out.lines[2]!.text).toBe(CARD[2]);
  });
});

describe('fillers drawn K-like, read by the MRZ recogniser', () => {
  it('reads the fillers of a card back as fillers, and its genuine K names as K', async () => {
    // A stem 0.3 em high and 0.06 em wide: the committed recogniser (stage 5) reads these fillers
    // as K's it gave '<' some support; with a wider stem (0.08) it is sure of some of them, and
    // nothing but the recogniser can tell those (training/mrz README, "Stage 6").
    const reading = await read(CARD, 'TD1', true, 0.3, 0.06);
    expect(reading).not.toBeNull();
    // The class reproduced: the decoder reads K's where fillers are printed...
    expect(reading!.decoded[0]!.text).not.toBe(CARD[0]);
    expect(reading!.decoded[1]!.text).not.toBe(CARD[1]);
    // ...and they are fillers again, in both optional-data fields and the names' padding.
    expect(reading!.lines[0]).toBe(CARD[0]);
    expect(reading!.lines[1]).toBe(CARD[1]);
    expect(reading!.lines[2]!.slice(17)).toBe(CARD[2]!.slice(17));
    // The genuine K's of KONE, KARIM and KADER stay.
    for (const at of [0, 6, 12]) expect(reading!.lines[2]![at]).toBe('K');
  });

  it('reads K-rich names printed with ordinary fillers exactly', async () => {
    const names = buildMrz({
      format: 'TD3',
      documentCode: 'P',
      issuingState: 'BFA',
      nationality: 'BFA',
      documentNumber: 'BK4417023',
      surname: 'KABORE',
      givenNames: 'KADIDIATOU KOUKA',
      dateOfBirth: '750101',
      sex: 'F',
      dateOfExpiry: '310612',
    });
    const reading = await read(names, 'TD3', false);
    expect(reading!.lines).toEqual(names);
  });

  it('leaves a wrongly printed check digit failing on a card whose fillers are K-like', async () => {
    const at = MRZ_LAYOUTS.TD1.dateOfBirthCheck.start;
    const line = [...CARD[1]!];
    line[at] = String((Number(line[at]) + 4) % 10);
    const printed = [CARD[0]!, line.join(''), CARD[2]!];
    const reading = await read(printed, 'TD1', true, 0.3, 0.08);
    expect(reading).not.toBeNull();
    expect(reading!.lines[1]!.slice(0, 15)).toBe(printed[1]!.slice(0, 15));
    const parsed = parseMrz(reading!.lines)!;
    expect(parsed.checks.find((c) => c.name === 'date_of_birth')!.valid).toBe(false);
    expect(parsed.valid).toBe(false);
  });
});
