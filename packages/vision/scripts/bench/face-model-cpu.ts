import { readFileSync } from 'node:fs';
import ort from 'onnxruntime-node';
import { FACE_MODELS, faceModelPath } from '../../src/faces/models.ts';
import { fuseRelu6 } from '../../src/runtime/relu6-clip-fusion.ts';

/**
 * Process CPU ms per run of the FaceRes embedding as converted and as the service loads it
 * (faces/models.ts faceGraphEdits: ReLU6s as Clips), one thread, `runs` runs of one input per
 * round, the two alternated over `rounds` (the machine is shared: only interleaved ratios count).
 * Also the largest output difference and the edit's own CPU cost.
 *
 *   nice -n 10 npx tsx packages/vision/scripts/bench/face-model-cpu.ts [batch] [runs] [rounds]
 */

const [batchArg = '1', runsArg = '10', roundsArg = '6'] = process.argv.slice(2);
const batch = Number(batchArg);
const runs = Number(runsArg);
const rounds = Number(roundsArg);
const bytes = new Uint8Array(readFileSync(await faceModelPath(FACE_MODELS.faceres)));
const e0 = process.cpuUsage();
const edited = fuseRelu6(bytes);
const e = process.cpuUsage(e0);
const variants: [string, Uint8Array][] = [
  ['as converted', bytes],
  ['edited', edited.bytes],
];
const dims = [batch, 224, 224, 3];
const input = Float32Array.from({ length: batch * 224 * 224 * 3 }, (_, i) => ((i * 7919) % 255) / 255);
const cpu = new Map<string, number[]>();
const out = new Map<string, Float32Array>();
for (let r = 0; r < rounds; r++) {
  for (const [name, model] of r % 2 ? [...variants].reverse() : variants) {
    const session = await ort.InferenceSession.create(model, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      intraOpNumThreads: 1,
    });
    const feed = { [session.inputNames[0]!]: new ort.Tensor('float32', input, dims) };
    const first = await session.run(feed);
    out.set(name, first[session.outputNames[0]!]!.data as Float32Array);
    const c0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) await session.run(feed);
    const c = process.cpuUsage(c0);
    cpu.set(name, [...(cpu.get(name) ?? []), (c.user + c.system) / 1000 / runs]);
    await session.release();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const a = out.get('as converted')!;
const b = out.get('edited')!;
let worst = 0;
for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
const before = median(cpu.get('as converted')!);
const after = median(cpu.get('edited')!);
console.log(
  `faceres ${dims.join('x')}, one thread, ${runs} runs × ${rounds} rounds, ${edited.fused} ReLU6s rewritten`,
);
console.log(`edit: ${((e.user + e.system) / 1000).toFixed(0)} ms CPU once per process`);
console.log(`max |output difference| ${worst.toExponential(2)}`);
console.log(
  `CPU ms per run (median of rounds): as converted ${before.toFixed(1)}, edited ${after.toFixed(1)}, ratio ${(after / before).toFixed(2)}`,
);
console.log(
  `per round: ${JSON.stringify(Object.fromEntries([...cpu].map(([k, v]) => [k, v.map((x) => +x.toFixed(1))])))}`,
);
