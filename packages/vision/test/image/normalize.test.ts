import { MAX_IMAGE_PIXELS } from '@idv/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageInputError, normalizeImage, WORKING_LONG_SIDE } from '../../src/image/normalize.ts';
import { pngBomb } from '../support/bombs.ts';

/** Bounded decoding: an image above the pixel budget is refused from its header, never decoded. */

async function refusal(bytes: Uint8Array): Promise<ImageInputError> {
  const error = await normalizeImage(bytes).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImageInputError);
  return error as ImageInputError;
}

describe('normalizeImage pixel budget', () => {
  it('refuses a 16 000 × 16 000 PNG bomb as invalid_image without decoding it', async () => {
    const bomb = pngBomb(16_000, 16_000);
    expect(bomb.byteLength).toBeLessThan(200_000);
    // The decoded RGB would be 768 MB; refusing from the header keeps the process where it was.
    const before = process.memoryUsage().rss;
    const error = await refusal(bomb);
    expect(error.code).toBe('invalid_image');
    expect(error.message).toMatch(/16000 × 16000 pixels \(256\.0 megapixels\); the limit is 50 megapixels/);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses a long strip whose sides are each ordinary but whose area is over the budget', async () => {
    const error = await refusal(pngBomb(120_000, 500));
    expect(error.code).toBe('invalid_image');
    expect(error.message).toMatch(/60\.0 megapixels/);
  });

  it('still decodes a large photo within the budget, shrunk to the working size', async () => {
    const width = 7_000;
    const height = 5_000;
    expect(width * height).toBeLessThanOrEqual(MAX_IMAGE_PIXELS);
    const jpeg = await sharp({ create: { width, height, channels: 3, background: '#8a7f70' } })
      .jpeg({ quality: 70 })
      .toBuffer();
    const image = await normalizeImage(new Uint8Array(jpeg));
    expect([image.width, image.height]).toEqual([WORKING_LONG_SIDE, Math.round((WORKING_LONG_SIDE * 5) / 7)]);
    expect([image.originalWidth, image.originalHeight]).toEqual([width, height]);
  });
});
