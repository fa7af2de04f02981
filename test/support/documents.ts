import { readFile } from 'node:fs/promises';
import { packageFile } from '@idv/vision';
import sharp, { type OverlayOptions } from 'sharp';
import {
  documentSvg,
  HOLDER,
  type Holder,
  type MrzFont,
} from '../../packages/vision/test/support/synthetic.ts';

/**
 * Synthetic documents with a real face, for end-to-end tests. The document is drawn with SVG
 * (packages/vision/test/support/synthetic.ts); the portrait and selfies are photos shipped in
 * the @vladmandic/human npm package (MIT): one man (a webcam picture) and one woman.
 */
async function humanAsset(name: string): Promise<Buffer> {
  return readFile(packageFile('@vladmandic/human', `assets/${name}`));
}

/** The man's webcam picture: the selfie that matches the portrait. */
export async function matchingSelfie(): Promise<Uint8Array> {
  return new Uint8Array(await humanAsset('screenshot-faceid.jpg'));
}

/** A different person (second thumbnail of the samples collage, enlarged). */
export async function otherPersonSelfie(): Promise<Uint8Array> {
  const collage = await humanAsset('samples.jpg');
  const crop = await sharp(collage)
    .extract({ left: 165, top: 0, width: 160, height: 160 })
    .resize(480, 480)
    .jpeg()
    .toBuffer();
  return new Uint8Array(crop);
}

/** The man's head and shoulders, as printed in the document's portrait box. */
async function portrait(width: number, height: number): Promise<Buffer> {
  return sharp(await humanAsset('screenshot-faceid.jpg'))
    .extract({ left: 14, top: 142, width: 150, height: 180 })
    .resize(width, height, { fit: 'cover' })
    .toBuffer();
}

/** Portrait boxes drawn by documentSvg for each layout that has one. */
const PORTRAIT_BOX = {
  passport: { x: 60, y: 150, w: 300, h: 380 },
  cni_front: { x: 50, y: 140, w: 250, h: 320 },
} as const;

/**
 * A document photo: the SVG page with the portrait pasted in, on a dark background margin,
 * JPEG-encoded like a phone capture. `mrzFont: 'ocr-b'` prints the zone as real documents do.
 */
export async function documentPhoto(
  layout: 'passport' | 'cni_front' | 'cni_back',
  holder: Holder = HOLDER,
  opts: { mrzFont?: MrzFont } = {},
): Promise<Uint8Array> {
  const { svg } = withSecurityBackground(documentSvg(layout, holder, opts).svg);
  const layers: OverlayOptions[] = [];
  if (layout !== 'cni_back') {
    const box = PORTRAIT_BOX[layout];
    layers.push({ input: await portrait(box.w, box.h), left: box.x, top: box.y });
  }
  const page = await sharp(Buffer.from(svg))
    .flatten({ background: '#f3eee2' })
    .composite(layers)
    .png()
    .toBuffer();
  const photo = await sharp(page)
    .extend({ top: 60, bottom: 60, left: 60, right: 60, background: '#5a6470' })
    .jpeg({ quality: 90 })
    .toBuffer();
  return new Uint8Array(photo);
}

/**
 * Real identity documents are printed on coloured security backgrounds (guilloche in pale
 * greens, blues and pinks); a flat cream page would look like a greyscale photocopy. The
 * pattern stops above the MRZ, which ICAO keeps on a clear zone.
 */
function withSecurityBackground(svg: string): { svg: string } {
  const gradient =
    '<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">' +
    '<stop offset="0" stop-color="#dcefe4"/><stop offset="0.5" stop-color="#e4e8f6"/><stop offset="1" stop-color="#f6e1e8"/>' +
    '</linearGradient><pattern id="guilloche" width="28" height="28" patternUnits="userSpaceOnUse">' +
    '<path d="M0 10 Q7 0 14 10 T28 10" stroke="#6fb08c" stroke-width="1.6" fill="none"/>' +
    '<path d="M0 20 Q7 30 14 20 T28 20" stroke="#d88aa4" stroke-width="1.6" fill="none"/>' +
    '<path d="M10 0 Q0 7 10 14 T10 28" stroke="#8a9ad8" stroke-width="1.2" fill="none"/>' +
    '</pattern></defs><rect width="100%" height="100%" fill="url(#bg)"/>' +
    '<rect width="100%" height="62%" fill="url(#guilloche)" opacity="0.55"/>';
  return { svg: svg.replace('<rect width="100%" height="100%" fill="#f3eee2"/>', gradient) };
}

/** A photo blurred far beyond reading. */
export async function blurredPhoto(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(await documentPhoto('passport'))
      .blur(12)
      .jpeg()
      .toBuffer(),
  );
}

export { HOLDER, type Holder };
