import type { RgbImage } from '../../../src/image/raster.ts';
import { generateDocument } from '../../synth/generate.ts';
import { LAYOUTS } from '../../synth/layouts.ts';
import type { Half } from '../fixture-split.ts';
import { clamp255, decodeRgb, resizeTo } from './raster-io.ts';
import { type Rng, seededRng, seedOf } from './rng.ts';
import type { GenuineSource, Rect } from './types.ts';

/**
 * Genuine synthetic documents (the reading benchmark's generator, drawn upright) as corpus
 * sources, for the portrait attacks: the fixtures' tuning half has only 3 pages with a portrait,
 * and the synthetic layouts carry what real documents often have and few fixtures show, a ghost
 * image (a small faded copy of the portrait). Layouts with a portrait on the page only; the
 * tuning half draws from the generator's tuning layouts, the holdout half from every layout
 * (the generator holds out no layout with a ghost) with other seeds. The truth: the portrait's
 * face box and the field boxes, in the drawn document's pixels.
 *
 * The generator draws its ghost at a fifth of the photo's contrast (13–23 grey levels after the
 * phone capture): no face detector sees it, and real ghosts (laser-printed or engraved copies,
 * easily seen by eye) are stronger. The ghost is printed again here at 40–70 % of the photo's
 * contrast, multiplied into the page like ink.
 */
export async function synthSources(half: Half, count: number): Promise<GenuineSource[]> {
  const out: GenuineSource[] = [];
  for (let i = 0; i < count; i++) out.push(await synthSource(half, i));
  return out;
}

/**
 * The `i`-th synthetic source of a half (the same document on every call for one `tag`);
 * `densePrint`: fine-line print over the whole page (the generator's evaluation option).
 */
export async function synthSource(
  half: Half,
  i: number,
  tag: string = half,
  opts: { densePrint?: boolean } = {},
): Promise<GenuineSource> {
  const layouts = LAYOUTS.filter(
    (l) => l.portrait && l.side !== 'back' && l.kind !== 'niger_paper' && (half === 'holdout' || !l.heldOut),
  );
  const layout = layouts[i % layouts.length]!;
  // `tag` names the draw (its seeds): the training export draws `train`, the evaluation `tuning`
  // and `holdout`, so no evaluated document was trained on.
  const name = `synth-${tag}-${i}-${layout.id}`;
  const doc = await generateDocument(seedOf(name), {
    layout: layout.id,
    upright: true,
    ...(opts.densePrint ? { densePrint: true } : {}),
  });
  const t = doc.truth;
  const image = await decodeRgb(new Uint8Array(doc.image));
  if (layout.ghost && layout.portrait && t.portrait)
    await printGhost(
      image,
      rectOf(t.portrait.quad),
      layout.ghost,
      layout.portrait.w,
      seededRng(seedOf(`${name}:ghost`)),
    );
  return {
    name,
    image,
    layout: t.documentLayout,
    ...(t.portrait ? { portraitId: `synth-photo-${t.portrait.index}` } : {}),
    boxes: {
      ...(t.portrait ? { portrait: rectOf(t.portrait.face), photo: rectOf(t.portrait.quad) } : {}),
      fields: t.boxes.map((b) => ({ field: b.field, box: rectOf(b.quad) })),
    },
  };
}

function rectOf(quad: readonly (readonly [number, number])[]): Rect {
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** The portrait photo (`photo`, page pixels) printed small and faded at `ghost` (layout units). */
async function printGhost(
  page: RgbImage,
  photo: Rect,
  ghost: Rect,
  layoutPhotoWidth: number,
  rng: Rng,
): Promise<void> {
  const scale = photo.w / layoutPhotoWidth;
  const g = {
    x: Math.round(ghost.x * scale),
    y: Math.round(ghost.y * scale),
    w: Math.round(ghost.w * scale),
    h: Math.round(ghost.h * scale),
  };
  const crop = new Uint8Array(Math.round(photo.w) * Math.round(photo.h) * 3);
  const pw = Math.round(photo.w);
  const ph = Math.round(photo.h);
  for (let y = 0; y < ph; y++) {
    const from = ((Math.round(photo.y) + y) * page.width + Math.round(photo.x)) * 3;
    crop.set(page.rgb.subarray(from, from + pw * 3), y * pw * 3);
  }
  const small = await resizeTo({ rgb: crop, width: pw, height: ph }, g.w, g.h);
  const contrast = rng.between(0.4, 0.7);
  for (let y = 0; y < g.h && g.y + y < page.height; y++) {
    for (let x = 0; x < g.w && g.x + x < page.width; x++) {
      const o = ((g.y + y) * page.width + g.x + x) * 3;
      for (let c = 0; c < 3; c++) {
        const ink = 255 - contrast * (255 - small.rgb[(y * g.w + x) * 3 + c]!);
        page.rgb[o + c] = clamp255((page.rgb[o + c]! * ink) / 255);
      }
    }
  }
}
