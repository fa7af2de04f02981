import sharp, { type Sharp } from 'sharp';
import type { RgbImage } from '../../../src/image/raster.ts';

/** sharp round trips for the corpus (blur, resize, JPEG, drawn text): native and fast. */

const raw = (img: RgbImage) =>
  sharp(Buffer.from(img.rgb.buffer, img.rgb.byteOffset, img.rgb.byteLength), {
    raw: { width: img.width, height: img.height, channels: 3 },
  });

async function back(s: Sharp): Promise<RgbImage> {
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

export async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  return back(sharp(bytes).rotate());
}

export async function blurRgb(img: RgbImage, sigma: number): Promise<RgbImage> {
  return sigma < 0.3 ? img : back(raw(img).blur(sigma));
}

export async function resizeTo(img: RgbImage, width: number, height: number): Promise<RgbImage> {
  return back(raw(img).resize(width, height, { fit: 'fill' }));
}

export async function encodeJpeg(img: RgbImage, quality: number): Promise<Uint8Array> {
  return new Uint8Array(await raw(img).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer());
}

export async function encodePng(img: RgbImage): Promise<Uint8Array> {
  return new Uint8Array(await raw(img).png({ compressionLevel: 1 }).toBuffer());
}

/** Draws an SVG fragment (same pixel size as `img`) over the image. */
export async function drawSvg(img: RgbImage, svgBody: string): Promise<RgbImage> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${img.width}" height="${img.height}">${svgBody}</svg>`;
  return back(raw(img).composite([{ input: Buffer.from(svg), top: 0, left: 0 }]));
}

export const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

export function copyRgb(img: RgbImage): RgbImage {
  return { rgb: img.rgb.slice(), width: img.width, height: img.height };
}

/** Smooth random field in about [-1, 1]: bilinear interpolation of a coarse random grid. */
export function smoothField(width: number, height: number, cells: number, rand: () => number): Float32Array {
  const gw = cells + 2;
  const gh = Math.max(2, Math.round((cells * height) / width)) + 2;
  const grid = Float32Array.from({ length: gw * gh }, () => rand() * 2 - 1);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const gy = (y / height) * (gh - 2);
    const y0 = Math.floor(gy);
    const ay = gy - y0;
    for (let x = 0; x < width; x++) {
      const gx = (x / width) * (gw - 2);
      const x0 = Math.floor(gx);
      const ax = gx - x0;
      const a = grid[y0 * gw + x0]! * (1 - ax) + grid[y0 * gw + x0 + 1]! * ax;
      const b = grid[(y0 + 1) * gw + x0]! * (1 - ax) + grid[(y0 + 1) * gw + x0 + 1]! * ax;
      out[y * width + x] = a * (1 - ay) + b * ay;
    }
  }
  return out;
}
