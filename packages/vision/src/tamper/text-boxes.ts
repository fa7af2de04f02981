import type { Box } from '../image/raster.ts';
import type { TamperTextBox } from './types.ts';

/** The reading step's text boxes as the tamper detectors accept them. */

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Four finite [x, y] corners. */
export function isQuad(q: unknown): q is [number, number][] {
  return (
    Array.isArray(q) &&
    q.length === 4 &&
    q.every((p) => Array.isArray(p) && p.length === 2 && finite(p[0]) && finite(p[1]))
  );
}

/**
 * Accepts `context.textBoxes` when it has the expected shape; anything else is ignored. A box
 * is given by its bounds (`x y w h`), by its `quad` (the reading step's field boxes), or both.
 */
export function parseTextBoxes(value: unknown): TamperTextBox[] {
  if (!Array.isArray(value)) return [];
  const out: TamperTextBox[] = [];
  for (const b of value) {
    if (typeof b !== 'object' || b === null) continue;
    if (typeof b.field !== 'string' || (b.side !== 'front' && b.side !== 'back')) continue;
    const quad: [number, number][] | undefined = isQuad(b.quad) ? b.quad : undefined;
    const confidence = finite(b.confidence) ? b.confidence : undefined;
    let bounds: Box;
    if (['x', 'y', 'w', 'h'].every((k) => finite(b[k]))) bounds = { x: b.x, y: b.y, w: b.w, h: b.h };
    else if (quad) {
      const xs = quad.map((p) => p[0]);
      const ys = quad.map((p) => p[1]);
      bounds = {
        x: Math.min(...xs),
        y: Math.min(...ys),
        w: Math.max(...xs) - Math.min(...xs),
        h: Math.max(...ys) - Math.min(...ys),
      };
    } else continue;
    out.push({
      field: b.field,
      side: b.side,
      ...bounds,
      ...(quad ? { quad } : {}),
      ...(confidence !== undefined ? { confidence } : {}),
      ...(b.unparsed === true ? { unparsed: true as const } : {}),
      ...(b.unparsed === true && typeof b.value === 'string' ? { value: b.value } : {}),
    });
  }
  return out;
}
