import sharp from 'sharp';
import {
  apply,
  type Homography,
  homography,
  invert,
  type Point,
  type Quad,
  rectQuad,
  turnPoint,
} from './geometry.ts';
import type { Rng } from './random.ts';

/**
 * Phone-capture degradation of one document (or of a card's two sides side by side): the
 * document, possibly photocopied first (grey, halftone dots, toner specks), lies on a table,
 * is photographed at an angle (perspective, tilt, quarter turns of the phone), under uneven
 * light with a colour cast and sometimes glare, possibly from a screen-like grid (moiré), with
 * blur, sensor noise, low resolution (down to 300 px of card width) and JPEG compression.
 * Every step is seeded; the document's corners are carried through, so truth boxes can be too.
 */

export type Level = 'clean' | 'mild' | 'medium' | 'hard';

export interface CaptureParams {
  level: Level;
  /** Width of the (first) document in the photo, px, before quarter turns. */
  docWidth: number;
  /** Each corner moves by up to this share of the document width (perspective). */
  perspective: number;
  tiltDegrees: number;
  quarterTurns: 0 | 1 | 2 | 3;
  /** Background margin around the document(s), share of their size. */
  margin: number;
  photocopy: 'none' | 'gray' | 'halftone';
  /** Light falloff across the photo (0 none, 0.35 strong). */
  shading: number;
  /** Multiplicative gains per channel (white balance). */
  whiteBalance: [number, number, number];
  /** A bright specular spot: centre (share of the document), radius (share of its width), strength 0..1. */
  glare: { x: number; y: number; radius: number; strength: number } | null;
  /** Amplitude (0..0.2) of a fine interference grid, as a screen or a printer's screen leaves. */
  moire: number;
  blur: number;
  noise: number;
  jpegQuality: number;
  /** A flatbed scan (small, flat, square to the frame, tight white margins) instead of a photo. */
  scan?: boolean;
}

/**
 * A small flatbed scan, as users upload them (about 300x450 px for a card): flat and square to
 * the frame, on the scanner's white lid with a margin of a few pixels (the MRZ near the image's
 * edge), a little blur and noise, JPEG; sometimes scanned sideways or upside down.
 */
export function sampleScan(r: Rng, level: Level): CaptureParams {
  return {
    level,
    docWidth: r.range(280, 480),
    perspective: 0,
    tiltDegrees: r.normal() * 0.8,
    quarterTurns: r.chance(0.3) ? r.pick([1, 2, 3] as const) : 0,
    margin: r.range(0, 0.04),
    photocopy: 'none',
    shading: 0,
    whiteBalance: [1, 1, 1],
    glare: null,
    moire: 0,
    blur: r.chance(0.5) ? r.range(0.3, 0.6) : 0,
    noise: r.range(0.5, 2),
    jpegQuality: Math.round(r.range(75, 92)),
    scan: true,
  };
}

export function sampleCapture(r: Rng, level: Level): CaptureParams {
  const hardness = { clean: 0, mild: 1, medium: 2, hard: 3 }[level];
  const docWidth =
    level === 'clean'
      ? r.range(1100, 1600)
      : level === 'mild'
        ? r.range(800, 1400)
        : level === 'medium'
          ? r.range(550, 1100)
          : r.range(300, 700);
  const photocopy = hardness >= 2 && r.chance(0.25) ? r.pick(['gray', 'halftone'] as const) : 'none';
  return {
    level,
    docWidth,
    perspective: hardness === 0 ? 0 : r.range(0, 0.03 * hardness),
    tiltDegrees: hardness === 0 ? 0 : r.normal() * 2.5 * hardness,
    quarterTurns: hardness >= 1 && r.chance(0.12 + 0.04 * hardness) ? r.pick([1, 2, 3] as const) : 0,
    margin: r.range(0.06, 0.35),
    photocopy,
    shading: hardness === 0 ? 0 : r.range(0, 0.1 * hardness),
    whiteBalance:
      hardness === 0
        ? [1, 1, 1]
        : [
            1 + r.normal() * 0.03 * hardness,
            1 + r.normal() * 0.015 * hardness,
            1 + r.normal() * 0.03 * hardness,
          ],
    glare:
      hardness >= 1 && r.chance(0.12 * hardness)
        ? {
            x: r.range(0.1, 0.9),
            y: r.range(0.1, 0.9),
            radius: r.range(0.06, 0.2),
            strength: r.range(0.3, 0.85),
          }
        : null,
    moire: hardness >= 2 && r.chance(0.15) ? r.range(0.03, 0.04 * hardness) : 0,
    blur: hardness === 0 ? 0 : r.chance(0.5) ? r.range(0.3, 0.45 * hardness + 0.2) : 0,
    noise: hardness === 0 ? 0 : r.range(1, 3 * hardness),
    jpegQuality: hardness === 0 ? 95 : Math.round(r.range(92 - 8 * hardness, 96 - 4 * hardness)),
  };
}

