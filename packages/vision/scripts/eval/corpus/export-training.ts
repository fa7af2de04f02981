import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { normalizeImage } from '../../../src/image/normalize.ts';
import type { RgbImage } from '../../../src/image/raster.ts';
import { generateDocument } from '../../synth/index.ts';
import { type CleanStyle, cleanDigital } from './clean-digital.ts';
import { drawColourCard } from './colour-card.ts';
import { drawPaperCard } from './paper-card.ts';
import { type PointMap, phoneCaptureMapped } from './phone-capture.ts';
import { colourCopy, colourPrint, greyCopy, roomLight } from './photocopy.ts';
import { encodePng } from './raster-io.ts';
import { type Rng, seededRng, seedOf } from './rng.ts';
import { screenRecapture } from './screen.ts';
import { genuineSources } from './sources.ts';
import { synthSource as portraitSynthSource } from './synth-sources.ts';
import type { GenuineSource } from './types.ts';

/**
 * Training images for the capture classifier (training/tamper/): each genuine source captured
 * as it is and as a grey copy, a colour copy, a print photographed under a lamp and a screen
 * recapture, through the corpus's phone capture, decoded and scaled as the service does
 * (normalizeImage), then cut to the document's extent (the part the classifier looks at).
 *
 *   npx tsx packages/vision/scripts/eval/corpus/export-training.ts OUT_DIR [--synth N] [--drawn N]
 *       [--kinds kind,kind] [--from N] [--hard N]
 *
 * Sources, never the holdout's: synthetic documents of the reading benchmark's tuning layouts
 * (scripts/synth, `split: 'tuning'`, upright), paper and colour cards drawn with their own seed
 * names (`*-train-*`, the eval draws `*-holdout-*` and `*-tuning-*`), and the fixtures' tuning
 * half. Writes OUT_DIR/<class>/<name>.png and OUT_DIR/index.json; classes 0 bona fide,
 * 1 copy (grey, colour, printed and photographed), 2 screen.
 */

type Make = (img: RgbImage, rng: Rng) => Promise<RgbImage> | RgbImage;
/** How the image reaches the service: a phone photo (tilted on a table), a phone photo of a
 * screen (flat: the screen carries the geometry), or a file never photographed (clean). */
type Capture = 'phone' | 'flat' | CleanStyle;
const VARIANTS: { kind: string; cls: number; make: Make; capture?: Capture; tilt?: number }[] = [
  { kind: 'bona-fide-a', cls: 0, make: (i) => i },
  { kind: 'bona-fide-b', cls: 0, make: (i) => i },
  { kind: 'grey_photocopy', cls: 1, make: greyCopy },
  { kind: 'colour_photocopy', cls: 1, make: colourCopy },
  {
    kind: 'print_photographed',
    cls: 1,
    make: async (i, r) => roomLight(r.next() < 0.5 ? await greyCopy(i, r) : await colourCopy(i, r), r),
  },
  { kind: 'screen_recapture', cls: 2, make: screenRecapture, capture: 'flat' },
  // Session 3 of issue 14: clean digital documents as bona fide (a rendered PNG, a mildly
  // compressed JPEG, a flatbed scan: the fixture holdout's clean passport scan was read as a
  // screen), a second colour copy, a colour copy scanned flat, and a halftone colour print
  // photographed under a lamp at a stronger tilt (colour copies were the weakest class).
  { kind: 'digital-png', cls: 0, make: (i) => i, capture: 'png' },
  { kind: 'digital-jpeg', cls: 0, make: (i) => i, capture: 'jpeg' },
  { kind: 'digital-scan', cls: 0, make: (i) => i, capture: 'scan' },
  { kind: 'colour_photocopy-b', cls: 1, make: colourCopy },
  { kind: 'colour_photocopy-scan', cls: 1, make: colourCopy, capture: 'scan' },
  {
    kind: 'colour_print_photographed',
    cls: 1,
    make: async (i, r) => roomLight(await colourPrint(i, r), r),
    tilt: 0.1,
  },
];

async function synthSource(seed: number): Promise<GenuineSource> {
  const doc = await generateDocument(seed, { split: 'tuning', upright: true });
  const { data, info } = await sharp(doc.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    name: `synth-${seed}-${doc.truth.layouts.join('+')}`,
    image: {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    },
    boxes: { fields: [] },
    layout: doc.truth.documentLayout,
  };
}

/** The document's corners carried through the capture (`map`), at the working scale `k`. */
function documentExtent(
  map: PointMap,
  source: GenuineSource,
  k: number,
  width: number,
  height: number,
): { x: number; y: number; w: number; h: number } {
  const corners = [
    map(0, 0),
    map(source.image.width, 0),
    map(source.image.width, source.image.height),
    map(0, source.image.height),
  ].map(([x, y]) => [Math.min(width, Math.max(0, x * k)), Math.min(height, Math.max(0, y * k))]);
  const xs = corners.map((p) => p[0]!);
  const ys = corners.map((p) => p[1]!);
  return {
    x: Math.min(...xs),
    y: Math.min(...ys),
    w: Math.max(...xs) - Math.min(...xs),
    h: Math.max(...ys) - Math.min(...ys),
  };
}

