import sharp from 'sharp';
import { capture, type Level, sampleCapture, sampleScan } from './capture.ts';
import { compose, type Drawing } from './compose.ts';
import { type DocumentKind, makeHolder } from './content.ts';
import { sampleFillerGlyph } from './filler-glyph.ts';
import { type Quad, rectQuad } from './geometry.ts';
import { type LayoutSpec, layoutById, layoutsFor } from './layouts.ts';
import { saveAdvances } from './measure.ts';
import { mix, rng } from './random.ts';
import { type RenderedDocument, renderDocument } from './render.ts';
import { mapQuad, type SynthTruth } from './truth.ts';

/**
 * The generator's entry points: `generateDocument(seed, options)` draws one genuine document
 * (and, for a card, its other side) and photographs it; `corpus(...)` lists the benchmark's
 * documents, each a seed and options, so that any subset can be regenerated on demand.
 */

export type Split = 'tuning' | 'heldout' | 'all';

export interface GenerateOptions {
  kind?: DocumentKind;
  /** Force a layout (for a card: the front's; the back of the same model goes with it). */
  layout?: string;
  /** Draw only from tuning or held-out layouts. */
  split?: Split;
  level?: Level;
  /** Cards: both sides in one photo. */
  composite?: boolean;
  /** A small flatbed scan instead of a photo (capture.ts's sampleScan). */
  scan?: boolean;
  /** Skip the capture: the upright document as drawn (the tamper attacks start from it). */
  upright?: boolean;
  /**
   * Evaluation only (off in the benchmark, whose figures stay comparable): the MRZ fillers drawn
   * in another printer's shape (filler-glyph.ts), the class where a '<' is read as K.
   */
  fillerGlyph?: boolean;
  /** Evaluation only: names drawn from those holding a K (a genuine K must stay a K). */
  kNames?: boolean;
  /** Evaluation only: fine-line security print over the whole page (security-print.ts). */
  densePrint?: boolean;
}

export interface GeneratedImage {
  image: Buffer;
  truth: SynthTruth;
}

/** One document: the image (front, page or composite) and, for a card photographed side by side, the back. */
export interface GeneratedDocument extends GeneratedImage {
  back?: GeneratedImage;
}

const KINDS: [DocumentKind, number][] = [
  ['passport', 0.3],
  ['sahel_card', 0.35],
  ['td2_card', 0.15],
  ['niger_paper', 0.2],
];

const LEVELS: [Level, number][] = [
  ['clean', 0.15],
  ['mild', 0.4],
  ['medium', 0.3],
  ['hard', 0.15],
];

function weighted<T>(x: number, items: [T, number][]): T {
  let acc = 0;
  for (const [v, w] of items) {
    acc += w;
    if (x < acc) return v;
  }
  return items[items.length - 1]![0];
}

/** The card back of the same model as a front layout ("sahel-front-b" → "sahel-back-b"). */
function backOf(front: LayoutSpec): LayoutSpec {
  return layoutById(front.id.replace('-front-', '-back-'));
}

const DOC_TYPE: Record<DocumentKind, SynthTruth['documentType']> = {
  passport: 'passport',
  sahel_card: 'cni',
  td2_card: 'cni',
  niger_paper: 'cni',
};
const DOC_LAYOUT: Record<DocumentKind, SynthTruth['documentLayout']> = {
  passport: 'td3',
  sahel_card: 'td1',
  td2_card: 'td2',
  niger_paper: 'niger_paper_card',
};

