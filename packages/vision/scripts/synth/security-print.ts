import type { LayoutSpec } from './layouts.ts';
import type { Rng } from './random.ts';

/**
 * Backgrounds and security print as SVG: guilloche curves, waves, rosettes, gradients, paper
 * texture; and the things found on real documents that are neither text nor portrait (chip,
 * flag band, QR code, stamps, fiscal stamp, fingerprint, signature). Drawn under the text so
 * that the reader has to cope with them.
 */

function guilloche(w: number, h: number, color: string, r: Rng): string {
  const paths: string[] = [];
  const n = r.int(14, 22);
  const freq = r.range(3, 7);
  for (let k = 0; k < n; k++) {
    const phase = (k / n) * Math.PI * 2;
    const amp = h * r.range(0.08, 0.16);
    const cy = h * (0.2 + 0.6 * ((k * 0.37) % 1));
    let d = '';
    for (let x = 0; x <= w; x += 8) {
      const y =
        cy +
        amp * Math.sin((x / w) * Math.PI * 2 * freq + phase) * Math.cos((x / w) * Math.PI * 3 + phase / 2);
      d += `${x === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`;
    }
    paths.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.2" opacity="0.55"/>`);
  }
  return paths.join('');
}

function waves(w: number, h: number, color: string, r: Rng): string {
  const paths: string[] = [];
  const pitch = r.range(9, 16);
  const amp = r.range(4, 10);
  const period = r.range(60, 140);
  for (let y0 = 0; y0 < h + pitch; y0 += pitch) {
    let d = '';
    for (let x = 0; x <= w; x += 10)
      d += `${x === 0 ? 'M' : 'L'}${x},${(y0 + amp * Math.sin((x / period) * 2 * Math.PI)).toFixed(1)}`;
    paths.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="0.9" opacity="0.45"/>`);
  }
  return paths.join('');
}

function rosette(w: number, h: number, color: string, r: Rng): string {
  const cx = w * r.range(0.55, 0.8);
  const cy = h * r.range(0.35, 0.65);
  const parts: string[] = [];
  const petals = r.int(9, 16);
  for (let k = 0; k < 36; k++) {
    const rad = Math.min(w, h) * (0.12 + 0.012 * k);
    let d = '';
    for (let a = 0; a <= 360; a += 4) {
      const t = (a * Math.PI) / 180;
      const rr = rad * (1 + 0.08 * Math.sin(petals * t + k * 0.3));
      d += `${a === 0 ? 'M' : 'L'}${(cx + rr * Math.cos(t)).toFixed(1)},${(cy + rr * Math.sin(t)).toFixed(1)}`;
    }
    parts.push(`<path d="${d}Z" fill="none" stroke="${color}" stroke-width="0.8" opacity="0.5"/>`);
  }
  return parts.join('');
}

function paperTexture(w: number, h: number, color: string, r: Rng): string {
  // Fibres and stains of a folded, handled page.
  const parts: string[] = [];
  for (let k = 0; k < 140; k++) {
    const x = r.range(0, w);
    const y = r.range(0, h);
    const len = r.range(4, 18);
    const a = r.range(0, Math.PI);
    parts.push(
      `<line x1="${x.toFixed(1)}" y1="${y.toFixed(1)}" x2="${(x + len * Math.cos(a)).toFixed(1)}" y2="${(y + len * Math.sin(a)).toFixed(1)}" stroke="${color}" stroke-width="0.8" opacity="0.5"/>`,
    );
  }
  for (let k = 0; k < 3; k++)
    parts.push(
      `<ellipse cx="${r.range(0, w).toFixed(0)}" cy="${r.range(0, h).toFixed(0)}" rx="${r.range(30, 120).toFixed(0)}" ry="${r.range(20, 90).toFixed(0)}" fill="${color}" opacity="${r.range(0.08, 0.2).toFixed(2)}"/>`,
    );
  // A fold line across the page.
  const fy = h * r.range(0.45, 0.55);
  parts.push(
    `<line x1="0" y1="${fy}" x2="${w}" y2="${fy + r.range(-6, 6)}" stroke="#8a7a5a" stroke-width="1.5" opacity="0.35"/>`,
  );
  return parts.join('');
}

/**
 * Dense fine-line security print over the whole page, as passports and ID cards print it: two
 * families of thin wavy lines 3–6 layout px apart (0.2–0.4 mm on a card drawn 1000 px wide)
 * crossing at a small angle, so their interference draws the moiré rosettes real pages show.
 * The generator's own backgrounds are sparse (a few curves far apart); cues that read the
 * texture around a field (an in-painted band, a seam) need this density to be judged at all.
 * Evaluation only (`GenerateOptions.densePrint`, the colour cards' `dense`): the reading
 * benchmark's documents stay as they are.
 */
export function densePrintSvg(w: number, h: number, color: string, r: Rng): string {
  const paths: string[] = [];
  const width = r.range(0.45, 0.8).toFixed(2);
  const opacity = r.range(0.35, 0.6).toFixed(2);
  for (let family = 0; family < 2; family++) {
    const pitch = r.range(3, 6);
    const amp = r.range(2, 9);
    const period = r.range(40, 160);
    // The second family slopes against the first: it rises or falls by up to a tenth of the
    // page's width across it.
    const slope = family === 0 ? 0 : r.range(-0.1, 0.1);
    const phase = r.range(0, Math.PI * 2);
    const drift = r.range(0.5, 2);
    const start = -Math.abs(slope) * w - amp;
    for (let y0 = start; y0 < h + amp + Math.abs(slope) * w; y0 += pitch) {
      let d = '';
      for (let x = 0; x <= w; x += 5) {
        const y =
          y0 + slope * x + amp * Math.sin((x / period) * 2 * Math.PI + phase + (y0 / h) * drift * Math.PI);
        d += `${x === 0 ? 'M' : 'L'}${x},${y.toFixed(1)}`;
      }
      paths.push(d);
    }
  }
  return `<path d="${paths.join('')}" fill="none" stroke="${color}" stroke-width="${width}" opacity="${opacity}"/>`;
}

export function backgroundSvg(spec: LayoutSpec, r: Rng): string {
  const { width: w, height: h, palette } = spec;
  const base = `<rect width="${w}" height="${h}" fill="${palette.paper}"/>`;
  switch (spec.background) {
    case 'plain':
      return base;
    case 'guilloche':
      return base + guilloche(w, h, palette.print, r);
    case 'waves':
      return base + waves(w, h, palette.print, r);
    case 'rosette':
      return base + rosette(w, h, palette.print, r) + waves(w, h * 0.25, palette.print, r);
    case 'paper':
      return base + paperTexture(w, h, palette.print, r);
    case 'gradient':
      return (
        `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.paper}"/><stop offset="1" stop-color="${palette.print}"/></linearGradient></defs>` +
        `<rect width="${w}" height="${h}" fill="url(#g)"/>` +
        guilloche(w, h, palette.accent, r)
      );
  }
}

