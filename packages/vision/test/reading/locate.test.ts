import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeImage } from '../../src/image/normalize.ts';
import { detectText } from '../../src/ocr/detect.ts';
import { documentRegion, readDocumentPage } from '../../src/ocr/focus.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { holderMrz, renderCapture } from '../support/synthetic.ts';

/**
 * The document-locating pass (ocr/focus.ts) on synthetic captures with the real OCR models:
 * a passport far from the camera (about a third of the frame's width), tilted or in perspective.
 * Without the pass the MRZ text is ~7 px tall at the detector's working size and is not found.
 */

beforeAll(async () => {
  await warmUp();
});

/** A 1250×880 data page in a frame about three times as wide (normalised to 1600 px). */
const farAway = (opts: Parameters<typeof renderCapture>[1] = {}) =>
  renderCapture('passport', { margin: 1250, jpegQuality: 85, ...opts }).then(normalizeImage);

describe('document locating pass', () => {
  it('outlines the text of a small document and not the whole frame', async () => {
    const img = await farAway();
    const region = documentRegion(await detectText(img, { maxSide: 640 }), img);
    expect(region).not.toBeNull();
    const share = (region!.long * region!.short) / (img.width * img.height);
    // The page is ~11 % of the frame; with its margin the region stays well under a third.
    expect(share).toBeGreaterThan(0.03);
    expect(share).toBeLessThan(0.35);
  });

  it('reads the MRZ of a passport small in a large frame exactly', async () => {
    const img = await farAway();
    const view = await readDocumentPage(img);
    expect(view.focused).toBe(true);
    const r = await readDocument({ front: img });
    expect(r.mrz?.lines).toEqual(holderMrz('passport'));
  });

  it('maps the text boxes of a cropped view back into the frame', async () => {
    const img = await farAway();
    const r = await readDocument({ front: img });
    const mrzBox = r.textBoxes.find((b) => b.text.replace(/\s/g, '').startsWith('P<NER'));
    expect(mrzBox).toBeDefined();
    const xs = mrzBox!.quad.map((q) => q[0]);
    const ys = mrzBox!.quad.map((q) => q[1]);
    // The page sits in the middle third of the frame; its MRZ in the lower half of the page.
    expect(Math.min(...xs)).toBeGreaterThan(img.width * 0.25);
    expect(Math.max(...xs)).toBeLessThan(img.width * 0.75);
    expect(Math.min(...ys)).toBeGreaterThan(img.height * 0.4);
    expect(Math.max(...ys)).toBeLessThan(img.height * 0.7);
  });

  it('reads a small, tilted document', async () => {
    const r = await readDocument({ front: await farAway({ tiltDegrees: 6 }) });
    expect(r.mrz?.lines).toEqual(holderMrz('passport'));
  });

  it('reads a small document seen in perspective', async () => {
    const r = await readDocument({ front: await farAway({ perspective: 0.2 }) });
    expect(r.mrz?.lines).toEqual(holderMrz('passport'));
  });

  it('leaves a document that fills the frame as it is (no crop)', async () => {
    const img = await normalizeImage(await renderCapture('passport'));
    const view = await readDocumentPage(img);
    expect(view.focused).toBe(false);
    expect(view.image).toBe(img);
  });
});
