import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * Text advance widths, measured once per font and character by rendering through the same
 * librsvg/pango path the documents are drawn with (no font-metrics library needed): the width of
 * a run of 21 copies minus the width of one copy is 20 advances exactly, whatever the glyph's ink.
 * The field boxes in the truth come from these widths.
 */

export interface FontSpec {
  family: string;
  weight: 'normal' | 'bold';
}

/** Measured widths are kept across runs in the repository's .cache folder (not committed). */
const CACHE_FILE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../.cache/synth/font-advances.json',
);
const cache = new Map<string, number>(
  existsSync(CACHE_FILE)
    ? Object.entries(JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as Record<string, number>)
    : [],
);
let dirty = false;

/** Writes new measurements to the cache file (called once per generated document). */
export function saveAdvances(): void {
  if (!dirty) return;
  mkdirSync(dirname(CACHE_FILE), { recursive: true });
  writeFileSync(CACHE_FILE, JSON.stringify(Object.fromEntries(cache)));
  dirty = false;
}
const SIZE = 60;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function inkWidth(text: string, font: FontSpec): Promise<number> {
  const width = Math.ceil(text.length * SIZE * 1.2) + 40;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${SIZE * 2}"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="${SIZE * 1.3}" font-family="${font.family}" font-weight="${font.weight}" font-size="${SIZE}" xml:space="preserve">${escapeXml(text)}</text></svg>`;
  const { info } = await sharp(Buffer.from(svg))
    .trim({ threshold: 60 })
    .toBuffer({ resolveWithObject: true });
  return info.width;
}

/** Advance of one character at font size 1. */
async function advance(ch: string, font: FontSpec): Promise<number> {
  const key = `${font.family}|${font.weight}|${ch}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let value: number;
  if (ch.trim() === '') {
    // Blank glyphs have no ink: measure them between two visible bars.
    value = ((await inkWidth(`H${ch.repeat(20)}H`, font)) - (await inkWidth('HH', font))) / 20 / SIZE;
  } else {
    value = ((await inkWidth(ch.repeat(21), font)) - (await inkWidth(ch, font))) / 20 / SIZE;
  }
  cache.set(key, value);
  dirty = true;
  return value;
}

/** Width in px of `text` drawn at `size` px in `font` (kerning ignored: a box, not a layout engine). */
export async function textWidth(text: string, font: FontSpec, size: number): Promise<number> {
  let w = 0;
  for (const ch of text) w += await advance(ch, font);
  return w * size;
}
