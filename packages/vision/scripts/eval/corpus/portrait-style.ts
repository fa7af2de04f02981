import type { RgbImage } from '../../../src/image/raster.ts';
import { clamp255, resizeTo } from './raster-io.ts';
import type { Rng } from './rng.ts';
import type { Rect } from './types.ts';

/**
 * The ways real documents print their portrait, drawn per source for the portrait-swap
 * classifier's training pages (export-portrait.ts). The generator prints every portrait the same
 * way (a plain colour photo with a hard edge), and a model trained on those alone read the frames,
 * tints and print screens of real genuine portraits as the edge of a pasted photo. Each style is
 * applied to the genuine page before any swap is made, so a swap is another person's photo put
 * over a framed, tinted or screened genuine portrait: the styles appear on both classes and only
 * the swap itself tells them apart.
 */
export interface PortraitPrint {
  /** A grey, sepia or colour-washed photo on a colour page. */
  tone?: { kind: 'grey' | 'sepia' | 'tint'; tint: [number, number, number]; amount: number };
  /** The photo printed through a screen: dots, straight lines or wavy engraved lines. */
  screen?: { kind: 'halftone' | 'lines' | 'engraved'; period: number; angle: number; amount: number };
  /** A security pattern (two families of fine wavy lines) printed over the photo and around it. */
  pattern?: { ink: [number, number, number]; opacity: number; spacing: number; wave: number; phase: number };
  /** The photo's border fading into the page (fraction of the photo's width). */
  vignette?: { fade: number; oval: boolean };
  /** Rounded corners (fraction of the photo's width), the page showing in the cut-off corners. */
  corner?: number;
  /** A printed line around the photo (px at the page's scale: thin or thick), inside or outside. */
  frame?: { width: number; ink: [number, number, number]; outside: boolean };
  /** A small faded copy of the portrait beside it (right or left), at this contrast. */
  ghost?: { side: 1 | -1; contrast: number; scale: number };
}

/** One source's print style; about one source in six prints a plain photo, as the generator does. */
export function drawPortraitPrint(rng: Rng): PortraitPrint {
  if (rng.next() < 0.17) return {};
  const p: PortraitPrint = {};
  const colour = (lo: number, hi: number): [number, number, number] => [
    Math.round(rng.between(lo, hi)),
    Math.round(rng.between(lo, hi)),
    Math.round(rng.between(lo, hi)),
  ];
  if (rng.next() < 0.55) {
    const kind = rng.pick(['grey', 'sepia', 'tint'] as const);
    p.tone = { kind, tint: colour(150, 255), amount: rng.between(0.6, 1) };
  }
  if (rng.next() < 0.35)
    p.screen = {
      kind: rng.pick(['halftone', 'lines', 'engraved'] as const),
      period: rng.between(2.5, 5),
      angle: rng.pick([0, Math.PI / 4, Math.PI / 2, -Math.PI / 6]),
      amount: rng.between(0.4, 0.9),
    };
  if (rng.next() < 0.35)
    p.pattern = {
      ink: colour(60, 220),
      opacity: rng.between(0.12, 0.35),
      spacing: rng.between(5, 12),
      wave: rng.between(20, 60),
      phase: rng.between(0, 2 * Math.PI),
    };
  if (rng.next() < 0.3) p.vignette = { fade: rng.between(0.06, 0.2), oval: rng.next() < 0.4 };
  if (!p.vignette?.oval && rng.next() < 0.35) p.corner = rng.between(0.04, 0.15);
  if (!p.vignette && rng.next() < 0.5)
    p.frame = {
      width: rng.next() < 0.6 ? rng.between(1, 2.5) : rng.between(3, 8),
      ink: colour(0, 140),
      outside: rng.next() < 0.5,
    };
  if (rng.next() < 0.3)
    p.ghost = { side: rng.next() < 0.5 ? 1 : -1, contrast: rng.between(0.2, 0.5), scale: 0.45 };
  return p;
}

