import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentLayout, TamperSignal } from '@idv/core';
import { textExtent } from '../../src/document/extent.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import { detectTamper, TAMPER_SIGNS } from '../../src/tamper/index.ts';
import { median, pct, printTable, readTruth } from './faces-common.ts';
import { type Half, loadSplitTruth } from './fixture-split.ts';

/**
 * Tamper evaluation on the fixture set: for each attack kind in truth.json, how many images
 * raise the expected sign (and any fail-grade sign); on bona fide documents, the false-alarm
 * rate (fail-grade signs, then any sign including capture anomalies).
 *
 *   npx tsx packages/vision/scripts/eval/attacks.ts [fixturesDir] [--no-field-boxes]
 *       [--half tuning|holdout]
 *
 * Like the analyzer, the reading step's field boxes (`DocumentReading.fieldBoxes`) are passed to
 * the text-field detectors (font_inconsistency, field_overwritten, partial_document);
 * --no-field-boxes leaves them out, to compare (docs/benchmarks.md, "Text-field detectors with
 * real OCR boxes"). `--half` keeps the files of one half of the fixture split
 * (fixture-split.ts): thresholds are tuned on `tuning`; `holdout` is measured once, at the end.
 * Without it every file is run, as before the split.
 */

/** Which sign is the right answer to each attack kind of the fixtures. */
const EXPECTED: Record<string, string> = {
  grayscale_photocopy: 'photocopy',
  portrait_swap: 'portrait_edge',
  text_inpaint: 'field_overwritten',
  screen_replay: 'photo_of_screen',
  printed_photo: 'photocopy',
};

function layoutOf(kind: string): DocumentLayout {
  if (kind === 'passport') return 'td3';
  if (kind === 'id_td1') return 'td1';
  if (kind === 'id_td2') return 'td2';
  return 'unknown';
}

const isFailGrade = (s: TamperSignal) => TAMPER_SIGNS[s.type].maxEffect === 'fail';

export async function evaluateAttacks(
  fixturesDir: string,
  withFieldBoxes = true,
  half?: Half,
): Promise<void> {
  const truth = half
    ? Object.fromEntries(
        (await loadSplitTruth(fixturesDir)).filter((e) => e.half === half).map((e) => [e.file, e.truth]),
      )
    : await readTruth(fixturesDir);
  const perKind = new Map<string, { n: number; expected: number; anyFail: number }>();
  let bonaFide = 0;
  let falseFail = 0;
  let falseAny = 0;
  const alarms: string[][] = [];
  const times: number[] = [];
  for (const [file, t] of Object.entries(truth)) {
    const isDocument = file.startsWith('documents/');
    if (!t.attack && !isDocument) continue;
    const bytes = new Uint8Array(await readFile(join(fixturesDir, file)));
    const front = await normalizeImage(bytes);
    // As the analyzer does: the reading step tells where the document lies on the photo.
    const reading = await readDocument({ front });
    const region = textExtent(reading.textBoxes, 'front', front.width, front.height);
    const { signals, timings } = await detectTamper(
      { front, originals: { front: bytes } },
      {
        layout: layoutOf(t.kind),
        documentRegions: region ? { front: region } : {},
        ...(withFieldBoxes ? { textBoxes: reading.fieldBoxes, lineBoxes: reading.textBoxes } : {}),
      },
    );
    times.push(timings.tamper_ms ?? 0);
    const signs = signals.map((s) => `${s.type}(${s.severity} ${s.strength})`).join(', ');
    if (t.attack) {
      const k = perKind.get(t.attack) ?? { n: 0, expected: 0, anyFail: 0 };
      k.n++;
      if (signals.some((s) => s.type === EXPECTED[t.attack!])) k.expected++;
      if (signals.some(isFailGrade)) k.anyFail++;
      perKind.set(t.attack, k);
      alarms.push([file, t.attack, signs || '—']);
    } else {
      bonaFide++;
      if (signals.some(isFailGrade)) falseFail++;
      if (signals.length) falseAny++;
      if (signals.length) alarms.push([file, 'bona fide', signs]);
    }
  }
  console.log('\n### Attack detection\n');
  printTable(
    ['attack kind', 'images', 'expected sign', 'flagged (expected sign)', 'flagged (any fail-grade sign)'],
    [...perKind].map(([kind, k]) => [
      kind,
      k.n,
      EXPECTED[kind] ?? '?',
      `${k.expected} (${pct(k.expected, k.n)})`,
      `${k.anyFail} (${pct(k.anyFail, k.n)})`,
    ]),
  );
  console.log('\n### False alarms on bona fide documents\n');
  printTable(
    ['documents', 'fail-grade sign', 'any sign (incl. glare/blur/partial)'],
    [[bonaFide, `${falseFail} (${pct(falseFail, bonaFide)})`, `${falseAny} (${pct(falseAny, bonaFide)})`]],
  );
  console.log('\n### Signs raised\n');
  printTable(['image', 'truth', 'signs'], alarms);
  console.log(`\nTamper time per image (median): ${median(times)} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const halfAt = args.indexOf('--half');
  const half = halfAt >= 0 ? (args[halfAt + 1] as Half) : undefined;
  if (half !== undefined && half !== 'tuning' && half !== 'holdout')
    throw new Error('--half takes tuning or holdout');
  const dir =
    args.find((a, i) => !a.startsWith('--') && (halfAt < 0 || i !== halfAt + 1)) ??
    resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures');
  await evaluateAttacks(dir, !args.includes('--no-field-boxes'), half);
}
