import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { detectDocumentFaces, type FaceBox } from '../../src/faces/detect.ts';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { STREAK_MIN_FACE_WIDTH } from '../../src/tamper/portrait-streaks.ts';
import { forwardMappedSwap } from '../../test/support/forgeries.ts';
import { pct, printTable, readTruth } from './faces-common.ts';

/**
 * `portrait_edge` on simulated portrait swaps (the fixture set has one real swap): each bona
 * fide fixture document with a portrait of at least STREAK_MIN_FACE_WIDTH gets the portrait of
 * the next one written into its frame the way SIDTD made its swaps (forward mapping, scaled to
 * the frame, then × 0.9 … 1.3), saved as JPEG 90 and analysed like an upload.
 *
 *   npx tsx packages/vision/scripts/eval/portrait-swap.ts [fixturesDir]
 */

const EXTRA_SCALES: [number, number][] = [
  [0.9, 0.9],
  [1, 1],
  [1.05, 1.05],
  [1.15, 1.15],
  [1.3, 1.3],
  [1, 1.15],
];

const largest = (faces: FaceBox[]) =>
  faces.reduce<FaceBox | undefined>((a, b) => (!a || b.w > a.w ? b : a), undefined);

export async function evaluatePortraitSwaps(fixturesDir: string): Promise<void> {
  const truth = await readTruth(fixturesDir);
  const docs: { file: string; image: NormalizedImage; face: FaceBox }[] = [];
  for (const [file, t] of Object.entries(truth)) {
    if (!file.startsWith('documents/') || t.attack) continue;
    const image = await normalizeImage(new Uint8Array(await readFile(join(fixturesDir, file))));
    const face = largest(await detectDocumentFaces(image));
    if (face && face.w >= STREAK_MIN_FACE_WIDTH) docs.push({ file, image, face });
  }
  const perScale = new Map<string, { n: number; flagged: number }>();
  for (const [i, target] of docs.entries()) {
    const donor = docs[(i + 1) % docs.length]!;
    const fit = target.face.w / donor.face.w;
    for (const [kx, ky] of EXTRA_SCALES) {
      const swapped = forwardMappedSwap(target.image, target.face, donor.image, donor.face, [
        fit * kx,
        fit * ky,
      ]);
      const jpeg = await sharp(Buffer.from(swapped.rgb), {
        raw: { width: swapped.width, height: swapped.height, channels: 3 },
      })
        .jpeg({ quality: 90 })
        .toBuffer();
      const upload = await normalizeImage(new Uint8Array(jpeg));
      const { signals } = await detectTamper({ front: upload }, { layout: 'unknown' });
      const key = kx === ky ? `× ${kx}` : `× ${kx} wide, × ${ky} high`;
      const row = perScale.get(key) ?? { n: 0, flagged: 0 };
      row.n++;
      if (signals.some((s) => s.type === 'portrait_edge')) row.flagged++;
      perScale.set(key, row);
    }
  }
  console.log(`\n### portrait_edge on simulated portrait swaps (${docs.length} documents)\n`);
  printTable(
    ['donor portrait scaled to the frame, then', 'swaps', 'flagged'],
    [...perScale].map(([k, r]) => [k, r.n, `${r.flagged} (${pct(r.flagged, r.n)})`]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await evaluatePortraitSwaps(resolve(process.argv[2] ?? process.env.FIXTURES_DIR ?? '../shared/fixtures'));
}
