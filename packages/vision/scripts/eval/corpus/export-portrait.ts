import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectDocumentFaces, largestFace } from '../../../src/faces/detect.ts';
import { normalizeImage } from '../../../src/image/normalize.ts';
import { CROP_H, CROP_W, portraitCrop } from '../../../src/tamper/portrait-model.ts';
import { phoneCaptureMapped } from './phone-capture.ts';
import { type SwapStyle, swapPortrait } from './portrait.ts';
import { drawPortraitPrint, printPortrait, zoomPortrait } from './portrait-style.ts';
import { encodePng } from './raster-io.ts';
import { seededRng, seedOf } from './rng.ts';
import { genuineSources } from './sources.ts';
import { synthSource } from './synth-sources.ts';
import type { GenuineSource } from './types.ts';

/**
 * Training crops for the portrait-swap classifier (training/portrait/): each genuine source
 * phone-captured as it is (three captures) and with its portrait swapped for another person's
 * (pasted, blended, reglued, recut along the printed photo twice), then decoded and scaled as the
 * service does (normalizeImage). The crop is the one the service cuts at run time
 * (tamper/portrait-model.ts `portraitCrop`) around the largest face the service's own detector
 * finds on the capture; a capture where it finds none is skipped (the cue would not run).
 *
 *   npx tsx packages/vision/scripts/eval/corpus/export-portrait.ts OUT_DIR [--synth N] [--from N]
 *       [--no-fixtures] [--fixture-like] [--rounds R]
 *
 * Sources, never the holdout's: synthetic documents with a portrait from the generator's tuning
 * layouts, drawn under their own seed names (`synth-train-i`; the evaluation draws
 * `synth-tuning-i` and `synth-holdout-i`), and the fixtures' tuning half (read in place). The
 * drawn colour cards are left out (their drawn face is no face to the detector), and so is the
 * paper card (its glued photo is the genuine case; the cue does not run on it).
 * Each synthetic source prints its portrait in a style of its own, drawn from its name
 * (portrait-style.ts: frames, rounded corners, tints, screens, a pattern over the photo, a
 * vignette, a ghost beside it) before anything is swapped, so genuine portraits and the pages
 * under the swaps look alike; the real pages are read as they are.
 * Writes OUT_DIR/<class>/<name>.png (0 genuine, 1 swapped) and OUT_DIR/index.json.
 */

const VARIANTS: { kind: string; cls: number; style?: SwapStyle }[] = [
  { kind: 'bona-fide-a', cls: 0 },
  { kind: 'bona-fide-b', cls: 0 },
  { kind: 'bona-fide-c', cls: 0 },
  { kind: 'pasted', cls: 1, style: 'pasted' },
  { kind: 'blended', cls: 1, style: 'blended' },
  { kind: 'reglued', cls: 1, style: 'reglued' },
  { kind: 'recut-a', cls: 1, style: 'recut' },
  { kind: 'recut-b', cls: 1, style: 'recut' },
];

async function exportSource(
  out: string,
  source: GenuineSource,
  donor: GenuineSource,
  index: unknown[],
  round = 0,
): Promise<void> {
  for (const variant of VARIANTS) {
    // A further round on the same page (the fixtures' few real pages): other captures, another
    // donor, its kinds named apart (`pasted~1`) so none is dropped as a repeat.
    const v = round ? { ...variant, kind: `${variant.kind}~${round}` } : variant;
    const rng = seededRng(seedOf(`train:${source.name}:${v.kind}`));
    const image = v.style
      ? await swapPortrait(
          source.image,
          source.boxes.portrait!,
          donor.image,
          donor.boxes.portrait!,
          v.style,
          rng,
          {
            ...(source.boxes.photo ? { targetPhoto: source.boxes.photo } : {}),
            ...(donor.boxes.photo ? { donorPhoto: donor.boxes.photo } : {}),
          },
        )
      : source.image;
    const { bytes } = await phoneCaptureMapped(image, rng);
    const img = await normalizeImage(bytes);
    const faces = await detectDocumentFaces(img);
    const face = largestFace(faces);
    if (!face) continue;
    const t = portraitCrop(img, face);
    const plane = CROP_W * CROP_H;
    const rgb = new Uint8Array(3 * plane);
    for (let i = 0; i < plane; i++)
      for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round(t[c * plane + i]!);
    const file = join(String(v.cls), `${source.name.replace(/[^a-z0-9]+/gi, '_')}--${v.kind}.png`);
    await writeFile(join(out, file), await encodePng({ rgb, width: CROP_W, height: CROP_H }));
    index.push({ file, cls: v.cls, kind: v.kind, source: source.name, donor: donor.name });
  }
}