async function exportSource(
  out: string,
  source: GenuineSource,
  index: unknown[],
  kinds?: Set<string>,
): Promise<void> {
  for (const v of VARIANTS) {
    if (kinds && !kinds.has(v.kind)) continue;
    const rng = seededRng(seedOf(`train:${source.name}:${v.kind}`));
    const forged = await v.make(source.image, rng);
    const capture = v.capture ?? 'phone';
    let img: Awaited<ReturnType<typeof normalizeImage>>;
    let region: { x: number; y: number; w: number; h: number };
    if (capture !== 'phone' && capture !== 'flat') {
      // Never photographed: the file is the document, edge to edge.
      img = await normalizeImage(await cleanDigital(forged, rng, capture));
      region = { x: 0, y: 0, w: img.width, h: img.height };
    } else {
      const flat = capture === 'flat';
      const { bytes, map } = await phoneCaptureMapped(forged, rng, {
        flat,
        ...(v.tilt ? { tilt: v.tilt } : {}),
      });
      img = await normalizeImage(bytes);
      region = flat
        ? // The screen moved the document inside its frame: the central part, as documentWindow does.
          { x: 0.2 * img.width, y: 0.2 * img.height, w: 0.6 * img.width, h: 0.6 * img.height }
        : documentExtent(map, source, img.width / img.originalWidth, img.width, img.height);
    }
    const x0 = Math.floor(region.x);
    const y0 = Math.floor(region.y);
    const w = Math.floor(region.w);
    const h = Math.floor(region.h);
    const crop = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++)
      crop.set(
        img.rgb.subarray(((y0 + y) * img.width + x0) * 3, ((y0 + y) * img.width + x0 + w) * 3),
        y * w * 3,
      );
    const file = join(String(v.cls), `${source.name.replace(/[^a-z0-9]+/gi, '_')}--${v.kind}.png`);
    await writeFile(join(out, file), await encodePng({ rgb: crop, width: w, height: h }));
    index.push({ file, cls: v.cls, kind: v.kind, source: source.name, layout: source.layout });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string, d: number) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  const out = resolve(args[0] ?? '/tmp/tamper-data');
  const fixtures = resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures');
  for (const c of ['0', '1', '2']) await mkdir(join(out, c), { recursive: true });
  const index: unknown[] = [];
  const t0 = Date.now();
  const synth = value('--synth', 60);
  const drawn = value('--drawn', 20);
  // --kinds a,b: only these variants (each image's seed is its source and kind, so a second
  // export of new kinds adds to a first one and the union is the same as one full export).
  const kindsArg = args[args.indexOf('--kinds') + 1];
  const kinds = args.includes('--kinds') && kindsArg ? new Set(kindsArg.split(',')) : undefined;
  const done = async (s: GenuineSource) => {
    await exportSource(out, s, index, kinds);
    await writeFile(join(out, 'index.json'), JSON.stringify(index));
    console.log(`${index.length} images, ${Math.round((Date.now() - t0) / 1000)} s: ${s.name}`);
  };
  // The fixtures' tuning half first (their bona fide pages only; no cards drawn there), then
  // synthetic documents and drawn cards in turn, so that a shorter run keeps the mix.
  // --from N: start at the N-th synthetic document and drawn card, without the fixtures (to
  // export a range in a second process; the images are the same as in one run).
  const from = value('--from', 0);
  // --hard N: only the tuning side's hard negatives, genuine documents that print few colours
  // and that the copy part read as copies: N synthetic documents of the pale "-b" layouts
  // (corpus/synth-sources.ts drawn with the tag `train`; the evaluation draws `tuning` and
  // `holdout`: odd indices are the "-b" layouts) and N Niger paper cards after the --drawn 40
  // range (`paper-card-train-20` on).
  const hard = value('--hard', 0);
  if (hard > 0) {
    for (let k = 0; k < hard; k++) {
      await done(await portraitSynthSource('tuning', 2 * k + 1, 'train'));
      const name = `paper-card-train-${20 + k}`;
      await done(await drawPaperCard(seededRng(seedOf(name)), name));
    }
    process.exit(0);
  }
  if (from === 0) for (const s of await genuineSources(fixtures, 'tuning', 0)) await done(s);
  for (let i = from; i < Math.max(synth, drawn); i++) {
    if (i < synth) await done(await synthSource(1000 + i));
    if (i < drawn && i % 2 === 0) {
      const name = `paper-card-train-${i / 2}`;
      await done(await drawPaperCard(seededRng(seedOf(name)), name));
    }
    if (i < drawn && i % 2 === 1) {
      const name = `colour-card-train-${(i - 1) / 2}`;
      await done(await drawColourCard(seededRng(seedOf(name)), name));
    }
  }
}
