import sharp from 'sharp';
import { rng as synthRng } from '../../synth/random.ts';
import { densePrintSvg } from '../../synth/security-print.ts';
import { type Rng, seedOf } from './rng.ts';
import type { GenuineSource } from './types.ts';

/**
 * A synthetic colour ID card (ID-1 proportions): a tinted background with a guilloche of fine
 * coloured waves, a coloured emblem, a colour portrait, labels and values in black, a date and a
 * number. Genuine by construction, with its field boxes known exactly. Its drawn face is not a
 * face to the detector, so the corpus makes no portrait swaps from it.
 */
const PALETTES: [string, string, string][] = [
  ['#e3eef7', '#7fa7d1', '#c0504d'],
  ['#f4e8d8', '#c98f4f', '#3f7f5f'],
  ['#e6f2e6', '#5f9f6f', '#8f3f8f'],
  ['#f2e6ee', '#b86f9f', '#2f5f9f'],
];

/**
 * `dense`: fine-line print over the whole card (security-print.ts), from a stream of its own, so
 * the card is otherwise the one drawn without it.
 */
export async function drawColourCard(
  rng: Rng,
  name: string,
  opts: { dense?: boolean } = {},
): Promise<GenuineSource> {
  const width = 1200;
  const height = 760;
  const [bg, line, accent] = rng.pick(PALETTES);
  const parts: string[] = [];
  for (let k = 0; k < 40; k++) {
    const y0 = (k / 40) * height;
    const amp = rng.between(10, 40);
    const period = rng.between(80, 200);
    let d = `M 0 ${y0.toFixed(1)}`;
    for (let x = 0; x <= width; x += 20)
      d += ` L ${x} ${(y0 + amp * Math.sin((2 * Math.PI * x) / period + k)).toFixed(1)}`;
    parts.push(
      `<path d="${d}" stroke="${k % 3 ? line : accent}" stroke-width="1.2" fill="none" opacity="0.45"/>`,
    );
  }
  if (opts.dense) parts.push(densePrintSvg(width, height, line, synthRng(seedOf(`${name}:dense`))));
  parts.push(`<rect x="0" y="0" width="${width}" height="90" fill="${line}" opacity="0.8"/>`);
  parts.push(
    `<text x="40" y="60" font-family="DejaVu Sans" font-weight="bold" font-size="38" fill="#ffffff">REPUBLIC OF UTOPIA · IDENTITY CARD</text>`,
  );
  parts.push(`<circle cx="${width - 130}" cy="${height - 170}" r="80" fill="${accent}" opacity="0.55"/>`);
  parts.push(
    `<circle cx="${width - 130}" cy="${height - 170}" r="50" fill="none" stroke="${line}" stroke-width="6"/>`,
  );
  // Colour portrait: background, face, hair, clothes.
  parts.push('<rect x="50" y="140" width="300" height="380" fill="#b9cde0"/>');
  parts.push(
    `<ellipse cx="200" cy="300" rx="85" ry="105" fill="${rng.pick(['#c68c6a', '#8d5a3b', '#e0b59a'])}"/>`,
  );
  parts.push('<ellipse cx="200" cy="215" rx="95" ry="45" fill="#2b1d14"/>');
  parts.push(
    `<rect x="80" y="420" width="240" height="100" fill="${rng.pick(['#24395e', '#5e2424', '#2f4f2f'])}"/>`,
  );
  const fields: GenuineSource['boxes']['fields'] = [];
  const rows: [string, string, string][] = [
    ['Surname', 'surname', rng.pick(['DIALLO', 'MOUSSA', 'ISSOUFOU', 'GARBA'])],
    ['Given names', 'given_names', rng.pick(['AMINATA', 'IBRAHIM', 'FATI', 'OUSMANE'])],
    [
      'Date of birth',
      'date_of_birth',
      `${10 + Math.floor(rng.next() * 18)}.0${1 + Math.floor(rng.next() * 9)}.19${60 + Math.floor(rng.next() * 39)}`,
    ],
    ['Document number', 'document_number', `NE${Math.floor(1e6 + rng.next() * 8e6)}`],
    [
      'Date of expiry',
      'date_of_expiry',
      `0${1 + Math.floor(rng.next() * 9)}.11.20${30 + Math.floor(rng.next() * 9)}`,
    ],
  ];
  const size = 40;
  rows.forEach(([label, field, value], i) => {
    const y = 165 + i * 95;
    parts.push(`<text x="400" y="${y}" font-family="DejaVu Sans" font-size="22" fill="#333">${label}</text>`);
    parts.push(
      `<text x="400" y="${y + 48}" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" fill="#111">${value}</text>`,
    );
    // Capitals and digits of DejaVu Sans Bold: 0.73 em high, about 0.7 em wide each; the box has
    // the margin an OCR box has around them.
    fields.push({
      field,
      box: { x: 392, y: y + 48 - 0.92 * size, w: value.length * 0.72 * size + 16, h: 1.1 * size },
    });
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" rx="30" fill="${bg}"/>${parts.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .flatten({ background: bg })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    name,
    image: {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    },
    layout: 'unknown',
    boxes: { fields },
  };
}
