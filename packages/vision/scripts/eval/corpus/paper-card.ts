import sharp from 'sharp';
import type { RgbImage } from '../../../src/image/raster.ts';
import type { Rng } from './rng.ts';
import type { GenuineSource } from './types.ts';

/**
 * Niger's older paper identity card, drawn independently from the spec's description, several
 * ways: a single tinted page, taller than wide, no MRZ, a glued photo (often black and white),
 * the number on the right, and what such cards always carry: an ink stamp across the photo, a
 * fiscal stamp, a signature and handwriting in ballpoint ink, wear and stains. Few colours,
 * paper: exactly what a photocopy detector must not mistake for a copy.
 */
const TINTS = ['#eef0dc', '#f1e9d8', '#e9eee6', '#f3ecea', '#ecebe2', '#f4f1e4'];
const INKS = ['#4a3b8f', '#2f4f9f', '#6b3a7a', '#7a2f3a'];

export async function drawPaperCard(rng: Rng, name: string): Promise<GenuineSource> {
  const width = Math.round(rng.between(760, 900));
  const height = Math.round(width * rng.between(1.35, 1.5));
  const tint = rng.pick(TINTS);
  const ink = rng.pick(INKS);
  const pen = rng.pick(['#1d2f8a', '#16306e', '#222222']);
  const photoLeft = rng.next() < 0.5;
  const pw = Math.round(width * rng.between(0.26, 0.32));
  const ph = Math.round(pw * 1.28);
  const px = photoLeft ? Math.round(width * 0.08) : width - pw - Math.round(width * 0.08);
  const py = Math.round(height * rng.between(0.2, 0.3));
  const colourPhoto = rng.next() < 0.4;
  const skin = colourPhoto ? '#b98a6c' : '#8a8a8a';
  const fields: GenuineSource['boxes']['fields'] = [];
  const parts: string[] = [];
  const t = (x: number, y: number, size: number, s: string, extra = '') =>
    parts.push(
      `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" fill="#1b1b1b" ${extra}>${s}</text>`,
    );
  // A faint printed frame and header (one or two print colours on such cards).
  const print = rng.pick(['#6f8f6a', '#7d6a55', '#5f7391']);
  parts.push(
    `<rect x="20" y="20" width="${width - 40}" height="${height - 40}" fill="none" stroke="${print}" stroke-width="3"/>`,
  );
  t(Math.round(width * 0.18), 75, 30, 'REPUBLIQUE DU NIGER', 'font-weight="bold"');
  t(Math.round(width * 0.14), 125, 26, "CARTE D'IDENTITE NATIONALE");
  // The photo: a head and shoulders on a plain background.
  const bg = colourPhoto ? '#c9d3dc' : '#cfcfcf';
  parts.push(`<rect x="${px}" y="${py}" width="${pw}" height="${ph}" fill="${bg}"/>`);
  parts.push(
    `<ellipse cx="${px + pw / 2}" cy="${py + ph * 0.4}" rx="${pw * 0.22}" ry="${ph * 0.2}" fill="${skin}"/>`,
  );
  parts.push(
    `<rect x="${px + pw * 0.15}" y="${py + ph * 0.62}" width="${pw * 0.7}" height="${ph * 0.38}" fill="${colourPhoto ? '#33415e' : '#3a3a3a'}"/>`,
  );
  // Printed labels, handwritten or typed values.
  const textX = photoLeft ? px + pw + 30 : 60;
  const values = ['DIALLO', 'AMINATA', '12 AVRIL 1987', 'F', 'NIAMEY', '25 AVRIL 2021'];
  const labels = ['Nom', 'Prénoms', 'Né(e) le', 'Sexe', 'à', 'Fait le'];
  labels.forEach((label, i) => {
    const y = py + 20 + i * Math.round(height * 0.075);
    t(textX, y, 22, `${label} :`);
    const vx = textX + 130;
    const size = 26;
    parts.push(
      `<text x="${vx}" y="${y}" font-family="${rng.pick(['DejaVu Sans', 'DejaVu Serif'])}" font-style="italic" font-size="${size}" fill="${pen}">${values[i]}</text>`,
    );
    fields.push({
      field: `value_${i}`,
      box: { x: vx, y: y - size * 0.8, w: values[i]!.length * size * 0.62, h: size },
    });
  });
  t(Math.round(width * 0.55), Math.round(height * 0.17), 24, 'N° 00123/2021', 'font-weight="bold"');
  // Signature and scribbles in ballpoint.
  const sy = Math.round(height * rng.between(0.78, 0.86));
  let d = `M ${width * 0.55} ${sy}`;
  for (let i = 0; i < 8; i++)
    d += ` q ${rng.between(5, 25)} ${rng.between(-30, 30)} ${rng.between(15, 35)} ${rng.between(-10, 10)}`;
  parts.push(`<path d="${d}" stroke="${pen}" stroke-width="2.5" fill="none"/>`);
  // The ink stamp across the photo's corner and the fiscal stamp.
  const cx = photoLeft ? px + pw : px;
  parts.push(
    `<circle cx="${cx}" cy="${py + ph * 0.85}" r="${pw * 0.38}" fill="none" stroke="${ink}" stroke-width="5" opacity="${rng.between(0.5, 0.85).toFixed(2)}"/>`,
  );
  parts.push(
    `<circle cx="${cx}" cy="${py + ph * 0.85}" r="${pw * 0.26}" fill="none" stroke="${ink}" stroke-width="2" opacity="0.6"/>`,
  );
  if (rng.next() < 0.75) {
    const fx = Math.round(width * rng.between(0.08, 0.3));
    const fy = Math.round(height * rng.between(0.8, 0.86));
    parts.push(
      `<rect x="${fx}" y="${fy}" width="110" height="130" fill="${rng.pick(['#d9a441', '#8fb36b', '#c46a6a'])}"/>`,
    );
    parts.push(
      `<rect x="${fx + 12}" y="${fy + 12}" width="86" height="106" fill="none" stroke="#4b3b20" stroke-width="2"/>`,
    );
  }
  // Wear: stains and a fold line.
  for (let i = 0; i < 3; i++) {
    parts.push(
      `<ellipse cx="${rng.between(0, width)}" cy="${rng.between(0, height)}" rx="${rng.between(20, 90)}" ry="${rng.between(20, 90)}" fill="#8a6a3a" opacity="${rng.between(0.03, 0.08).toFixed(2)}"/>`,
    );
  }
  parts.push(
    `<line x1="0" y1="${height / 2}" x2="${width}" y2="${height / 2 + rng.between(-8, 8)}" stroke="#9a9382" stroke-width="2" opacity="0.4"/>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${tint}"/>${parts.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .flatten({ background: tint })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: RgbImage = {
    rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
  return { name, image, layout: 'niger_paper_card', boxes: { fields } };
}
