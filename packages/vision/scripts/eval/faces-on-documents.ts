import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fusedEmbeddings, fusedSimilarity, portraitEmbeddings } from '../../src/faces/analyze.ts';
import { detectDocumentFaces, detectSelfieFaces, type FaceBox, largestFace } from '../../src/faces/detect.ts';
import { cropResize } from '../../src/image/affine.ts';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import { phoneCaptureMapped } from './corpus/phone-capture.ts';
import { drawPortraitPrint, type PortraitPrint, printPortrait } from './corpus/portrait-style.ts';
import { resizeTo } from './corpus/raster-io.ts';
import { type Rng, seededRng, seedOf } from './corpus/rng.ts';
import { synthSource } from './corpus/synth-sources.ts';
import type { Rect } from './corpus/types.ts';
import { loadFixtureImage, median, pct, printTable, readTruth } from './faces-common.ts';
import { fixtureHalf, type Half } from './fixture-split.ts';

/**
 * Document portrait ↔ selfie, the comparison the service makes, measured on people the face
 * calibration never saw. The fixture set has no document whose holder also has a face photo
 * (faces.ts: 0 genuine document ↔ face pairs), so the documents are made here: each fixture
 * face photo is cut as an identity photo, printed in the photo box of a synthetic document (the
 * reading benchmark's generator), plain or in one of the print styles real documents use
 * (corpus/portrait-style.ts: grey, sepia or tinted, screened, under a security pattern,
 * vignetted, framed, with a ghost), and the page is photographed (corpus/phone-capture.ts).
 * The service's own steps then find the portrait (detectDocumentFaces, the largest face) and
 * score it against every other face photo (portraitEmbeddings, fusedSimilarity: analyzeFaces's
 * own pieces). A pair of one photo with its own print is left out: the genuine pairs are
 * two different photos of one person, the selfie and the document's. On the generator's layouts
 * with a ghost image, the ghost still shows the generator's own portrait; it is far smaller than
 * the photo, so the largest face found is the printed photo (a face found off the photo is
 * counted as not found).
 *
 * The calibration in use was fitted on the tuning half's face ↔ face pairs only
 * (faces-out-of-sample.ts), so the holdout half's persons are the figure to report; the tuning
 * half is printed beside it.
 *
 *   npx tsx packages/vision/scripts/eval/faces-on-documents.ts [fixturesDir] [--per-face N]
 *     [--half holdout|tuning] [--soften service,0,0.02] [--draw TAG]
 */

const FACE_KINDS = new Set(['face', 'face_live']);
/** Plain backgrounds of identity photos, for a close-up whose frame runs out of the picture. */
const BACKDROPS: [number, number, number][] = [
  [236, 236, 232],
  [214, 224, 236],
  [246, 246, 246],
  [200, 205, 210],
];

interface Photo {
  file: string;
  person: string;
  half: Half;
  image: NormalizedImage;
  face: FaceBox;
  embeddings: Float32Array[];
}

interface PrintedDocument {
  photo: Photo;
  style: string;
  /** The captured page and the portrait found on it (null when none was, or not on the photo). */
  found: { shot: NormalizedImage; face: FaceBox } | null;
  /** The portrait's width as found on the captured page (working pixels); 0 when not found. */
  faceWidth: number;
  embeddings: Float32Array[] | null;
}

/**
 * An identity photo of `face` in `photo` (its size): the face 50–65 % of the photo's width, its
 * centre 40–48 % of the way down, as passport photo rules place it. Sampled bilinearly; outside
 * the picture (a close-up) a plain backdrop.
 */
function identityPhoto(image: NormalizedImage, face: FaceBox, photo: Rect, rng: Rng): RgbImage {
  const w = Math.max(1, Math.round(photo.w));
  const h = Math.max(1, Math.round(photo.h));
  const cropW = face.w / rng.between(0.5, 0.65);
  const cropH = (cropW * h) / w;
  const crop = {
    x: face.x + face.w / 2 - cropW / 2,
    y: face.y + face.h / 2 - cropH * rng.between(0.4, 0.48),
    w: cropW,
    h: cropH,
  };
  const backdrop = rng.pick(BACKDROPS);
  const sampled = cropResize(image, crop, w, h);
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    // cropResize samples each pixel's centre; one that falls off the picture takes the backdrop.
    const sy = crop.y + ((y + 0.5) * cropH) / h - 0.5;
    for (let x = 0; x < w; x++) {
      const sx = crop.x + ((x + 0.5) * cropW) / w - 0.5;
      const o = (y * w + x) * 3;
      const outside = sx < 0 || sy < 0 || sx > image.width - 1 || sy > image.height - 1;
      for (let c = 0; c < 3; c++) rgb[o + c] = outside ? backdrop[c]! : Math.round(sampled[o + c]!);
    }
  }
  return { rgb, width: w, height: h };
}

