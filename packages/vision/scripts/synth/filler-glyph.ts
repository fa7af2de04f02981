import type { Rng } from './random.ts';

/**
 * The MRZ filler '<' as other printers and OCR-B implementations print it (an evaluation option,
 * off in the benchmark): the system's OCR-B chevron is replaced by one drawn here, whose shape is
 * chosen once per document (one printer prints every '<' of a document alike) with a little
 * jitter per glyph. What turns a '<' into something a recogniser reads as K, on real captures:
 * thicker strokes, arms longer or shorter, a tighter angle, and above all a vertical stroke at
 * the tip (ink spread along the tip, or the bleed of the neighbouring glyph) — a K is a '<' whose
 * tip stands on a stem.
 *
 * Geometry in em of the font size, measured on the system's OCR-B: the '<' spans x 0.11–0.60 of
 * its 0.60 advance and 0.07–0.70 above the baseline, its stroke ~0.10 em.
 */
export interface FillerGlyph {
  /** Tip's x from the cell's left edge, em. */
  tipX: number;
  /** Arms' ends x, em. */
  armX: number;
  /** Half the vertical span between the arms' ends, em (smaller: a tighter angle). */
  halfSpan: number;
  /** Stroke width, em. */
  stroke: number;
  /** A stem through the tip: its half height (em) and stroke (em), or null. */
  stem: { halfHeight: number; stroke: number; share: number } | null;
}

/** The centre of OCR-B's '<' above the baseline, em. */
const CENTRE = 0.385;

/** One document's filler shape. */
export function sampleFillerGlyph(r: Rng): FillerGlyph {
  return {
    tipX: r.range(0.06, 0.2),
    armX: r.range(0.46, 0.6),
    halfSpan: r.range(0.2, 0.36),
    stroke: r.range(0.09, 0.17),
    // Most documents of the option carry a stem on some of their fillers: the class it reproduces.
    stem: r.chance(0.75)
      ? { halfHeight: r.range(0.18, 0.36), stroke: r.range(0.06, 0.12), share: r.range(0.3, 1) }
      : null,
  };
}

/**
 * The SVG of the fillers of one MRZ line drawn with `g`: `text` the line, its first character's
 * cell at `x` with advance `advance` px, baseline `y`, font size `size` px. `r` jitters each glyph.
 */
export function fillerGlyphsSvg(
  text: string,
  x: number,
  y: number,
  size: number,
  advance: number,
  g: FillerGlyph,
  fill: string,
  r: Rng,
): string {
  const parts: string[] = [];
  const cy = y - CENTRE * size;
  for (const [i, ch] of [...text].entries()) {
    if (ch !== '<') continue;
    const x0 = x + i * advance;
    const j = () => r.range(-0.015, 0.015) * size;
    const tip = x0 + g.tipX * size + j();
    const arm = x0 + g.armX * size + j();
    const half = g.halfSpan * size + j();
    parts.push(
      `<path d="M${arm.toFixed(1)} ${(cy - half).toFixed(1)} L${tip.toFixed(1)} ${cy.toFixed(1)} L${arm.toFixed(1)} ${(cy + half).toFixed(1)}" fill="none" stroke="${fill}" stroke-width="${(g.stroke * size).toFixed(2)}" stroke-linejoin="miter" stroke-linecap="butt"/>`,
    );
    if (g.stem && r.chance(g.stem.share)) {
      const h = g.stem.halfHeight * size * r.range(0.8, 1.2);
      const sx = tip + r.range(-0.02, 0.02) * size;
      parts.push(
        `<line x1="${sx.toFixed(1)}" y1="${(cy - h).toFixed(1)}" x2="${sx.toFixed(1)}" y2="${(cy + h).toFixed(1)}" stroke="${fill}" stroke-width="${(g.stem.stroke * size).toFixed(2)}"/>`,
      );
    }
  }
  return parts.join('');
}