function qr(x: number, y: number, size: number, r: Rng): string {
  const n = 25;
  const cell = size / n;
  const parts = [
    `<rect x="${x - cell}" y="${y - cell}" width="${size + 2 * cell}" height="${size + 2 * cell}" fill="#fff"/>`,
  ];
  const finder = (fx: number, fy: number) =>
    `<rect x="${x + fx * cell}" y="${y + fy * cell}" width="${7 * cell}" height="${7 * cell}" fill="#000"/><rect x="${x + (fx + 1) * cell}" y="${y + (fy + 1) * cell}" width="${5 * cell}" height="${5 * cell}" fill="#fff"/><rect x="${x + (fx + 2) * cell}" y="${y + (fy + 2) * cell}" width="${3 * cell}" height="${3 * cell}" fill="#000"/>`;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const inFinder = (i < 8 && j < 8) || (i < 8 && j >= n - 8) || (i >= n - 8 && j < 8);
      if (!inFinder && r.chance(0.5))
        parts.push(
          `<rect x="${(x + j * cell).toFixed(1)}" y="${(y + i * cell).toFixed(1)}" width="${cell.toFixed(2)}" height="${cell.toFixed(2)}" fill="#000"/>`,
        );
    }
  parts.push(finder(0, 0), finder(n - 7, 0), finder(0, n - 7));
  return parts.join('');
}

