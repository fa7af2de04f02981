import { readFile } from 'node:fs/promises';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import { glyphHeightDeviation } from '../../src/tamper/font-consistency.ts';
import { parseTextBoxes } from '../../src/tamper/text-boxes.ts';

for (const f of process.argv.slice(2)) {
  const img = await normalizeImage(new Uint8Array(await readFile(f)));
  const r = await readDocument({ front: img });
  for (const b of parseTextBoxes(r.fieldBoxes)) {
    const d = glyphHeightDeviation(img, b, undefined, { fillers: b.field.startsWith('mrz') });
    console.log(f.split('/').pop(), b.field, Math.round(b.h), d?.toFixed(3));
  }
}
