import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detectDocumentFaces, largestFace } from '../../../src/faces/detect.ts';
import { normalizeImage } from '../../../src/image/normalize.ts';
import { readDocument } from '../../../src/read-document.ts';
import { type Half, loadSplitTruth } from '../fixture-split.ts';
import { layoutOfKind } from './analyze.ts';
import { drawnCards } from './fresh-sources.ts';
import type { GenuineSource, Rect } from './types.ts';

/** Bona fide fixture kinds that show a document page (a cover or a bare face does not). */
const DOCUMENT_KINDS = new Set(['passport', 'id_td1', 'id_td2', 'id_front', 'visa_mrva', 'visa_mrvb']);

/**
 * Genuine sources of one half: the fixtures' bona fide documents of that half (their truth boxes
 * are what the reading and face steps find on the clean image: the fixtures carry none) and
 * `drawn` independently drawn Niger paper cards and as many synthetic colour cards (seeds differ
 * per half).
 */
export async function genuineSources(
  fixturesDir: string,
  half: Half,
  drawn: number,
): Promise<GenuineSource[]> {
  const out: GenuineSource[] = [];
  for (const e of await loadSplitTruth(fixturesDir)) {
    if (e.half !== half || e.truth.attack || !e.file.startsWith('documents/')) continue;
    if (!DOCUMENT_KINDS.has(e.truth.kind)) continue;
    const img = await normalizeImage(new Uint8Array(await readFile(join(fixturesDir, e.file))));
    const reading = await readDocument({ front: img });
    const faces = await detectDocumentFaces(img);
    const face = largestFace(faces);
    out.push({
      name: e.file,
      image: { rgb: img.rgb, width: img.width, height: img.height },
      layout: layoutOfKind(e.truth.kind) as GenuineSource['layout'],
      boxes: {
        ...(face && face.w >= 40 ? { portrait: { x: face.x, y: face.y, w: face.w, h: face.h } } : {}),
        fields: reading.fieldBoxes
          .filter((f) => f.side === 'front')
          .map((f) => ({ field: f.field, box: rectOf(f.quad) })),
      },
    });
  }
  out.push(...(await drawnCards(half, drawn)));
  return out;
}

function rectOf(quad: [number, number][]): Rect {
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}
