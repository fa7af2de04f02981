/**
 * `npm run bench`: speed, measured (never asserted in tests). Prints medians and ratios:
 * reading (onnxruntime-web vs onnxruntime-node), face work, and POST /v1/verify end to end.
 * `npm run bench -- verify` (or reading, faces) runs one part.
 */
import { benchFaces } from '../packages/vision/scripts/bench/faces.ts';
import { benchReading } from '../packages/vision/scripts/bench/reading.ts';
import { benchVerify } from './bench/verify.ts';

const only = process.argv[2];
const parts: [string, () => Promise<void>][] = [
  ['reading', () => benchReading()],
  ['faces', () => benchFaces()],
  ['verify', () => benchVerify()],
];
for (const [name, run] of parts) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}\n`);
  await run();
}
process.exit(0);
