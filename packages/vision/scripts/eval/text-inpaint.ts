import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import {
  FILL_MIN_RING_TEXTURE,
  measureFillTexture,
  parseLineBoxes,
  smoothFillStrength,
} from '../../src/tamper/smooth-fill.ts';
import { inpaintedLine } from '../../test/support/forgeries.ts';
import { pct, printTable, readTruth } from './faces-common.ts';

/**
 * The in-painting cue of `field_overwritten` on simulated text edits (the fixture set has no
 * text attack): every line the OCR reads on the bona fide fixture documents is measured as it
 * is, then erased by in-painting and typed again (`inpaintedLine`: the line's box, exactly or
 * grown by 0.3 of its height as a field annotation would be, filled from its border, the old
 * letters drawn back in black), saved as JPEG 90 and measured again.
 *
 *   npx tsx packages/vision/scripts/eval/text-inpaint.ts [fixturesDir]
 */

const GROWTH = [0, 0.3];

async function asUpload(image: NormalizedImage): Promise<NormalizedImage> {
  const jpeg = await sharp(Buffer.from(image.rgb), {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  return normalizeImage(new Uint8Array(jpeg));
}

export async function evaluateTextInpaint(fixturesDir: string): Promise<void> {
  const truth = await readTruth(fixturesDir);
  let lines = 0;
  let judged = 0;
  let falseAlarms = 0;
  const forged = GROWTH.map(() => ({ n: 0, flagged: 0 }));
  // The MIDV-2020 templates (SIDTD's source) print a pattern behind every field: counted apart.
  const sidtd = GROWTH.map(() => ({ n: 0, flagged: 0 }));
  for (const [file, t] of Object.entries(truth)) {
    if (!file.startsWith('documents/') || t.attack) continue;
    const front = await normalizeImage(new Uint8Array(await readFile(join(fixturesDir, file))));
    const reading = await readDocument({ front });
    for (const line of parseLineBoxes(reading.textBoxes).filter((l) => l.side === 'front')) {
      lines++;
      const before = measureFillTexture(front, line.quad);
      // Plain backgrounds are not judged: in-painting there leaves nothing to see.
      if (!before || before.ring < FILL_MIN_RING_TEXTURE) continue;
      judged++;
      if (smoothFillStrength(before) !== null) falseAlarms++;
      for (const [k, grow] of GROWTH.entries()) {
        const edited = await asUpload(inpaintedLine(front, line.quad, grow));
        const after = measureFillTexture(edited, line.quad);
        const hit = after !== null && smoothFillStrength(after) !== null;
        for (const tally of file.includes('sidtd_') ? [forged[k]!, sidtd[k]!] : [forged[k]!]) {
          tally.n++;
          if (hit) tally.flagged++;
        }
      }
    }
  }
  console.log('\n### field_overwritten on simulated in-painted lines (bona fide documents, front)\n');
  console.log(
    `Lines read: ${lines}; on a printed background (judged): ${judged}; untouched lines flagged: ${falseAlarms} (${pct(falseAlarms, judged)}).`,
  );
  printTable(
    ['in-painted region', 'lines', 'flagged', 'of which on SIDTD templates'],
    GROWTH.map((g, k) => [
      g === 0 ? 'the line box' : `the line box grown by ${g} × its height`,
      forged[k]!.n,
      `${forged[k]!.flagged} (${pct(forged[k]!.flagged, forged[k]!.n)})`,
      `${sidtd[k]!.flagged} / ${sidtd[k]!.n}`,
    ]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await evaluateTextInpaint(resolve(process.argv[2] ?? process.env.FIXTURES_DIR ?? '../shared/fixtures'));
}