/**
 * The page with its printed portrait (`photo`, page pixels) restyled by `print`. Returns a new
 * image; the face does not move, so the source's face and photo boxes still hold.
 */
export async function printPortrait(page: RgbImage, photo: Rect, print: PortraitPrint): Promise<RgbImage> {
  const out = page.rgb.slice();
  const W = page.width;
  const H = page.height;
  const x0 = Math.max(0, Math.round(photo.x));
  const y0 = Math.max(0, Math.round(photo.y));
  const x1 = Math.min(W, Math.round(photo.x + photo.w));
  const y1 = Math.min(H, Math.round(photo.y + photo.h));
  const pw = x1 - x0;
  const ph = y1 - y0;
  if (pw < 8 || ph < 8) return { rgb: out, width: W, height: H };
  const paper = ringColour(page, x0, y0, x1, y1);

  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * W + x) * 3;
      let r = out[o]!;
      let g = out[o + 1]!;
      let b = out[o + 2]!;
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      if (print.tone) {
        const t = print.tone;
        const [tr, tg, tb] =
          t.kind === 'grey'
            ? [l, l, l]
            : t.kind === 'sepia'
              ? [l * 1.07 + 8, l * 0.95 + 4, l * 0.78]
              : [(l * t.tint[0]) / 255, (l * t.tint[1]) / 255, (l * t.tint[2]) / 255];
        r = r + t.amount * (tr - r);
        g = g + t.amount * (tg - g);
        b = b + t.amount * (tb - b);
      }
      if (print.screen) {
        const s = print.screen;
        const lum = Math.max(1, 0.299 * r + 0.587 * g + 0.114 * b);
        const ink = 1 - lum / 255;
        const level = screenLevel(s, x - x0, y - y0);
        // A printed screen: a spot inks where the pattern lies below the tone's darkness,
        // softened over about a pixel so the screen survives the capture as texture, not aliasing.
        const covered = Math.min(1, Math.max(0, (ink - level) * 3 + 0.5));
        const screened = 255 * (1 - covered);
        const k = 1 + s.amount * (screened / lum - 1);
        r *= k;
        g *= k;
        b *= k;
      }
      out[o] = clamp255(r);
      out[o + 1] = clamp255(g);
      out[o + 2] = clamp255(b);
    }
  }

  // Vignette and rounded corners: the photo's border gives way to the page's own colour.
  if (print.vignette || print.corner) {
    const fade = print.vignette ? print.vignette.fade * pw : 0;
    const radius = (print.corner ?? 0) * pw;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const u = x - x0 + 0.5;
        const v = y - y0 + 0.5;
        let keep = 1;
        if (print.vignette?.oval) {
          const dx = (u - pw / 2) / (pw / 2);
          const dy = (v - ph / 2) / (ph / 2);
          const d = Math.sqrt(dx * dx + dy * dy);
          keep = Math.min(1, Math.max(0, (1 - d) / (fade / (pw / 2))));
        } else {
          const edge = insideRounded(u, v, pw, ph, radius);
          keep = fade > 0 ? Math.min(1, Math.max(0, edge / fade)) : edge > 0 ? 1 : edge > -1 ? 1 + edge : 0;
        }
        if (keep >= 1) continue;
        const o = (y * W + x) * 3;
        for (let c = 0; c < 3; c++) out[o + c] = clamp255(keep * out[o + c]! + (1 - keep) * paper[c]!);
      }
    }
  }

  if (print.pattern) {
    const p = print.pattern;
    // Over the photo and a band of page around it, as a guilloche printed across the portrait.
    const m = Math.round(0.25 * pw);
    for (let y = Math.max(0, y0 - m); y < Math.min(H, y1 + m); y++) {
      for (let x = Math.max(0, x0 - m); x < Math.min(W, x1 + m); x++) {
        const a = wavyLine(x, y, p.spacing, p.wave, p.phase);
        const b = wavyLine(y, x, p.spacing * 1.3, p.wave * 0.8, p.phase + 1);
        const cover = p.opacity * Math.max(a, b);
        if (cover <= 0) continue;
        const o = (y * W + x) * 3;
        for (let c = 0; c < 3; c++) out[o + c] = clamp255(out[o + c]! * (1 - cover * (1 - p.ink[c]! / 255)));
      }
    }
  }

  if (print.frame) {
    const f = print.frame;
    const radius = (print.corner ?? 0) * pw;
    const off = f.outside ? f.width : 0;
    for (let y = Math.max(0, Math.floor(y0 - off - 1)); y < Math.min(H, Math.ceil(y1 + off + 1)); y++) {
      for (let x = Math.max(0, Math.floor(x0 - off - 1)); x < Math.min(W, Math.ceil(x1 + off + 1)); x++) {
        const u = x - x0 + 0.5 + off;
        const v = y - y0 + 0.5 + off;
        const w = pw + 2 * off;
        const h = ph + 2 * off;
        const edge = insideRounded(u, v, w, h, radius + off);
        // Ink where the pixel lies within the line's width inside the (rounded) outline.
        const cover = Math.min(1, Math.max(0, edge + 0.5)) * Math.min(1, Math.max(0, f.width - edge + 0.5));
        if (cover <= 0) continue;
        const o = (y * W + x) * 3;
        for (let c = 0; c < 3; c++) out[o + c] = clamp255((1 - cover) * out[o + c]! + cover * f.ink[c]!);
      }
    }
  }

  const styled = { rgb: out, width: W, height: H };
  if (print.ghost) await printGhostBeside(styled, x0, y0, pw, ph, print.ghost);
  return styled;
}