export interface SourceDocument {
  rgb: Buffer;
  width: number;
  height: number;
}

export interface CaptureResult {
  image: Buffer;
  width: number;
  height: number;
  /** Maps a point of each source document (its own pixels) to the final photo. */
  maps: ((p: Point) => Point)[];
  /** Each document's corners in the photo. */
  quads: Quad[];
}

function luminance(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** A photocopy: grey, contrast pushed, colour security print mostly lost, toner specks; or halftone dots. */
function photocopy(doc: SourceDocument, mode: 'gray' | 'halftone', r: Rng): SourceDocument {
  const out = Buffer.alloc(doc.rgb.length);
  const period = r.range(3.2, 5);
  const angle = Math.PI / 4;
  const ca = Math.cos(angle);
  const sa = Math.sin(angle);
  for (let y = 0; y < doc.height; y++) {
    for (let x = 0; x < doc.width; x++) {
      const i = (y * doc.width + x) * 3;
      let l = luminance(doc.rgb[i]!, doc.rgb[i + 1]!, doc.rgb[i + 2]!);
      l = Math.min(255, Math.max(0, (l - 70) * 1.55));
      if (mode === 'halftone') {
        const u = ((x * ca + y * sa) / period) % 1;
        const v = ((-x * sa + y * ca) / period) % 1;
        const d = Math.hypot((u < 0 ? u + 1 : u) - 0.5, (v < 0 ? v + 1 : v) - 0.5) / Math.SQRT1_2;
        // A dot grows with darkness; smooth its edge over a tenth of the cell.
        const ink = 1 - l / 255;
        const t = Math.min(1, Math.max(0, (Math.sqrt(ink) - d) * 10 + 0.5));
        l = 255 * (1 - t) * 0.85 + l * 0.15;
      }
      if (r.next() < 0.0015) l = 30;
      out[i] = out[i + 1] = out[i + 2] = l;
    }
  }
  return { rgb: out, width: doc.width, height: doc.height };
}

function sampleBilinear(doc: SourceDocument, fx: number, fy: number, out: Float32Array): void {
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const ax = fx - x0;
  const ay = fy - y0;
  const x1 = Math.min(doc.width - 1, x0 + 1);
  const y1 = Math.min(doc.height - 1, y0 + 1);
  const cx0 = Math.max(0, x0);
  const cy0 = Math.max(0, y0);
  for (let c = 0; c < 3; c++) {
    const a = doc.rgb[(cy0 * doc.width + cx0) * 3 + c]!;
    const b = doc.rgb[(cy0 * doc.width + x1) * 3 + c]!;
    const d = doc.rgb[(y1 * doc.width + cx0) * 3 + c]!;
    const e = doc.rgb[(y1 * doc.width + x1) * 3 + c]!;
    out[c] = (a * (1 - ax) + b * ax) * (1 - ay) + (d * (1 - ax) + e * ax) * ay;
  }
}

/**
 * Photographs one or two documents (two: a card's front and back side by side, as users send
 * them in one picture).
 */
export async function capture(docs: SourceDocument[], p: CaptureParams, r: Rng): Promise<CaptureResult> {
  // Scale each document to its size in the photo first (a proper resampling filter), then warp.
  const first = docs[0]!;
  const scale = p.docWidth / first.width;
  let scaled: SourceDocument[] = [];
  for (const d of docs) {
    const w = Math.max(8, Math.round(d.width * scale));
    const h = Math.max(8, Math.round(d.height * scale));
    const rgb = await sharp(d.rgb, { raw: { width: d.width, height: d.height, channels: 3 } })
      .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
    scaled.push({ rgb, width: w, height: h });
  }
  if (p.photocopy !== 'none')
    scaled = scaled.map((d, k) => photocopy(d, p.photocopy as 'gray' | 'halftone', r.fork(10 + k)));

  // Place the documents side by side (or one above the other) on the table.
  const gap = Math.round(scaled[0]!.width * 0.06);
  const stacked = docs.length === 2 && r.chance(0.3);
  const totalW = stacked
    ? Math.max(...scaled.map((d) => d.width))
    : scaled.reduce((s, d) => s + d.width, 0) + gap * (scaled.length - 1);
  const totalH = stacked
    ? scaled.reduce((s, d) => s + d.height, 0) + gap * (scaled.length - 1)
    : Math.max(...scaled.map((d) => d.height));
  // A scan's margin may be a pixel or two: its text then runs close to the image's edge.
  const minMargin = p.scan ? 2 : 8;
  const marginX = Math.round(totalW * p.margin) + minMargin;
  const marginY = Math.round(totalH * p.margin) + minMargin;
  const W = totalW + 2 * marginX;
  const H = totalH + 2 * marginY;
  const theta = (p.tiltDegrees * Math.PI) / 180;
  const cx = W / 2;
  const cy = H / 2;
  const rot = ([x, y]: Point): Point => [
    cx + (x - cx) * Math.cos(theta) - (y - cy) * Math.sin(theta),
    cy + (x - cx) * Math.sin(theta) + (y - cy) * Math.cos(theta),
  ];
  const jitter = () => r.range(-1, 1) * p.perspective * p.docWidth;
  const homs: Homography[] = [];
  const quads: Quad[] = [];
  let offset = 0;
  for (const d of scaled) {
    const x0 = marginX + (stacked ? 0 : offset);
    const y0 = marginY + (stacked ? offset : 0);
    offset += (stacked ? d.height : d.width) + gap;
    const target = rectQuad(x0, y0, x0 + d.width, y0 + d.height).map(([x, y]) => {
      const [u, v] = rot([x, y]);
      return [u + jitter(), v + jitter()] as Point;
    }) as Quad;
    homs.push(homography(rectQuad(0, 0, d.width, d.height), target));
    quads.push(target);
  }

  // The table: a colour, a slow gradient and grain.
  const picked = r.pick([
    [92, 100, 112],
    [140, 110, 80],
    [200, 200, 195],
    [40, 42, 48],
    [170, 150, 120],
    [230, 228, 222],
  ]);
  const table = p.scan ? [246, 246, 244] : picked;
  const out = new Float32Array(W * H * 3);
  const gx = r.range(-0.25, 0.25);
  const gy = r.range(-0.25, 0.25);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const f = 1 + gx * (x / W - 0.5) + gy * (y / H - 0.5);
      const i = (y * W + x) * 3;
      const grain = (((x * 7919 + y * 104729) ^ (x * y)) & 15) - 7.5;
      for (let c = 0; c < 3; c++) out[i + c] = table[c]! * f + grain;
    }

  // Documents: inverse-map every pixel of each quad's bounding box.
  const px = new Float32Array(3);
  for (const [k, d] of scaled.entries()) {
    const inv = invert(homs[k]!);
    const q = quads[k]!;
    const xs = q.map((c) => c[0]);
    const ys = q.map((c) => c[1]);
    const bx0 = Math.max(0, Math.floor(Math.min(...xs)));
    const bx1 = Math.min(W - 1, Math.ceil(Math.max(...xs)));
    const by0 = Math.max(0, Math.floor(Math.min(...ys)));
    const by1 = Math.min(H - 1, Math.ceil(Math.max(...ys)));
    for (let y = by0; y <= by1; y++)
      for (let x = bx0; x <= bx1; x++) {
        const [u, v] = apply(inv, [x + 0.5, y + 0.5]);
        const fx = u - 0.5;
        const fy = v - 0.5;
        if (fx < -0.5 || fy < -0.5 || fx > d.width - 0.5 || fy > d.height - 0.5) continue;
        sampleBilinear(d, fx, fy, px);
        const i = (y * W + x) * 3;
        out[i] = px[0]!;
        out[i + 1] = px[1]!;
        out[i + 2] = px[2]!;
      }
  }

  // Light: falloff from a random point, white balance, glare, a fine grid (moiré), noise.
  const lx = r.range(0, W);
  const ly = r.range(0, H);
  const diag = Math.hypot(W, H);
  const glare = p.glare
    ? {
        x: apply(homs[0]!, [p.glare.x * scaled[0]!.width, p.glare.y * scaled[0]!.height]),
        rad: p.glare.radius * p.docWidth,
      }
    : null;
  const mAngle = r.range(0, Math.PI);
  const mPeriod = r.range(2.2, 3.4);
  const mPeriod2 = mPeriod * r.range(1.03, 1.08);
  const mc1 = Math.cos(mAngle);
  const ms1 = Math.sin(mAngle);
  const mc2 = Math.cos(mAngle + 0.05);
  const ms2 = Math.sin(mAngle + 0.05);
  const wb = p.whiteBalance;
  // Sensor noise from a fast inline generator (the sum of three uniforms is close to normal:
  // variance 3/12, hence the factor 2 for unit variance).
  let state = (r.int(1, 0x7ffffffe) | 0) >>> 0;
  const uni = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const gauss = () => (uni() + uni() + uni() - 1.5) * 2;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      let f = p.shading ? 1 - p.shading * (Math.sqrt((x - lx) * (x - lx) + (y - ly) * (y - ly)) / diag) : 1;
      if (p.moire) {
        const t = x * mc1 + y * ms1;
        const t2 = x * mc2 + y * ms2;
        f *= 1 + p.moire * Math.sin((2 * Math.PI * t) / mPeriod) * Math.sin((2 * Math.PI * t2) / mPeriod2);
      }
      let g = 0;
      if (glare) {
        const dd = ((x - glare.x[0]) ** 2 + (y - glare.x[1]) ** 2) / (glare.rad * glare.rad);
        if (dd < 9) g = p.glare!.strength * Math.exp(-dd);
      }
      for (let c = 0; c < 3; c++) {
        let v = out[i + c]! * f * wb[c]!;
        if (g) v += (255 - v) * g;
        if (p.noise) v += gauss() * p.noise;
        out[i + c] = v;
      }
    }

  const bytes = Buffer.alloc(W * H * 3);
  for (let i = 0; i < out.length; i++) bytes[i] = Math.max(0, Math.min(255, Math.round(out[i]!)));
  let img = sharp(bytes, { raw: { width: W, height: H, channels: 3 } });
  if (p.blur >= 0.3) img = img.blur(p.blur);
  if (p.quarterTurns)
    img = sharp(await img.png({ compressionLevel: 0 }).toBuffer()).rotate(90 * p.quarterTurns);
  const { data, info } = await img
    .jpeg({ quality: p.jpegQuality, chromaSubsampling: p.jpegQuality >= 90 ? '4:4:4' : '4:2:0' })
    .toBuffer({ resolveWithObject: true });
  const maps = scaled.map((d, k) => {
    const s = d.width / docs[k]!.width;
    return ([x, y]: Point): Point => turnPoint(apply(homs[k]!, [x * s, y * s]), W, H, p.quarterTurns);
  });
  return {
    image: data,
    width: info.width,
    height: info.height,
    maps,
    quads: quads.map((q) => q.map((pt) => turnPoint(pt, W, H, p.quarterTurns)) as Quad),
  };
}