export async function generateDocument(
  seed: number,
  options: GenerateOptions = {},
): Promise<GeneratedDocument> {
  const r = rng(seed);
  const kind = options.kind ?? (options.layout ? layoutById(options.layout).kind : weighted(r.next(), KINDS));
  const firstSide = kind === 'sahel_card' ? 'front' : kind === 'td2_card' ? 'front' : 'page';
  const candidates = options.layout
    ? [layoutById(options.layout)]
    : layoutsFor(kind, firstSide, options.split ?? 'all');
  const spec = r.pick(candidates);
  const specs = kind === 'sahel_card' ? [spec, backOf(spec)] : [spec];
  const level = options.level ?? weighted(r.next(), LEVELS);
  const holder = makeHolder(r.fork(100), kind, { kNames: options.kNames });

  // Cards are drawn 1000 px wide at scale 1.2–1.7, pages a little less, like good phone photos.
  const scale = r.range(1.2, 1.7) * (spec.width > 1100 ? 0.95 : 1);
  const rendered: RenderedDocument[] = [];
  const drawings: Drawing[] = [];
  for (const [k, s] of specs.entries()) {
    const d = await compose(s, holder, r.fork(200 + k));
    if (options.fillerGlyph) {
      // Its own stream: the document's other draws stay as without the option.
      const glyph = sampleFillerGlyph(r.fork(500));
      for (const t of d.items) if (t.field?.startsWith('mrz_')) t.fillerGlyph = glyph;
    }
    drawings.push(d);
    rendered.push(await renderDocument(s, d, r.fork(300 + k), scale, options.densePrint));
  }
  saveAdvances();

  const truthFor = (
    idx: number[],
    maps: ((p: [number, number]) => [number, number])[],
    width: number,
    height: number,
    params: SynthTruth['capture'],
  ): SynthTruth => {
    const shown = idx.map((k) => specs[k]!);
    const mrzShown = idx.some((k) => specs[k]!.mrz !== null);
    const printed = Object.assign({}, ...idx.map((k) => drawings[k]!.printed));
    const sideOf = (k: number) => specs[k]!.side;
    const portraitK = idx.findIndex((k) => rendered[k]!.portrait !== null);
    const pk = portraitK >= 0 ? idx[portraitK]! : -1;
    return {
      id: `s${seed}-${shown.map((s) => s.id).join('+')}`,
      seed,
      kind,
      layouts: shown.map((s) => s.id),
      heldOut: shown.some((s) => s.heldOut),
      sides: shown.map((s) => s.side),
      documentType: DOC_TYPE[kind],
      documentLayout: DOC_LAYOUT[kind],
      country: holder.country,
      mrz: mrzShown ? holder.mrz : null,
      printed,
      holder,
      boxes: idx.flatMap((k, j) =>
        rendered[k]!.boxes.map((b) => ({
          field: b.field,
          side: sideOf(k),
          quad: mapQuad(rectQuad(...b.box), maps[j]!),
        })),
      ),
      portrait:
        pk >= 0
          ? {
              side: sideOf(pk) as 'front' | 'page',
              quad: mapQuad(rectQuad(...rendered[pk]!.portrait!), maps[portraitK]!),
              face: mapQuad(rectQuad(...rendered[pk]!.face!), maps[portraitK]!),
              index: rendered[pk]!.portraitIndex!,
            }
          : null,
      documentQuads: idx.map((k, j) => ({
        side: sideOf(k),
        quad: mapQuad(rectQuad(0, 0, rendered[k]!.width, rendered[k]!.height), maps[j]!) as Quad,
      })),
      width,
      height,
      capture: params,
    };
  };

  if (options.upright) {
    const images = await Promise.all(
      rendered.map((d) =>
        sharp(d.rgb, { raw: { width: d.width, height: d.height, channels: 3 } })
          .png()
          .toBuffer(),
      ),
    );
    const id = (p: [number, number]) => p;
    const out: GeneratedDocument = {
      image: images[0]!,
      truth: truthFor([0], [id], rendered[0]!.width, rendered[0]!.height, null),
    };
    if (rendered.length > 1)
      out.back = {
        image: images[1]!,
        truth: truthFor([1], [id], rendered[1]!.width, rendered[1]!.height, null),
      };
    return out;
  }

  const composite = kind === 'sahel_card' && (options.composite ?? false);
  if (composite) {
    const params = options.scan ? sampleScan(r.fork(400), level) : sampleCapture(r.fork(400), level);
    const shot = await capture(rendered, params, r.fork(401));
    return { image: shot.image, truth: truthFor([0, 1], shot.maps, shot.width, shot.height, params) };
  }
  const shots = [];
  for (const [k, d] of rendered.entries()) {
    const params = options.scan
      ? sampleScan(r.fork(400 + 10 * k), level)
      : sampleCapture(r.fork(400 + 10 * k), level);
    const shot = await capture([d], params, r.fork(401 + 10 * k));
    shots.push({ image: shot.image, truth: truthFor([k], shot.maps, shot.width, shot.height, params) });
  }
  const out: GeneratedDocument = shots[0]!;
  if (shots[1]) out.back = shots[1];
  return out;
}

export interface CorpusItem {
  index: number;
  seed: number;
  options: GenerateOptions;
}

/**
 * The benchmark: `count` documents from `baseSeed`. The mix (passports 30 %, Sahel cards 35 %,
 * of which 15 % photographed front and back in one picture, TD2 cards 15 %, Niger paper cards
 * 20 %; capture levels clean 15 %, mild 40 %, medium 30 %, hard 15 %; 8 % of the documents with an
 * MRZ are small flatbed scans instead of photos, capture.ts's sampleScan) is decided per item from
 * its seed, so the first 200 items are a fair sample of the 2,000.
 */
export function* corpus(count = 2000, baseSeed = 1, split: Split = 'all'): Generator<CorpusItem> {
  for (let index = 0; index < count; index++) {
    const seed = mix(baseSeed, index);
    const r = rng(mix(seed, 7));
    const kind = weighted(r.next(), KINDS);
    const level = weighted(r.next(), LEVELS);
    const composite = kind === 'sahel_card' && r.chance(0.15);
    // Drawn apart (its own stream), so that adding scans left every other item as it was.
    const scan = kind !== 'niger_paper' && rng(mix(seed, 8)).chance(0.08);
    yield { index, seed, options: { kind, level, composite, split, ...(scan ? { scan } : {}) } };
  }
}

/** Generates the corpus's documents one after the other. */
export async function* generateCorpus(
  count = 2000,
  baseSeed = 1,
  split: Split = 'all',
): AsyncGenerator<CorpusItem & GeneratedDocument> {
  for (const item of corpus(count, baseSeed, split))
    yield { ...item, ...(await generateDocument(item.seed, item.options)) };
}
