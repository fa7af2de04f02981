import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import { straightenedWithRing } from '../../src/tamper/field-background.ts';
import { parseTextBoxes } from '../../src/tamper/text-boxes.ts';
import { isOneTextLine, lineShape } from '../../src/tamper/text-line.ts';
import { type MeasuredField, measureTypedText, typedTextRatios } from '../../src/tamper/typed-text.ts';
import { generateDocument } from '../synth/index.ts';
import { ATTACKS } from './corpus/attacks.ts';
import { phoneCaptureMapped } from './corpus/phone-capture.ts';
import { seededRng, seedOf } from './corpus/rng.ts';
import { genuineSources } from './corpus/sources.ts';
import type { GenuineSource } from './corpus/types.ts';
import type { Half } from './fixture-split.ts';

/**
 * Measures of the typed-text cues of `field_overwritten` (typed-text.ts: each value's ink contrast
 * and edge sharpness over its side's other values) on every field of bona fide captures and on
 * the overwritten field of the corpus's `field_overwritten` attack, same seeds as
 * generated-attacks.ts. Sources: one half's fixture pages and drawn colour cards (paper cards are
 * never judged by the field cues), plus synthetic documents of the reading benchmark's layouts of
 * that half (upright renders, then the same attack and phone capture). Prints one row per field.
 *
 *   npx tsx packages/vision/scripts/eval/typed-text-cues.ts [fixturesDir] [--half tuning]
 *       [--drawn 3] [--synth 12] [--read] [--captured 30] [--captured-only]
 *
 * `--read`: boxes from the reading step on each capture (as the service), else the truth boxes.
 * `--captured N`: also N bona fide synthetic documents of that half's layouts, captured by the
 * reading benchmark's camera and read by the reading step (genuine fields as the service sees them).
 */

const overwrite = ATTACKS.find((a) => a.kind === 'field_overwritten')!;

