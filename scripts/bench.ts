/**
 * `npm run bench`: speed, measured (never asserted in tests). Prints medians and ratios:
 * reading (onnxruntime-web vs onnxruntime-node), face work, a profile of one analysis (CPU time,
 * model runs, decodes), POST /v1/verify end to end (one client, then four; memory) and the
 * service under load (verifications in flight, reads at a fixed rate; scripts/bench/load.ts).
 * `npm run bench -- verify` (or reading, faces, tamper, profile, load) runs one part (`store-calls`, the
 * CPU cost of each DynamoDB call of the read path, `ab`, two env settings compared, and
 * `ab-process`, two settings of the process itself, run only when named); figures come with
 * their ratio to scripts/bench/baseline.json (`--save-baseline` rewrites it).
 */

import { benchFaces } from '../packages/vision/scripts/bench/faces.ts';
import { benchReading } from '../packages/vision/scripts/bench/reading.ts';
import { benchTamperStages } from '../packages/vision/scripts/bench/tamper-stages.ts';
import { benchAb } from './bench/ab.ts';
import { benchAbProcess } from './bench/ab-process.ts';
import { saveBaseline } from './bench/figures.ts';
import { benchLoad } from './bench/load.ts';
import { benchProfile } from './bench/profile.ts';
import { benchStoreCalls } from './bench/store-calls.ts';
import { benchVerify } from './bench/verify.ts';

const args = process.argv.slice(2);
const only = args.find((a) => !a.startsWith('--'));
// Fewer runs on a loaded machine (each one is slower there): BENCH_RUNS=3 npm run bench -- profile
const runs = Number(process.env.BENCH_RUNS ?? 10);
const parts: [string, () => Promise<void>][] = [
  ['reading', () => benchReading()],
  ['faces', () => benchFaces()],
  ['tamper', () => benchTamperStages(6, Math.min(runs, 5))],
  ['profile', () => benchProfile(runs)],
  ['verify', () => benchVerify(runs, runs >= 10 ? 24 : 8)],
  ['load', () => benchLoad()],
];
// Not part of a full run (a diagnosis of the read path): `npm run bench -- store-calls`.
if (only === 'store-calls') parts.push(['store-calls', () => benchStoreCalls()]);
// Two env settings side by side (BENCH_A, BENCH_B; scripts/bench/ab.ts): `npm run bench -- ab`.
if (only === 'ab') parts.push(['ab', () => benchAb(runs)]);
// Two settings of the process itself (MALLOC_*), one child process each (scripts/bench/ab-process.ts).
if (only === 'ab-process') parts.push(['ab-process', () => benchAbProcess(runs)]);
for (const [name, run] of parts) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}\n`);
  await run();
}
if (args.includes('--save-baseline')) saveBaseline(`npm run bench ${args.join(' ')}`);
process.exit(0);