/** The mean colour of a ring of page a little outside the photo (past any border the generator draws): the paper it fades into. */
function ringColour(
  page: RgbImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  const add = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= page.width || y >= page.height) return;
    const o = (y * page.width + x) * 3;
    for (let c = 0; c < 3; c++) sum[c]! += page.rgb[o + c]!;
    n++;
  };
  for (let d = 8; d < 16; d++) {
    for (let x = x0; x < x1; x++) {
      add(x, y0 - d);
      add(x, y1 - 1 + d);
    }
    for (let y = y0; y < y1; y++) {
      add(x0 - d, y);
      add(x1 - 1 + d, y);
    }
  }
  return n ? [sum[0]! / n, sum[1]! / n, sum[2]! / n] : [235, 235, 235];
}

/** Signed distance (px, positive inside) from (u, v) to a w × h rectangle's outline with corners of radius r. */
function insideRounded(u: number, v: number, w: number, h: number, r: number): number {
  const cx = Math.min(Math.max(u, r), w - r);
  const cy = Math.min(Math.max(v, r), h - r);
  if (r > 0 && cx !== u && cy !== v) return r - Math.hypot(u - cx, v - cy);
  return Math.min(u, v, w - u, h - v);
}

/** The screen's threshold (0..1) at photo pixel (x, y). */
function screenLevel(s: NonNullable<PortraitPrint['screen']>, x: number, y: number): number {
  const ca = Math.cos(s.angle);
  const sa = Math.sin(s.angle);
  const u = x * ca + y * sa;
  let v = -x * sa + y * ca;
  const k = (2 * Math.PI) / s.period;
  if (s.kind === 'halftone') return 0.5 + 0.25 * (Math.cos(u * k) + Math.cos(v * k));
  if (s.kind === 'engraved') v += 0.8 * s.period * Math.sin(u / (3 * s.period));
  return 0.5 + 0.5 * Math.cos(v * k);
}

/** Coverage (0..1) of a family of fine wavy lines at (x, y): 1 on a line, 0 between. */
function wavyLine(x: number, y: number, spacing: number, wave: number, phase: number): number {
  const t = (y + 0.3 * wave * Math.sin((2 * Math.PI * x) / wave + phase)) / spacing;
  const f = Math.abs(t - Math.round(t)) * spacing;
  return Math.max(0, 1 - f / 0.7);
}

