/**
 * Limits on uploaded images, shared by the API (which checks them at upload, before any
 * analysis) and vision (which guards its own decoding with the same numbers).
 */

/** Spec: 12 MB per image, taken as 12 MiB (12 × 1024 × 1024 bytes). */
export const MAX_IMAGE_BYTES = 12 * 1024 * 1024;

/**
 * Pixel budget per image (width × height, as the file's header states it): 50 megapixels.
 * Above the 48–50 Mpx of a phone camera's full-resolution mode, and far below what a small
 * file can claim (a 2 MB PNG can hold 16 000 × 16 000 pixels, 768 MB once decoded to RGB).
 * Checked before decoding; see docs/decisions.md.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Whether a width × height image fits the pixel budget. */
export function withinPixelBudget(width: number, height: number): boolean {
  return width * height <= MAX_IMAGE_PIXELS;
}

/** The refusal's message, the same from the API and from vision. */
export function pixelBudgetMessage(width: number, height: number): string {
  const mpx = (width * height) / 1_000_000;
  return (
    `the image is ${width} × ${height} pixels (${mpx.toFixed(1)} megapixels); ` +
    `the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`
  );
}