/** A synthetic source with its portrait printed in its own style (seeded by its name). */
export async function styledSource(source: GenuineSource): Promise<GenuineSource> {
  if (!source.boxes.photo) return source;
  const print = drawPortraitPrint(seededRng(seedOf(`print:${source.name}`)));
  return { ...source, image: await printPortrait(source.image, source.boxes.photo, print) };
}

/**
 * A synthetic source drawn the way the evaluation draws its swaps on the fixtures' pages
 * (generated-attacks.ts on a real half): the portrait reprinted as an identity photo (the head
 * over about two thirds of the photo, zoomPortrait), half of them plain, half in a print style;
 * and half of the pages photographed first, as the fixtures are (phone capture, decoded and scaled
 * as an upload, the face found by the service's detector, the photo's extent unknown: a recut
 * swap then cuts around the face, as on a fixture). Seeded by the source's name.
 */
export async function fixtureLikeSource(source: GenuineSource): Promise<GenuineSource | undefined> {
  const { photo, portrait } = source.boxes;
  if (!photo || !portrait) return source;
  const rng = seededRng(seedOf(`fixture-like:${source.name}`));
  const zoom = Math.min(rng.between(1.2, 1.75), (0.87 * photo.w) / portrait.w);
  const zoomed = await zoomPortrait(source.image, photo, portrait, zoom);
  const image =
    rng.next() < 0.5 ? zoomed.image : await printPortrait(zoomed.image, photo, drawPortraitPrint(rng));
  const page: GenuineSource = { ...source, image, boxes: { ...source.boxes, portrait: zoomed.face } };
  if (rng.next() < 0.5) return page;
  const shot = await normalizeImage((await phoneCaptureMapped(image, rng)).bytes);
  const faces = await detectDocumentFaces(shot);
  const face = largestFace(faces);
  // The evaluation keeps a fixture's face from 40 px (corpus/sources.ts); fields are not needed.
  if (!face || face.w < 40) return undefined;
  return {
    ...source,
    image: { rgb: shot.rgb, width: shot.width, height: shot.height },
    boxes: { portrait: { x: face.x, y: face.y, w: face.w, h: face.h }, fields: [] },
  };
}

/**
 * How far a further round of one page moves its donor index: donorFor takes the (7·i + 3)-th
 * other source, so round r lands 77·r places on: another donor than every earlier round's while
 * the pool has more than 77 × (rounds − 1) other sources. The value is otherwise arbitrary, and
 * fixed so that an export repeats.
 */
const ROUND_DONOR_STEP = 11;

/** Another person than `source`: a different source printing a different photo. */
function donorFor(pool: GenuineSource[], source: GenuineSource, i: number): GenuineSource | undefined {
  const others = pool.filter(
    (s) => s.name !== source.name && (!source.portraitId || s.portraitId !== source.portraitId),
  );
  return others.length ? others[(i * 7 + 3) % others.length] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string, d: number) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  const out = resolve(args[0] ?? '/tmp/portrait-data');
  const fixtures = resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures');
  for (const c of ['0', '1']) await mkdir(join(out, c), { recursive: true });
  const index: unknown[] = [];
  const t0 = Date.now();
  const from = value('--from', 0);
  const synth = value('--synth', 40);
  // `--fixture-like`: the synthetic sources drawn under the tag `train-fl` (other documents than
  // `train`) and made like the fixtures' pages (fixtureLikeSource). `--rounds R`: R rounds
  // (captures and donors) of each fixture page, the only real pages training may see.
  const fixtureLike = args.includes('--fixture-like');
  const rounds = value('--rounds', 1);
  const pool: GenuineSource[] = [];
  if (!args.includes('--no-fixtures'))
    pool.push(
      ...(await genuineSources(fixtures, 'tuning', 0)).filter(
        (s) => s.boxes.portrait && s.layout !== 'niger_paper_card',
      ),
    );
  const realPages = pool.length;
  for (let i = from; i < synth; i++) {
    if (!fixtureLike) {
      pool.push(await styledSource(await synthSource('tuning', i, 'train')));
      continue;
    }
    const source = await fixtureLikeSource(await synthSource('tuning', i, 'train-fl'));
    if (source) pool.push(source);
  }
  for (const [i, source] of pool.entries()) {
    for (let round = 0; round < (i < realPages ? rounds : 1); round++) {
      const donor = donorFor(pool, source, i + ROUND_DONOR_STEP * round);
      if (donor) await exportSource(out, source, donor, index, round);
    }
    await writeFile(join(out, 'index.json'), JSON.stringify(index));
    console.log(`${index.length} crops, ${Math.round((Date.now() - t0) / 1000)} s: ${source.name}`);
  }
}
