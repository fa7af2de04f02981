import type { RgbImage } from '../image/raster.ts';
import { angleModel } from './models.ts';
import { REC_HEIGHT } from './recognize.ts';

/**
 * Whether text-line crops are upside down, with PaddleOCR's 0°/180° angle classifier
 * (input 3×48×192, (x/255 − 0.5)/0.5). Returns the probability that each line is rotated 180°.
 * Long lines are squeezed to 192 px wide, as PaddleOCR does (the classifier was trained so).
 */
const CLS_WIDTH = 192;

export async function upsideDownProbability(lines: RgbImage[]): Promise<number[]> {
  if (lines.length === 0) return [];
  const plane = REC_HEIGHT * CLS_WIDTH;
  const input = new Float32Array(lines.length * 3 * plane);
  lines.forEach((line, b) => {
    if (line.height !== REC_HEIGHT) throw new Error(`line crop must be ${REC_HEIGHT} px tall`);
    const w = Math.min(CLS_WIDTH, line.width);
    const base = b * 3 * plane;
    for (let y = 0; y < REC_HEIGHT; y++) {
      for (let x = 0; x < w; x++) {
        const sx = line.width > CLS_WIDTH ? Math.floor(((x + 0.5) * line.width) / CLS_WIDTH) : x;
        const s = (y * line.width + sx) * 3;
        const d = y * CLS_WIDTH + x;
        for (let c = 0; c < 3; c++) input[base + c * plane + d] = line.rgb[s + c]! / 127.5 - 1;
      }
    }
  });
  const model = await angleModel();
  const out = await model.run(input, [lines.length, 3, REC_HEIGHT, CLS_WIDTH]);
  return lines.map((_, b) => out.data[b * 2 + 1]!);
}
