/** Long side of an uploaded photo: enough for the MRZ and the portrait, small on a phone network. */
export const MAX_LONG_SIDE = 2000;
const JPEG_QUALITY = 0.88;

/** Target size for an image of `width × height` so that its long side is at most `max`. */
export function fitLongSide(width: number, height: number, max = MAX_LONG_SIDE) {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** Draws a video frame or a decoded picture into a JPEG of at most MAX_LONG_SIDE. */
export async function toJpeg(source: CanvasImageSource, width: number, height: number): Promise<Blob> {
  const size = fitLongSide(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas unavailable');
  context.drawImage(source, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('encoding failed'))),
      'image/jpeg',
      JPEG_QUALITY,
    );
  });
}

/** A file picked or shot through `<input type=file>`, decoded and compressed like a camera frame. */
export async function compressFile(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    return await toJpeg(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}