async function synthSources(half: Half, count: number): Promise<GenuineSource[]> {
  const out: GenuineSource[] = [];
  const split = half === 'tuning' ? 'tuning' : 'heldout';
  for (let seed = half === 'tuning' ? 5000 : 9000; out.length < count; seed++) {
    const doc = await generateDocument(seed, { split, upright: true });
    if (doc.truth.kind === 'niger_paper') continue;
    const { data, info } = await sharp(doc.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const rect = (q: [number, number][]) => {
      const xs = q.map((p) => p[0]);
      const ys = q.map((p) => p[1]);
      return {
        x: Math.min(...xs),
        y: Math.min(...ys),
        w: Math.max(...xs) - Math.min(...xs),
        h: Math.max(...ys) - Math.min(...ys),
      };
    };
    out.push({
      name: `synth-${seed}-${doc.truth.layouts[0]}`,
      image: { rgb: new Uint8Array(data), width: info.width, height: info.height },
      layout: doc.truth.documentLayout,
      boxes: {
        fields: doc.truth.boxes.map((b) => ({ field: b.field, box: rect(b.quad as [number, number][]) })),
      },
    });
  }
  return out;
}

type Row = (string | number)[];

async function measureCapture(
  bytes: Uint8Array,
  fields: GenuineSource['boxes']['fields'] | null,
  map: ((x: number, y: number) => [number, number]) | null,
): Promise<{ field: string; contrast: number; sharpness: number; absContrast: number }[]> {
  const front = await normalizeImage(bytes);
  const k = front.width / front.originalWidth;
  let boxes: { field: string; quad: [number, number][] }[];
  if (!fields || !map) {
    const reading = await readDocument({ front });
    boxes = reading.fieldBoxes.filter((b) => b.side === 'front');
  } else {
    const at = (x: number, y: number): [number, number] => {
      const [u, v] = map(x, y);
      return [u * k, v * k];
    };
    boxes = fields.map((f) => ({
      field: f.field,
      quad: [
        at(f.box.x, f.box.y),
        at(f.box.x + f.box.w, f.box.y),
        at(f.box.x + f.box.w, f.box.y + f.box.h),
        at(f.box.x, f.box.y + f.box.h),
      ],
    }));
  }
  const measured: MeasuredField[] = [];
  for (const b of parseTextBoxes(boxes.map((b) => ({ ...b, side: 'front' })))) {
    const ring = straightenedWithRing(front, b.quad!);
    if (!isOneTextLine(b, ring.canvas, ring.inner)) continue;
    const m = measureTypedText(ring);
    const shape = lineShape(b);
    if (m)
      measured.push({
        field: b.field,
        side: 'front',
        measure: m,
        at: [b.x + b.w / 2, b.y + b.h / 2],
        aspect: shape.w / Math.max(1, shape.h),
      });
  }
  return typedTextRatios(measured).map((r) => ({
    ...r,
    absContrast: measured.find((m) => m.field === r.field)!.measure.contrast,
  }));
}

export async function typedTextCues(
  fixturesDir: string,
  half: Half,
  opts: { drawn: number; synth: number; read: boolean; captured: number; capturedOnly?: boolean },
): Promise<void> {
  const sources = opts.capturedOnly
    ? []
    : [
        ...(await genuineSources(fixturesDir, half, opts.drawn)).filter(
          (s) => s.layout !== 'niger_paper_card',
        ),
        ...(await synthSources(half, opts.synth)),
      ];
  const rows: Row[] = [];
  for (const source of sources) {
    if (!source.boxes.fields.length) continue;
    const brng = seededRng(seedOf(`${source.name}:bona-fide`));
    const bona = await phoneCaptureMapped(source.image, brng);
    // The attack's target: the same draw as the corpus's make() (its first rng use).
    const arng = seededRng(seedOf(`${source.name}:${overwrite.kind}`));
    const peek = seededRng(seedOf(`${source.name}:${overwrite.kind}`));
    const values = source.boxes.fields.filter((f) => !f.field.startsWith('mrz') && f.box.w > 2 * f.box.h);
    const target = (values.length ? values : source.boxes.fields)[
      Math.floor(peek.next() * (values.length || source.boxes.fields.length))
    ]!.field;
    const forged = await overwrite.make(source, arng);
    const attacked = await phoneCaptureMapped(forged, arng);
    for (const [kind, cap] of [
      ['bona fide', bona],
      ['overwritten', attacked],
    ] as const) {
      for (const r of await measureCapture(cap.bytes, opts.read ? null : source.boxes.fields, cap.map)) {
        if (kind === 'overwritten' && r.field !== target) continue;
        rows.push([
          source.name,
          kind,
          r.field,
          r.absContrast.toFixed(0),
          r.contrast.toFixed(2),
          r.sharpness.toFixed(2),
        ]);
      }
    }
  }
  // Bona fide synthetic documents captured by the reading benchmark's own camera (capture.ts),
  // read by the reading step: genuine fields as the service sees them.
  for (let i = 0, seed = half === 'tuning' ? 6000 : 9500; i < opts.captured; seed++) {
    const doc = await generateDocument(seed, { split: half === 'tuning' ? 'tuning' : 'heldout' });
    if (doc.truth.kind === 'niger_paper') continue;
    i++;
    for (const r of await measureCapture(new Uint8Array(doc.image), null, null))
      rows.push([
        `captured-${seed}-${doc.truth.layouts[0]}`,
        'bona fide',
        r.field,
        r.absContrast.toFixed(0),
        r.contrast.toFixed(2),
        r.sharpness.toFixed(2),
      ]);
  }
  console.log(['source', 'image', 'field', 'contrast', 'contrast ratio', 'sharpness ratio'].join('\t'));
  for (const r of rows) console.log(r.join('\t'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const flagValues = new Set(['--half', '--drawn', '--synth', '--captured'].map(value));
  const dir = resolve(args.find((a) => !a.startsWith('--') && !flagValues.has(a)) ?? '../shared/fixtures');
  await typedTextCues(dir, (value('--half') ?? 'tuning') as Half, {
    drawn: Number(value('--drawn') ?? 3),
    synth: Number(value('--synth') ?? 12),
    read: args.includes('--read'),
    captured: Number(value('--captured') ?? 0),
    capturedOnly: args.includes('--captured-only'),
  });
}
