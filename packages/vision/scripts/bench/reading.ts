import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeImage } from '../../src/image/normalize.ts';
import { precheck } from '../../src/precheck/precheck.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { nodeBackendAvailable } from '../../src/runtime/backend.ts';
import { renderCapture } from '../../test/support/synthetic.ts';

/**
 * Reading benchmark on synthetic phone-like captures (no fixtures needed): median time of
 * normalise + readDocument, and of the pre-check, per ONNX backend, and the web/node ratio.
 *
 * Usage: npx tsx packages/vision/scripts/bench/reading.ts [runs]
 */

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function benchReading(runs = 5): Promise<void> {
  const captures = await Promise.all([
    renderCapture('passport', { jpegQuality: 85, noise: 4 }),
    renderCapture('passport', { quarterTurns: 1, tiltDegrees: 3, jpegQuality: 80 }),
    renderCapture('cni_back', { jpegQuality: 85, tiltDegrees: -2 }),
    renderCapture('niger_paper', { jpegQuality: 85 }),
  ]);
  const backends: ('web' | 'node')[] = (await nodeBackendAvailable()) ? ['web', 'node'] : ['web'];
  const results: Record<string, { read: number; pre: number }> = {};
  const previous = process.env.IDV_ONNX_BACKEND;
  for (const backend of backends) {
    process.env.IDV_ONNX_BACKEND = backend;
    await warmUp();
    const read: number[] = [];
    const pre: number[] = [];
    for (let r = 0; r < runs; r++) {
      for (const bytes of captures) {
        const t0 = performance.now();
        const img = await normalizeImage(bytes);
        await readDocument({ front: img });
        read.push(performance.now() - t0);
        const t1 = performance.now();
        await precheck(img, {});
        pre.push(performance.now() - t1);
      }
    }
    results[backend] = { read: median(read), pre: median(pre) };
    console.log(
      `${backend.padEnd(5)} read document: median ${median(read).toFixed(0)} ms  |  pre-check: median ${median(pre).toFixed(0)} ms  (${read.length} runs, ONNX_THREADS=${process.env.ONNX_THREADS ?? 1})`,
    );
  }
  if (previous === undefined) delete process.env.IDV_ONNX_BACKEND;
  else process.env.IDV_ONNX_BACKEND = previous;
  if (results.web && results.node) {
    console.log(
      `ratio web/node: read ${(results.web.read / results.node.read).toFixed(2)}×, pre-check ${(results.web.pre / results.node.pre).toFixed(2)}×`,
    );
  } else {
    console.log('onnxruntime-node is not installed: web only');
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) await benchReading(Number(process.argv[2] ?? 5));
