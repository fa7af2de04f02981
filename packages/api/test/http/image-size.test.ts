import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pngBomb } from '../../../vision/test/support/bombs.ts';
import { imageSize } from '../../src/http/image-size.ts';
import { sniffImageType } from '../../src/http/images.ts';

/** The upload's size from its header, for the pixel budget: every format and variant we accept. */

const W = 37;
const H = 23;

function source() {
  return sharp({
    create: { width: W, height: H, channels: 4, background: { r: 40, g: 90, b: 160, alpha: 0.5 } },
  });
}

function sizeOf(bytes: Uint8Array) {
  const type = sniffImageType(bytes);
  if (!type) throw new Error('not an image');
  return imageSize(bytes, type);
}

describe('imageSize', () => {
  const variants: [string, () => Promise<Buffer>][] = [
    ['PNG', () => source().png().toBuffer()],
    ['baseline JPEG', () => source().jpeg().toBuffer()],
    ['progressive JPEG with EXIF', () => source().jpeg({ progressive: true }).withMetadata().toBuffer()],
    ['lossy WebP (VP8)', () => source().removeAlpha().webp().toBuffer()],
    ['lossy WebP with alpha (VP8X)', () => source().webp().toBuffer()],
    ['lossless WebP (VP8L)', () => source().removeAlpha().webp({ lossless: true }).toBuffer()],
  ];
  for (const [name, make] of variants) {
    it(`reads ${name}`, async () => {
      expect(sizeOf(new Uint8Array(await make()))).toEqual({ width: W, height: H });
    });
  }

  it('reads a pixel bomb without decoding it', () => {
    expect(sizeOf(pngBomb(16_000, 16_000))).toEqual({ width: 16_000, height: 16_000 });
  });

  it('says null, not a guess, for headers it cannot read', () => {
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff]), 'image/jpeg')).toBeNull();
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2]), 'image/jpeg')).toBeNull();
    expect(imageSize(new Uint8Array(8), 'image/png')).toBeNull();
    expect(imageSize(new TextEncoder().encode('RIFF....WEBPJUNK'), 'image/webp')).toBeNull();
  });
});
