import { readFile } from 'node:fs/promises';
import { detectDocumentFaces, type FaceBox } from './src/faces/detect.ts';
import { type NormalizedImage, normalizeImage } from './src/image/normalize.ts';
import { toGrey } from './src/tamper/pixels.ts';
import { measurePortraitStreaks } from './src/tamper/portrait-streaks.ts';

const load = async (f: string) =>
  normalizeImage(new Uint8Array(await readFile(`/work/shared/fixtures/documents/${f}`)));
const main = async (img: NormalizedImage) =>
  (await detectDocumentFaces(img)).reduce((a, b) => (b.w > a.w ? b : a));
/** SIDTD crop_replace: forward-map every source pixel of the donor's portrait box into the target box with integer casting. */
function cropReplace(
  target: NormalizedImage,
  tBox: FaceBox,
  donor: NormalizedImage,
  dBox: FaceBox,
  sx: number,
  sy: number,
): NormalizedImage {
  const rgb = target.rgb.slice();
  // source region: donor face box grown 1.4x; target region: same centre as target face, size = source size * scale
  const sw = Math.round(dBox.w * 1.4),
    sh = Math.round(dBox.h * 1.6);
  const sx0 = Math.round(dBox.x + dBox.w / 2 - sw / 2),
    sy0 = Math.round(dBox.y + dBox.h / 2 - sh / 2);
  const tw = sw * sx,
    th = sh * sy;
  const tx0 = tBox.x + tBox.w / 2 - tw / 2,
    ty0 = tBox.y + tBox.h / 2 - th / 2;
  for (let y = 0; y < sh; y++)
    for (let x = 0; x < sw; x++) {
      const xs = sx0 + x,
        ys = sy0 + y;
      if (xs < 0 || ys < 0 || xs >= donor.width || ys >= donor.height) continue;
      const xt = Math.trunc(tx0 + x * sx),
        yt = Math.trunc(ty0 + y * sy);
      if (xt < 0 || yt < 0 || xt >= target.width || yt >= target.height) continue;
      const i = (yt * target.width + xt) * 3,
        j = (ys * donor.width + xs) * 3;
      rgb[i] = donor.rgb[j]!;
      rgb[i + 1] = donor.rgb[j + 1]!;
      rgb[i + 2] = donor.rgb[j + 2]!;
    }
  return { ...target, rgb };
}
const docs = [
  'sidtd_alb01_genuine.jpg',
  'sidtd_aze01_genuine.jpg',
  'doubango_aus_passport_rot-90.jpg',
  'pe_passport-td2.jpg',
  'pe_passport-td3.jpg',
  'fastmrz_td1.jpg',
];
const imgs = await Promise.all(docs.map(load));
const faces = await Promise.all(imgs.map(main));
for (let t = 0; t < docs.length; t++) {
  const d = (t + 1) % docs.length;
  const scaleFit = faces[t]!.w / faces[d]!.w;
  const row: string[] = [];
  for (const [ax, ay] of [
    [1, 1],
    [1.05, 1],
    [1, 1.05],
    [1.15, 1.15],
    [0.9, 0.9],
  ]) {
    const fake = cropReplace(imgs[t]!, faces[t]!, imgs[d]!, faces[d]!, scaleFit * ax!, scaleFit * ay!);
    const f = await main(fake);
    const up = measurePortraitStreaks(toGrey(fake), f);
    const turned = measurePortraitStreaks(toGrey(fake), {
      ...f,
      landmarks: [[0, 0], [0, 10], ...f.landmarks.slice(2)] as any,
    });
    row.push(`${ax}/${ay}: V${up?.inside ?? '-'} H${turned?.inside ?? '-'}`);
  }
  console.log(docs[t]!.padEnd(34), 'fit', scaleFit.toFixed(2), row.join(' | '));
}

import sharp from 'sharp';

{
  const fake = cropReplace(imgs[0]!, faces[0]!, imgs[1]!, faces[1]!, 1.12 * 1.05, 1.12);
  const f = faces[0]!;
  await sharp(Buffer.from(fake.rgb), { raw: { width: fake.width, height: fake.height, channels: 3 } })
    .extract({
      left: Math.round(f.x - 20),
      top: Math.round(f.y - 20),
      width: Math.round(f.w + 40),
      height: Math.round(f.h + 40),
    })
    .png()
    .toFile('/tmp/m.png');
}
{
  const fake = cropReplace(imgs[0]!, faces[0]!, imgs[1]!, faces[1]!, 1.12 * 1.05, 1.12);
  const f = await main(fake);
  console.log('face', f.x, f.y, f.w, f.h, 'orig', faces[0]!.x, faces[0]!.y, faces[0]!.w);
  const g = toGrey(fake);
  const at = (x: number, y: number) => g.data[y * g.width + x]!;
  const res: string[] = [];
  for (let x = Math.round(f.x + 0.1 * f.w); x < f.x + 0.9 * f.w; x++) {
    let best = 0,
      run = 0,
      sign = 0,
      bestNF = 0,
      runNF = 0,
      signNF = 0;
    for (let y = Math.round(f.y + 0.1 * f.h); y < f.y + 0.9 * f.h; y++) {
      const L = at(x - 2, y),
        R = at(x + 2, y),
        l = at(x, y) - (L + R) / 2;
      const s = Math.abs(l) >= 8 && Math.abs(L - R) <= 0.5 * Math.abs(l) ? Math.sign(l) : 0;
      if (s && s === sign) run++;
      else {
        run = s ? 1 : 0;
        sign = s;
      }
      best = Math.max(best, run);
      const s2 = Math.abs(l) >= 8 ? Math.sign(l) : 0;
      if (s2 && s2 === signNF) runNF++;
      else {
        runNF = s2 ? 1 : 0;
        signNF = s2;
      }
      bestNF = Math.max(bestNF, runNF);
    }
    if (bestNF >= 10) res.push(`${x}:${best}/${bestNF}`);
  }
  console.log(res.join(' '));
}