/** `patch` put over `page` at `at` (page pixels, clipped to the page). */
function placed(page: RgbImage, patch: RgbImage, at: Rect): RgbImage {
  const out = page.rgb.slice();
  const x0 = Math.round(at.x);
  const y0 = Math.round(at.y);
  for (let y = 0; y < patch.height; y++) {
    const py = y0 + y;
    if (py < 0 || py >= page.height) continue;
    for (let x = 0; x < patch.width; x++) {
      const px = x0 + x;
      if (px < 0 || px >= page.width) continue;
      out.set(
        patch.rgb.subarray((y * patch.width + x) * 3, (y * patch.width + x) * 3 + 3),
        (py * page.width + px) * 3,
      );
    }
  }
  return { rgb: out, width: page.width, height: page.height };
}

/** A short name of a drawn print style, for the per-style rows. */
function styleName(print: PortraitPrint | null): string {
  if (!print) return 'plain';
  const parts = [
    print.tone?.kind,
    print.screen ? `${print.screen.kind} screen` : undefined,
    print.pattern ? 'pattern' : undefined,
    print.vignette ? 'vignette' : undefined,
    print.frame ? 'frame' : undefined,
    print.corner ? 'corners' : undefined,
    print.ghost ? 'ghost' : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(' + ') : 'plain (drawn)';
}

/**
 * The `variant`-th document printed with `photo`: even variants print the photo plain, odd ones
 * in a drawn style. Seeded by the file and the variant, so a run repeats.
 */
async function printedDocument(
  photo: Photo,
  variant: number,
  index: number,
  draw: string,
): Promise<PrintedDocument> {
  const rng = seededRng(seedOf(`${draw}:${photo.file}:${variant}`));
  const source = await synthSource(photo.half, index, draw);
  const box = source.boxes.photo;
  if (!box) return { photo, style: 'no photo box', found: null, faceWidth: 0, embeddings: null };
  let page = placed(source.image, identityPhoto(photo.image, photo.face, box, rng), box);
  const print = variant % 2 ? drawPortraitPrint(rng) : null;
  if (print) page = await printPortrait(page, box, print);
  // The document nearer or farther from the phone: the page drawn at 45–100 % of its size,
  // which puts the portrait's face between about 80 and 230 working pixels.
  const far = rng.between(0.45, 1);
  const small = await resizeTo(page, Math.round(page.width * far), Math.round(page.height * far));
  const { bytes, map: mapSmall } = await phoneCaptureMapped(small, rng);
  const map = (x: number, y: number) => mapSmall(x * far, y * far);
  const shot = await normalizeImage(bytes);
  // Where the photo landed on the capture (the map is in the capture's own pixels, the working
  // image may be scaled down from it): a face found elsewhere is not the portrait.
  const toWorking = shot.width / shot.originalWidth;
  const corners = [
    map(box.x, box.y),
    map(box.x + box.w, box.y),
    map(box.x, box.y + box.h),
    map(box.x + box.w, box.y + box.h),
  ].map(([x, y]) => [x * toWorking, y * toWorking]);
  const face = largestFace(await detectDocumentFaces(shot));
  const style = styleName(print);
  if (!face) return { photo, style, found: null, faceWidth: 0, embeddings: null };
  const cx = face.x + face.w / 2;
  const cy = face.y + face.h / 2;
  const inside =
    cx >= Math.min(...corners.map((p) => p[0]!)) &&
    cx <= Math.max(...corners.map((p) => p[0]!)) &&
    cy >= Math.min(...corners.map((p) => p[1]!)) &&
    cy <= Math.max(...corners.map((p) => p[1]!));
  if (!inside)
    return { photo, style: `${style} (another face found)`, found: null, faceWidth: 0, embeddings: null };
  return { photo, style, found: { shot, face }, faceWidth: face.w, embeddings: null };
}

interface Scores {
  genuine: number[];
  impostor: number[];
  /** The genuine pairs' two photos compared directly: what the print and the capture cost. */
  photoGenuine: number[];
}

function scoresOf(documents: PrintedDocument[], photos: Photo[]): Scores {
  const out: Scores = { genuine: [], impostor: [], photoGenuine: [] };
  for (const d of documents) {
    if (!d.embeddings) continue;
    for (const p of photos) {
      if (p.file === d.photo.file) continue;
      if (p.person !== d.photo.person) {
        out.impostor.push(fusedSimilarity(d.embeddings, p.embeddings));
        continue;
      }
      out.genuine.push(fusedSimilarity(d.embeddings, p.embeddings));
      out.photoGenuine.push(fusedSimilarity(d.photo.embeddings, p.embeddings));
    }
  }
  return out;
}

function row(label: string, documents: PrintedDocument[], photos: Photo[]): (string | number)[] {
  const found = documents.filter((d) => d.embeddings).length;
  const { genuine, impostor, photoGenuine } = scoresOf(documents, photos);
  const at = (values: number[], ok: (v: number) => boolean) =>
    `${values.filter(ok).length} (${pct(values.filter(ok).length, values.length)})`;
  return [
    label,
    documents.length,
    `${found} (${pct(found, documents.length)})`,
    genuine.length,
    at(genuine, (v) => v >= 0.45),
    at(genuine, (v) => v >= 0.5),
    genuine.length ? median(genuine).toFixed(3) : 'n/a',
    at(photoGenuine, (v) => v >= 0.45),
    impostor.length,
    at(impostor, (v) => v < 0.3),
    impostor.length ? Math.max(...impostor).toFixed(3) : 'n/a',
  ];
}

/**
 * Separation without the calibration: genuine pairs above the strangers' top 1 % and 0.1 % (by
 * rank), and the AUC. A change that only moves every document's score (a shift the calibration
 * would absorb) leaves these as they are; one that compares better raises them.
 */
function separation(label: string, { genuine, impostor }: Scores): string {
  if (!genuine.length || !impostor.length) return `${label}: no pairs`;
  const strangers = [...impostor].sort((a, b) => b - a);
  const above = (share: number) => {
    const bar = strangers[Math.floor(share * strangers.length)]!;
    return genuine.filter((g) => g > bar).length;
  };
  let wins = 0;
  for (const g of genuine) for (const i of impostor) wins += g > i ? 1 : g === i ? 0.5 : 0;
  const auc = wins / (genuine.length * impostor.length);
  return (
    `${label}: genuine above the strangers' top 1 % ${above(0.01)}, top 0.1 % ${above(0.001)} ` +
    `of ${genuine.length}; AUC ${auc.toFixed(5)}`
  );
}

const HEADER = [
  'documents',
  'printed',
  'portrait found',
  'genuine pairs',
  'genuine ≥ 0.45',
  'genuine ≥ 0.50',
  'median genuine',
  'same pairs photo ↔ photo ≥ 0.45',
  'impostor pairs',
  'impostor < 0.30',
  'max impostor',
];

export interface FacesOnDocumentsOptions {
  /** Documents printed per face photo (default 4: two plain, two in a drawn style). */
  perFace?: number;
  /** Names the draw (the seeds of the documents, prints and captures; default faces-on-documents). */
  draw?: string;
  /** Halves to report (default both, the holdout first). */
  halves?: Half[];
  /**
   * How the documents' portraits are embedded, one report each: `service` as analyzeFaces does
   * (the default), a number to soften every one by that many eye distances (0: never).
   */
  softenings?: (number | 'service')[];
}

export async function evaluateFacesOnDocuments(
  fixturesDir: string,
  options: FacesOnDocumentsOptions = {},
): Promise<void> {
  const perFace = options.perFace ?? 4;
  const draw = options.draw ?? 'faces-on-documents';
  const halves = options.halves ?? ['holdout', 'tuning'];
  const truth = await readTruth(fixturesDir);
  const photos: Photo[] = [];
  for (const [file, t] of Object.entries(truth)) {
    if (!FACE_KINDS.has(t.kind) || !t.person) continue;
    const half = fixtureHalf(file, t as Parameters<typeof fixtureHalf>[1]);
    if (!halves.includes(half)) continue;
    const image = await loadFixtureImage(fixturesDir, file);
    const face = largestFace(await detectSelfieFaces(image));
    if (!face) continue;
    photos.push({
      file,
      person: t.person,
      half,
      image,
      face,
      embeddings: await fusedEmbeddings(image, face),
    });
  }
  const documents: PrintedDocument[] = [];
  let index = 0;
  for (const photo of photos)
    for (let v = 0; v < perFace; v++) documents.push(await printedDocument(photo, v, index++, draw));

  console.log(
    "\n### Document portrait ↔ selfie: the fixtures' faces printed on synthetic documents and photographed\n",
  );
  console.log(
    `${photos.length} face photos, ${perFace} documents each (even: the photo printed plain; odd: a drawn ` +
      "print style). Genuine pairs: a document against the same person's other photos; the calibration in " +
      'use was fitted on the tuning half.',
  );
  for (const soften of options.softenings ?? ['service']) {
    for (const d of documents) {
      const found = d.found;
      if (!found) d.embeddings = null;
      else if (soften === 'service') d.embeddings = await portraitEmbeddings(found.shot, found.face);
      else d.embeddings = await fusedEmbeddings(found.shot, found.face, soften);
    }
    console.log(
      soften === 'service'
        ? '\n#### As the service compares (a screened portrait softened: src/faces/descreen.ts)\n'
        : `\n#### Every document portrait softened by ${soften} eye distances\n`,
    );
    report(documents, photos, halves);
  }
}

const HALF_LABEL: Record<Half, string> = {
  holdout: 'holdout half (report this)',
  tuning: "tuning half (the calibration's persons)",
};

function report(documents: PrintedDocument[], photos: Photo[], halves: Half[]): void {
  const ofHalf = <T extends { half: Half }>(items: T[], h: Half) => items.filter((x) => x.half === h);
  const docsOf = (h: Half) => documents.filter((d) => d.photo.half === h);
  printTable(
    HEADER,
    halves.map((h) => row(HALF_LABEL[h], docsOf(h), ofHalf(photos, h))),
  );
  for (const h of halves) console.log(separation(HALF_LABEL[h], scoresOf(docsOf(h), ofHalf(photos, h))));
  const h = halves[0]!;
  const docs = docsOf(h);
  const people = ofHalf(photos, h);
  console.log(`\n${HALF_LABEL[h]}, by print:\n`);
  const plain = (d: PrintedDocument) => d.style.startsWith('plain');
  const groups: [string, (d: PrintedDocument) => boolean][] = [
    ['plain', plain],
    ['drawn style', (d) => !plain(d)],
    ['grey or sepia', (d) => /grey|sepia/.test(d.style)],
    ['screened', (d) => d.style.includes('screen')],
    ['security pattern', (d) => d.style.includes('pattern')],
  ];
  printTable(
    HEADER,
    groups.map(([label, keep]) => row(label, docs.filter(keep), people)),
  );
  console.log(`\n${HALF_LABEL[h]}, by the portrait's face width on the working image:\n`);
  const widths: [string, number, number][] = [
    ['under 120 px', 1, 120],
    ['120–170 px', 120, 170],
    ['170 px and over', 170, Number.POSITIVE_INFINITY],
  ];
  printTable(
    HEADER,
    widths.map(([label, lo, hi]) =>
      row(
        label,
        docs.filter((d) => d.faceWidth >= lo && d.faceWidth < hi),
        people,
      ),
    ),
  );
  const missed = docs.filter((d) => !d.embeddings);
  if (missed.length)
    console.log(`\nPortrait not found: ${missed.map((d) => `${d.photo.file} [${d.style}]`).join(', ')}`);
  const low = docs.flatMap((d) =>
    d.embeddings
      ? people
          .filter((p) => p.person === d.photo.person && p.file !== d.photo.file)
          .map((p) => ({ d, p, s: fusedSimilarity(d.embeddings!, p.embeddings) }))
          .filter((x) => x.s < 0.45)
      : [],
  );
  if (low.length) {
    console.log('\nGenuine pairs under 0.45:');
    for (const { d, p, s } of low)
      console.log(
        `  ${d.photo.file} [${d.style}, face ${Math.round(d.faceWidth)} px] ↔ ${p.file}: ${s.toFixed(3)}`,
      );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dir = resolve(
    args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? '../shared/fixtures',
  );
  const perFace = value('--per-face');
  const half = value('--half');
  const soften = value('--soften');
  const draw = value('--draw');
  await evaluateFacesOnDocuments(dir, {
    ...(perFace ? { perFace: Number(perFace) } : {}),
    ...(half ? { halves: [half as Half] } : {}),
    ...(draw ? { draw } : {}),
    ...(soften ? { softenings: soften.split(',').map((v) => (v === 'service' ? v : Number(v))) } : {}),
  });
}
