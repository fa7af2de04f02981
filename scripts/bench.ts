/**
 * `npm run bench`: speed, measured (never asserted in tests). Prints medians and ratios:
 * reading (onnxruntime-web vs onnxruntime-node), face work, a profile of one analysis (CPU time,
 * model runs, decodes) and POST /v1/verify end to end (one client, then four; memory).
 * `npm run bench -- verify` (or reading, faces, profile) runs one part; figures come with their
 * ratio to scripts/bench/baseline.json (`--save-baseline` rewrites it).
 */
import { benchFaces } from '../packages/vision/scripts/bench/faces.ts';
import { benchReading } from '../packages/vision/scripts/bench/reading.ts';
import { saveBaseline } from './bench/figures.ts';
import { benchProfile } from './bench/profile.ts';
import { benchVerify } from './bench/verify.ts';

const args = process.argv.slice(2);
const only = args.find((a) => !a.startsWith('--'));
// Fewer runs on a loaded machine (each one is slower there): BENCH_RUNS=3 npm run bench -- profile
const runs = Number(process.env.BENCH_RUNS ?? 10);
const parts: [string, () => Promise<void>][] = [
  ['reading', () => benchReading()],
  ['faces', () => benchFaces()],
  ['profile', () => benchProfile(runs)],
  ['verify', () => benchVerify(runs, runs >= 10 ? 24 : 8)],
];
for (const [name, run] of parts) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}\n`);
  await run();
}
if (args.includes('--save-baseline')) saveBaseline(`npm run bench ${args.join(' ')}`);
process.exit(0);
