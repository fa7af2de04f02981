import { phoneCaptureMapped } from '../../scripts/eval/corpus/phone-capture.ts';
import type { Rng } from '../../scripts/eval/corpus/rng.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { detectTamper } from '../../src/tamper/index.ts';

/** The tamper step on a phone capture of `image`, the page's extent carried through the capture. */
export async function tamperOn(
  source: GenuineSource,
  image: GenuineSource['image'],
  rng: Rng,
  measures?: Record<string, number>,
) {
  const capture = await phoneCaptureMapped(image, rng);
  const front = await normalizeImage(capture.bytes);
  const k = front.width / front.originalWidth;
  const corners = [
    capture.map(0, 0),
    capture.map(image.width, 0),
    capture.map(image.width, image.height),
    capture.map(0, image.height),
  ].map(([x, y]) => [Math.min(front.width, Math.max(0, x * k)), Math.min(front.height, Math.max(0, y * k))]);
  const xs = corners.map((p) => p[0]!);
  const ys = corners.map((p) => p[1]!);
  const region = {
    x: Math.min(...xs),
    y: Math.min(...ys),
    w: Math.max(...xs) - Math.min(...xs),
    h: Math.max(...ys) - Math.min(...ys),
  };
  const { signals } = await detectTamper(
    { front, originals: { front: capture.bytes } },
    { layout: source.layout, documentRegions: { front: region } },
    measures ? { measures } : {},
  );
  return signals;
}
