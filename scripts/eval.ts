/**
 * `npm run eval [-- [part] [folder] [--synth=N] [--minutes=M] [--verbose]]`: part is `reading`, `faces` or `tamper`
 * (default: all). Reading: the synthetic benchmark (N generated documents, default 500; tuning
 * and held-out layouts apart), then the fixture folder's holdout half and tuning half apart
 * (fixture-split.ts). Accuracy on a folder of images with a truth.json (default
 * ../shared/fixtures). Prints MRZ read rates, document-type accuracy and reading times,
 * face-match figures (TAR at FAR, rank-1, similarity distributions; then document portrait ↔
 * selfie on the fixtures' faces printed on generated documents, scripts/eval/faces-on-documents.ts),
 * tamper detection, and portrait_edge, field_overwritten and photo_of_screen on simulated
 * portrait swaps, in-painted text lines and screen recaptures made from the bona fide documents;
 * then per attack kind caught / total and per sign type bona fide flagged / total on the
 * generated attack corpus (holdout half) and on the fixtures' holdout half
 * (scripts/eval/generated-attacks.ts); then bona fide captures of a large fresh generated draw,
 * as they are and under glare, blur, stamps and handwriting, dim light and overexposure (tamper
 * fails and signs per type; scripts/eval/bona-fide-hazards.ts); then the same draw's genuine pages
 * uploaded as files (no camera) with and without a value moved over another field; then genuine
 * and forged fields on pages printed with dense security print (another fresh draw).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { evaluateAttacks } from '../packages/vision/scripts/eval/attacks.ts';
import { evaluateHazards } from '../packages/vision/scripts/eval/bona-fide-hazards.ts';
import { evaluateFaces } from '../packages/vision/scripts/eval/faces.ts';
import { evaluateFacesOnDocuments } from '../packages/vision/scripts/eval/faces-on-documents.ts';
import {
  evaluateFixtureHalf,
  evaluateGeneratedAttacks,
} from '../packages/vision/scripts/eval/generated-attacks.ts';
import { evaluatePortraitSwaps } from '../packages/vision/scripts/eval/portrait-swap.ts';
import { evaluateReading } from '../packages/vision/scripts/eval/reading.ts';
import { evaluateScreenRecapture } from '../packages/vision/scripts/eval/screen-recapture.ts';
import { evaluateSynthReading } from '../packages/vision/scripts/eval/synth-reading.ts';
import { evaluateTextInpaint } from '../packages/vision/scripts/eval/text-inpaint.ts';

const PARTS = ['reading', 'faces', 'tamper'];
/** The fresh generated draw the bona fide figures come from (docs/benchmarks.md, seventh session). */
const BONA_FIDE_DRAW = 's17-hold';
/** The fresh draw printed with dense security print (docs/benchmarks.md, fifth session of 2026-11-29). */
const DENSE_PRINT_DRAW = 's31-hold';
const args = process.argv.slice(2);
const positional = args.filter((a) => !a.startsWith('--'));
const part = positional.find((a) => PARTS.includes(a)) ?? 'all';
const folder = positional.find((a) => !PARTS.includes(a));
const synth = Number(args.find((a) => a.startsWith('--synth='))?.slice(8) ?? 500);
const dir = resolve(folder ?? process.env.FIXTURES_DIR ?? '../shared/fixtures');
const want = (p: string) => part === 'all' || part === p;

if (want('reading') && synth > 0) {
  console.log(`## Reading: synthetic benchmark (${synth} documents)\n`);
  const minutes = args.find((a) => a.startsWith('--minutes='))?.slice(10);
  await evaluateSynthReading({
    count: synth,
    minutes: minutes ? Number(minutes) : undefined,
    verbose: args.includes('--verbose'),
  });
}
if (!existsSync(resolve(dir, 'truth.json'))) {
  console.log(
    `No truth.json in ${dir}: no fixture evaluation. Pass a fixture folder: npm run eval -- <folder>`,
  );
  process.exit(0);
}
console.log(`\nFixtures: ${dir}`);
if (want('reading')) {
  console.log('\n## Reading: fixture holdout half (report these)\n');
  await evaluateReading(dir, { half: 'holdout' });
  console.log('\n## Reading: fixture tuning half (tuned on: not a measure of accuracy)\n');
  await evaluateReading(dir, { half: 'tuning' });
}
if (want('faces')) {
  console.log('\n## Faces\n');
  await evaluateFaces(dir);
  await evaluateFacesOnDocuments(dir);
}
if (want('tamper')) {
  console.log('\n## Tamper signs\n');
  await evaluateAttacks(dir);
  await evaluatePortraitSwaps(dir);
  // In-painted lines: the holdout half is the figure; the tuning half, tuned on, printed beside it.
  await evaluateTextInpaint(dir, 'holdout');
  await evaluateTextInpaint(dir, 'tuning');
  await evaluateScreenRecapture(dir);
  console.log('\n## Tamper signs on the generated attack corpus and the real holdout half\n');
  await evaluateGeneratedAttacks(dir, 'holdout');
  await evaluateFixtureHalf(dir, 'holdout');
  // Bona fide at scale: a fresh draw never tuned on (`s17-tune` was), read boxes as in the analyzer.
  console.log(`\n## Tamper: bona fide at scale, fresh draw "${BONA_FIDE_DRAW}" (read boxes)\n`);
  await evaluateGeneratedAttacks(dir, 'holdout', {
    draw: BONA_FIDE_DRAW,
    drawn: 40,
    synth: 200,
    read: true,
    only: ['none'],
  });
  await evaluateHazards(dir, 'holdout', {
    draw: BONA_FIDE_DRAW,
    drawn: 15,
    synth: 45,
    paperOnly: false,
    read: true,
  });
  // Digital uploads (the page exported as a file, no camera), as the forged-document sets made
  // from templates are: genuine pages, and values moved over other fields (read boxes: the
  // misfit cue reads the reading step's unparsed values).
  console.log(`\n## Tamper: digital uploads, fresh draw "${BONA_FIDE_DRAW}" (read boxes)\n`);
  await evaluateGeneratedAttacks(dir, 'holdout', {
    draw: BONA_FIDE_DRAW,
    drawn: 15,
    synth: 45,
    read: true,
    digital: true,
    only: ['none', 'field_transplanted'],
  });
  // Pages printed with fine lines all over, as real passports and cards are (the generator's own
  // backgrounds are sparse): the in-painting cues can only judge a field with a pattern around it.
  console.log(`\n## Tamper: dense security print, fresh draw "${DENSE_PRINT_DRAW}" (read boxes)\n`);
  await evaluateGeneratedAttacks(dir, 'holdout', {
    draw: DENSE_PRINT_DRAW,
    drawn: 15,
    synth: 45,
    read: true,
    densePrint: true,
    only: ['none', 'field_inpainted', 'field_overwritten'],
  });
}
