import ort from 'onnxruntime-node';

/**
 * Would int8 or fp16 weights make the heavy models cheaper on this CPU (issue 17)? PP-OCR's
 * recogniser spends ~80 % of its kernel time in convolutions (ocr-model-ops.ts), so the question
 * is the convolution's: CPU ms per run of one convolution in fp32, fp16 and dynamic int8
 * (make_models.py), one thread, median of 15 runs, with the largest output difference from fp32
 * as a share of the output's range.
 *
 *   /usr/bin/python3 packages/vision/scripts/bench/conv-precision/make_models.py /tmp/conv-precision
 *   npx tsx packages/vision/scripts/bench/conv-precision/conv-precision.ts /tmp/conv-precision
 */

const dir = process.argv[2] ?? '/tmp/conv-precision';
const dims = [1, 64, 24, 240];
const x = new ort.Tensor(
  'float32',
  Float32Array.from({ length: 64 * 24 * 240 }, (_, i) => Math.sin(i)),
  dims,
);

console.log('| convolution | precision | CPU ms per run | largest difference / range |\n|---|---|---|---|');
for (const kind of ['conv3x3', 'conv1x1', 'dw3x3']) {
  let reference: Float32Array | null = null;
  for (const precision of ['fp32', 'fp16', 'int8']) {
    const session = await ort.InferenceSession.create(`${dir}/${kind}-${precision}.onnx`, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
    });
    for (let i = 0; i < 3; i++) await session.run({ x });
    const cpuMs: number[] = [];
    let y: Float32Array = new Float32Array();
    for (let r = 0; r < 15; r++) {
      const before = process.cpuUsage();
      const out = await session.run({ x });
      const used = process.cpuUsage(before);
      cpuMs.push((used.user + used.system) / 1000);
      y = out.y!.data as Float32Array;
    }
    reference ??= y;
    let diff = 0;
    let range = 0;
    for (let i = 0; i < reference.length; i++) {
      diff = Math.max(diff, Math.abs(y[i]! - reference[i]!));
      range = Math.max(range, Math.abs(reference[i]!));
    }
    cpuMs.sort((a, b) => a - b);
    console.log(`| ${kind} | ${precision} | ${cpuMs[7]!.toFixed(2)} | ${(diff / range).toFixed(4)} |`);
    await session.release();
  }
}
