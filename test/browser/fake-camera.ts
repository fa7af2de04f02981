import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

/**
 * A Y4M video (what Chromium's fake camera plays) showing one still picture: the picture is
 * fitted into `width × height`, converted to YUV 4:2:0 (BT.601, full range as JPEG uses) and
 * written as a couple of identical frames.
 */
export async function writeY4m(path: string, picture: Uint8Array, width = 1280, height = 960): Promise<void> {
  const { data } = await sharp(picture)
    .resize(width, height, { fit: 'contain', background: '#202020' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      const r = data[i] as number;
      const g = data[i + 1] as number;
      const b = data[i + 2] as number;
      y[row * width + col] = clamp(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const c = (row / 2) * (width / 2) + col / 2;
        u[c] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        v[c] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
      }
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  await writeFile(path, Buffer.concat([header, frame, frame]));
}

function clamp(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}
