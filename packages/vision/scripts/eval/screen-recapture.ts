import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import { nativeScreenPeakRatio, SCREEN_PEAK_RATIO, screenPeakRatio } from '../../src/tamper/screen.ts';
import { pct, printTable, readTruth } from './faces-common.ts';

/**
 * `photo_of_screen` on simulated screen recaptures (the fixture set has none): bona fide fixture
 * documents shown on a virtual LCD (900 px wide; red, green and blue stripes, a dark gap between
 * pixel rows) and "photographed" at several distances (camera pixels per screen pixel), tilted
 * 1.5°, with optical blur, saved as JPEG 85. Prints how many are flagged from the working copy
 * alone and with the upload's own pixels (as the analyzer does), and the bona fide documents'
 * own scores for comparison.
 *
 *   npx tsx packages/vision/scripts/eval/screen-recapture.ts [fixturesDir]
 */

const SCREEN_WIDTH = 900;
// Up to 4: a 900 px screen then fills a 4K frame (uploads are at most 12 MB).
const CAMERA_PX_PER_SCREEN_PX = [1.2, 1.7, 2.5, 4];
const BLUR_CAMERA_PX = [1, 1.5, 2.5];
const DOCUMENTS = 4;

/** The camera's picture of the document on the screen (supersampled 3×3 per camera pixel). */
async function recapture(doc: NormalizedImage, camPerScreen: number, blur: number): Promise<Uint8Array> {
  const sw = SCREEN_WIDTH;
  const sh = Math.round((doc.height * sw) / doc.width);
  const screen = await sharp(Buffer.from(doc.rgb), {
    raw: { width: doc.width, height: doc.height, channels: 3 },
  })
    .resize(sw, sh)
    .raw()
    .toBuffer();
  const w = Math.round(sw * camPerScreen * 1.1);
  const h = Math.round(sh * camPerScreen * 1.1);
  const out = Buffer.alloc(w * h * 3);
  const angle = (1.5 * Math.PI) / 180;
  const [ca, sa] = [Math.cos(angle), Math.sin(angle)];
  const S = 3;
  const acc = [0, 0, 0];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      acc.fill(0);
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const cx = x + (sx + 0.5) / S - w / 2;
          const cy = y + (sy + 0.5) / S - h / 2;
          const u = (ca * cx + sa * cy) / camPerScreen + sw / 2;
          const v = (-sa * cx + ca * cy) / camPerScreen + sh / 2;
          if (u < 0 || v < 0 || u >= sw || v >= sh) continue; // the screen's black bezel
          const px = Math.floor(u);
          const py = Math.floor(v);
          const rowLit = v - py > 0.1 && v - py < 0.95; // dark gap between pixel rows
          const channel = Math.min(2, Math.floor((u - px) * 3)); // the stripe under this point
          if (rowLit) acc[channel]! += 3 * screen[(py * sw + px) * 3 + channel]!;
        }
      }
      for (let c = 0; c < 3; c++) out[(y * w + x) * 3 + c] = Math.min(255, (acc[c]! / (S * S)) * 0.9 + 10);
    }
  }
  const jpeg = await sharp(out, { raw: { width: w, height: h, channels: 3 } })
    .blur(blur)
    .jpeg({ quality: 85 })
    .toBuffer();
  return new Uint8Array(jpeg);
}

export async function evaluateScreenRecapture(fixturesDir: string): Promise<void> {
  const truth = await readTruth(fixturesDir);
  const files = Object.entries(truth)
    .filter(
      ([file, t]) =>
        file.startsWith('documents/') && !t.attack && ['passport', 'id_front', 'id_td1'].includes(t.kind),
    )
    .map(([file]) => file)
    .slice(0, DOCUMENTS);
  const rows: (string | number)[][] = [];
  let total = 0;
  let workingHits = 0;
  let bothHits = 0;
  const bonaFide: string[] = [];
  for (const file of files) {
    const doc = await normalizeImage(new Uint8Array(await readFile(join(fixturesDir, file))));
    bonaFide.push(`${file}: ${screenPeakRatio(doc).toFixed(0)}`);
    for (const cps of CAMERA_PX_PER_SCREEN_PX) {
      for (const blur of BLUR_CAMERA_PX) {
        const bytes = await recapture(doc, cps, blur);
        const working = await normalizeImage(bytes);
        const w = screenPeakRatio(working);
        const n = (await nativeScreenPeakRatio(bytes, working)) ?? 0;
        total++;
        if (w >= SCREEN_PEAK_RATIO) workingHits++;
        if (Math.max(w, n) >= SCREEN_PEAK_RATIO) bothHits++;
        rows.push([
          file,
          cps,
          blur,
          `${working.originalWidth}×${working.originalHeight}`,
          w.toFixed(0),
          n.toFixed(0),
        ]);
      }
    }
  }
  console.log('\n### photo_of_screen on simulated LCD recaptures\n');
  printTable(
    ['document', 'camera px / screen px', 'blur (camera px)', 'upload', 'working ratio', 'upload ratio'],
    rows,
  );
  console.log(`\nThreshold ${SCREEN_PEAK_RATIO}. Bona fide originals: ${bonaFide.join('; ')}`);
  printTable(
    ['recaptures', 'flagged, working copy only', 'flagged, working copy + upload (analyzer)'],
    [[total, `${workingHits} (${pct(workingHits, total)})`, `${bothHits} (${pct(bothHits, total)})`]],
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await evaluateScreenRecapture(resolve(process.argv[2] ?? process.env.FIXTURES_DIR ?? '../shared/fixtures'));
}
