/**
 * `npm run bench`: speed, measured (never asserted in tests). Prints medians and ratios:
 * reading (onnxruntime-web vs onnxruntime-node), face work, POST /v1/verify end to end, and the
 * service under load (verifications in flight, reads at a fixed rate; scripts/bench/load.ts).
 * `npm run bench -- verify` (or reading, faces, load) runs one part.
 */
import { benchFaces } from '../packages/vision/scripts/bench/faces.ts';
import { benchReading } from '../packages/vision/scripts/bench/reading.ts';
import { benchLoad } from './bench/load.ts';
import { benchVerify } from './bench/verify.ts';

const only = process.argv[2];
const parts: [string, () => Promise<void>][] = [
  ['reading', () => benchReading()],
  ['faces', () => benchFaces()],
  ['verify', () => benchVerify()],
  ['load', () => benchLoad()],
];
for (const [name, run] of parts) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}\n`);
  await run();
}
process.exit(0);