function stamp(cx: number, cy: number, rad: number, r: Rng): string {
  const color = r.pick(['#3340a0', '#7a2a8a', '#a03030']);
  const rot = r.range(-30, 30).toFixed(0);
  return `<g transform="rotate(${rot} ${cx} ${cy})" opacity="0.55"><circle cx="${cx}" cy="${cy}" r="${rad}" fill="none" stroke="${color}" stroke-width="4"/><circle cx="${cx}" cy="${cy}" r="${rad * 0.72}" fill="none" stroke="${color}" stroke-width="2"/><text x="${cx}" y="${cy + rad * 0.12}" font-family="DejaVu Sans" font-size="${rad * 0.3}" font-weight="bold" text-anchor="middle" fill="${color}">NIGER</text></g>`;
}

function fingerprint(cx: number, cy: number, rad: number): string {
  const parts: string[] = [];
  for (let k = 1; k < 12; k++)
    parts.push(
      `<ellipse cx="${cx}" cy="${cy}" rx="${(rad * k) / 12}" ry="${(rad * 1.3 * k) / 12}" fill="none" stroke="#2a2a3a" stroke-width="2.2" opacity="0.6"/>`,
    );
  return parts.join('');
}

function signature(x: number, y: number, w: number, r: Rng): string {
  let d = `M${x},${y}`;
  for (let k = 1; k <= 10; k++)
    d += ` Q${x + (w * (k - 0.5)) / 10},${y + r.range(-25, 25)} ${x + (w * k) / 10},${y + r.range(-10, 10)}`;
  return `<path d="${d}" fill="none" stroke="#1a237e" stroke-width="2.5" opacity="0.8"/>`;
}

/**
 * Extras placed where the layout leaves room: the QR code top right of a card back, a flag band
 * on the left edge, stamps and the fiscal stamp on the paper card's lower part.
 */
export function extrasSvg(spec: LayoutSpec, r: Rng): string {
  const { width: w, height: h } = spec;
  const out: string[] = [];
  for (const e of spec.extras) {
    switch (e) {
      case 'qr':
        out.push(qr(w - 210, 40, 170, r));
        break;
      case 'flag': {
        const colors = r.pick([
          ['#e05a00', '#ffffff', '#0d8f3f'],
          ['#14b53a', '#fcd116', '#ce1126'],
          ['#ef2b2d', '#009e49', '#fcd116'],
        ]);
        colors.forEach((c, i) => {
          out.push(`<rect x="0" y="${(i * h) / 3}" width="14" height="${h / 3}" fill="${c}" opacity="0.9"/>`);
        });
        break;
      }
      case 'chip':
        out.push(
          `<rect x="${w - 170}" y="${h - 230}" width="110" height="85" rx="12" fill="#d4b35f" stroke="#8a6d23" stroke-width="3"/><path d="M${w - 170},${h - 188} H${w - 60} M${w - 115},${h - 230} V${h - 145}" stroke="#8a6d23" stroke-width="3"/>`,
        );
        break;
      case 'stamp':
        out.push(stamp(w * r.range(0.2, 0.45), h * r.range(0.82, 0.9), r.range(55, 80), r));
        break;
      case 'fingerprint':
        out.push(fingerprint(w * 0.82, h * 0.88, 45));
        break;
      case 'fiscal':
        out.push(
          `<g transform="rotate(${r.range(-8, 8).toFixed(1)} ${w * 0.62} ${h * 0.9})"><rect x="${w * 0.55}" y="${h * 0.85}" width="110" height="80" fill="#e8c7d0" stroke="#7a3050" stroke-width="2" stroke-dasharray="4 3"/><text x="${w * 0.55 + 55}" y="${h * 0.85 + 48}" font-family="DejaVu Serif" font-size="22" text-anchor="middle" fill="#7a3050">500 F</text></g>`,
        );
        break;
      case 'signature': {
        // Under the portrait on documents with an MRZ (the bottom is the MRZ's), else at the foot.
        const p = spec.mrz || spec.side !== 'page' ? spec.portrait : null;
        if (p) out.push(signature(p.x, p.y + p.h + 40, p.w, r));
        else out.push(signature(w * r.range(0.55, 0.7), h * r.range(0.8, 0.86), w * 0.25, r));
        break;
      }
    }
  }
  return out.join('');
}
