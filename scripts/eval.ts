/**
 * `npm run eval [folder]`: accuracy on a folder of images with a truth.json (default
 * ../shared/fixtures). Prints MRZ read rates, document-type accuracy and reading times,
 * face-match figures (TAR at FAR, rank-1, similarity distributions), tamper detection, and
 * portrait_edge, field_overwritten and photo_of_screen on simulated portrait swaps, in-painted
 * text lines and screen recaptures made from the bona fide documents; then per attack kind caught /
 * total and per sign type bona fide flagged / total on the generated attack corpus (holdout half)
 * and on the fixtures' holdout half (scripts/eval/generated-attacks.ts).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { evaluateAttacks } from '../packages/vision/scripts/eval/attacks.ts';
import { evaluateFaces } from '../packages/vision/scripts/eval/faces.ts';
import {
  evaluateFixtureHalf,
  evaluateGeneratedAttacks,
} from '../packages/vision/scripts/eval/generated-attacks.ts';
import { evaluatePortraitSwaps } from '../packages/vision/scripts/eval/portrait-swap.ts';
import { evaluateReading } from '../packages/vision/scripts/eval/reading.ts';
import { evaluateScreenRecapture } from '../packages/vision/scripts/eval/screen-recapture.ts';
import { evaluateTextInpaint } from '../packages/vision/scripts/eval/text-inpaint.ts';

const dir = resolve(process.argv[2] ?? process.env.FIXTURES_DIR ?? '../shared/fixtures');
if (!existsSync(resolve(dir, 'truth.json'))) {
  console.log(
    `No truth.json in ${dir}: nothing to evaluate. Pass a fixture folder: npm run eval -- <folder>`,
  );
  process.exit(0);
}
console.log(`Fixtures: ${dir}\n\n## Reading\n`);
await evaluateReading(dir);
console.log('\n## Faces\n');
await evaluateFaces(dir);
console.log('\n## Tamper signs\n');
await evaluateAttacks(dir);
await evaluatePortraitSwaps(dir);
await evaluateTextInpaint(dir);
await evaluateScreenRecapture(dir);
console.log('\n## Tamper signs on the generated attack corpus and the real holdout half\n');
await evaluateGeneratedAttacks(dir, 'holdout');
await evaluateFixtureHalf(dir, 'holdout');