/** A small faded copy of the photo beside it, multiplied into the page like ink. */
async function printGhostBeside(
  page: RgbImage,
  x0: number,
  y0: number,
  pw: number,
  ph: number,
  ghost: NonNullable<PortraitPrint['ghost']>,
): Promise<void> {
  const crop = new Uint8Array(pw * ph * 3);
  for (let y = 0; y < ph; y++) {
    const from = ((y0 + y) * page.width + x0) * 3;
    crop.set(page.rgb.subarray(from, from + pw * 3), y * pw * 3);
  }
  const gw = Math.max(4, Math.round(pw * ghost.scale));
  const gh = Math.max(4, Math.round(ph * ghost.scale));
  const small = await resizeTo({ rgb: crop, width: pw, height: ph }, gw, gh);
  const gap = Math.round(0.08 * pw);
  const gx = ghost.side > 0 ? x0 + pw + gap : x0 - gap - gw;
  const gy = y0 + ph - gh;
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const px = gx + x;
      const py = gy + y;
      if (px < 0 || py < 0 || px >= page.width || py >= page.height) continue;
      const o = (py * page.width + px) * 3;
      for (let c = 0; c < 3; c++) {
        const ink = 255 - ghost.contrast * (255 - small.rgb[(y * gw + x) * 3 + c]!);
        page.rgb[o + c] = clamp255((page.rgb[o + c]! * ink) / 255);
      }
    }
  }
}

/**
 * The page with its printed photo (`photo`) reprinted as an identity photo: the head filling it.
 * The generator prints casual photos where the face is under half the photo's width (the
 * service's crop around the face then shows hardly any of the photo's edge), where documents
 * (and the fixtures) print the head over about two thirds of it, so their crop holds the photo's
 * edge and the page around it. The photo's content is enlarged `zoom` times around the face
 * (kept inside the photo) into the same extent. Returns the page and the face's new box.
 */
export async function zoomPortrait(
  page: RgbImage,
  photo: Rect,
  face: Rect,
  zoom: number,
): Promise<{ image: RgbImage; face: Rect }> {
  const x0 = Math.max(0, Math.round(photo.x));
  const y0 = Math.max(0, Math.round(photo.y));
  const pw = Math.min(page.width, Math.round(photo.x + photo.w)) - x0;
  const ph = Math.min(page.height, Math.round(photo.y + photo.h)) - y0;
  if (pw < 8 || ph < 8 || zoom <= 1) return { image: page, face };
  // The part of the photo shown: 1/zoom of it, the face's centre at 45 % of its height (an
  // identity photo's eyes sit a little above the middle), moved back inside the photo.
  const sw = Math.max(1, Math.round(pw / zoom));
  const sh = Math.max(1, Math.round(ph / zoom));
  const cx = face.x + face.w / 2;
  const cy = face.y + face.h / 2;
  const sx = Math.round(Math.min(x0 + pw - sw, Math.max(x0, cx - sw / 2)));
  const sy = Math.round(Math.min(y0 + ph - sh, Math.max(y0, cy - 0.45 * sh)));
  const part = new Uint8Array(sw * sh * 3);
  for (let y = 0; y < sh; y++)
    part.set(
      page.rgb.subarray(((sy + y) * page.width + sx) * 3, ((sy + y) * page.width + sx + sw) * 3),
      y * sw * 3,
    );
  const big = await resizeTo({ rgb: part, width: sw, height: sh }, pw, ph);
  const out = page.rgb.slice();
  for (let y = 0; y < ph; y++)
    out.set(big.rgb.subarray(y * pw * 3, (y + 1) * pw * 3), ((y0 + y) * page.width + x0) * 3);
  const kx = pw / sw;
  const ky = ph / sh;
  return {
    image: { rgb: out, width: page.width, height: page.height },
    face: { x: x0 + (face.x - sx) * kx, y: y0 + (face.y - sy) * ky, w: face.w * kx, h: face.h * ky },
  };
}
