import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import { straightenedWithRing } from '../../src/tamper/field-background.ts';
import {
  FILL_BAND_MIN_SIDES,
  fillBandStrength,
  judgedSides,
  measureFillBand,
} from '../../src/tamper/fill-band.ts';
import {
  FILL_MIN_RING_TEXTURE,
  measureFillTexture,
  parseLineBoxes,
  smoothFillStrength,
} from '../../src/tamper/smooth-fill.ts';
import { inpaintedLine } from '../../test/support/forgeries.ts';
import { pct, printTable } from './faces-common.ts';
import { type Half, loadSplitTruth } from './fixture-split.ts';

/**
 * The in-painting cue of `field_overwritten` on simulated text edits (the fixture set has no
 * text attack): every line the OCR reads on the bona fide fixture documents of one half is
 * measured as it is, then erased by in-painting and typed again (`inpaintedLine`: the line's
 * box, exactly or grown by 0.3 or 0.6 of its height as a forger's selection around a field
 * would be, filled from its border, the old letters drawn back in black), saved as JPEG 90 and
 * measured again by both cues of an in-painted line (smooth-fill.ts, then fill-band.ts, which is
 * opt-in in the service). Tune on `--half tuning`; the holdout half is the figure to report.
 *
 *   npx tsx packages/vision/scripts/eval/text-inpaint.ts [fixturesDir] [--half tuning|holdout]
 */

const GROWTH = [0, 0.3, 0.6];

async function asUpload(image: NormalizedImage): Promise<NormalizedImage> {
  const jpeg = await sharp(Buffer.from(image.rgb), {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  return normalizeImage(new Uint8Array(jpeg));
}

/** The two cues of an in-painted line, as the tamper step applies them: the ring's first. */
function lineCues(image: NormalizedImage, quad: [number, number][]) {
  const texture = measureFillTexture(image, quad);
  const band = measureFillBand(image, quad, straightenedWithRing(image, quad));
  const ring = texture !== null && smoothFillStrength(texture) !== null;
  return {
    /** Either cue has a printed pattern to judge against. */
    patterned:
      (texture !== null && texture.ring >= FILL_MIN_RING_TEXTURE) ||
      (band !== null && judgedSides(band).length >= FILL_BAND_MIN_SIDES),
    ring,
    band: !ring && band !== null && fillBandStrength(band) !== null,
  };
}

/**
 * The old letters are drawn back where they are at least this far under the paper (the cues'
 * own ink depth): pattern lines lighter than that stay filled, as a forger's new text leaves them.
 */
const LETTER_DEPTH = 40;

export async function evaluateTextInpaint(fixturesDir: string, half: Half): Promise<void> {
  let lines = 0;
  let judged = 0;
  const untouched = { ring: 0, band: 0 };
  const tally = () => GROWTH.map(() => ({ n: 0, ring: 0, band: 0 }));
  const forged = tally();
  // The MIDV-2020 templates (SIDTD's source) print a pattern behind every field: counted apart.
  const sidtd = tally();
  for (const { file, truth: t, half: h } of await loadSplitTruth(fixturesDir)) {
    if (h !== half || !file.startsWith('documents/') || t.attack) continue;
    const front = await normalizeImage(new Uint8Array(await readFile(join(fixturesDir, file))));
    const reading = await readDocument({ front });
    for (const line of parseLineBoxes(reading.textBoxes).filter((l) => l.side === 'front')) {
      lines++;
      const before = lineCues(front, line.quad);
      // Plain backgrounds are not judged: in-painting there leaves nothing to see.
      if (!before.patterned) continue;
      judged++;
      if (before.ring) untouched.ring++;
      if (before.band) untouched.band++;
      for (const [k, grow] of GROWTH.entries()) {
        const after = lineCues(
          await asUpload(inpaintedLine(front, line.quad, grow, LETTER_DEPTH)),
          line.quad,
        );
        for (const tl of file.includes('sidtd_') ? [forged[k]!, sidtd[k]!] : [forged[k]!]) {
          tl.n++;
          if (after.ring) tl.ring++;
          if (after.band) tl.band++;
        }
      }
    }
  }
  console.log(
    `\n### field_overwritten on simulated in-painted lines (bona fide documents, front; ${half} half)\n`,
  );
  console.log(
    `Lines read: ${lines}; on a printed background (judged): ${judged}; untouched lines flagged: ${untouched.ring + untouched.band} (${pct(untouched.ring + untouched.band, judged)}; in-painting cue ${untouched.ring}, fill band ${untouched.band}).`,
  );
  printTable(
    ['in-painted region', 'lines', 'flagged', 'in-painting cue', 'fill band', 'of which on SIDTD templates'],
    GROWTH.map((g, k) => {
      const f = forged[k]!;
      const s = sidtd[k]!;
      return [
        g === 0 ? 'the line box' : `the line box grown by ${g} × its height`,
        f.n,
        `${f.ring + f.band} (${pct(f.ring + f.band, f.n)})`,
        f.ring,
        f.band,
        `${s.ring + s.band} / ${s.n}`,
      ];
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--half');
  const half: Half = at >= 0 && args[at + 1] === 'tuning' ? 'tuning' : 'holdout';
  const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--half');
  await evaluateTextInpaint(resolve(dir ?? process.env.FIXTURES_DIR ?? '../shared/fixtures'), half);
}
