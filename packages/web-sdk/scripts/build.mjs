/**
 * Builds the browser bundle served at /sdk/v1.js (ESM, minified) and its typings, and prints
 * the gzipped size; fails above the 30 KB budget. Runs on `npm install`, `npm start` and
 * `npm test`, so a clean clone never needs a manual step.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, 'dist');
const BUDGET_BYTES = 30 * 1024;

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [resolve(root, 'src/index.ts')],
  outfile: resolve(out, 'v1.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: ['es2020', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
});

// The typings: the public declarations, plus the entry point.
const types = readFileSync(resolve(root, 'src/types.ts'), 'utf8');
writeFileSync(
  resolve(out, 'v1.d.ts'),
  `${types}\n/** Mounts the capture flow in \`element\`. */\nexport declare function mount(element: HTMLElement, options: MountOptions): MountedCapture;\n`,
);

const code = readFileSync(resolve(out, 'v1.js'));
const gzipped = gzipSync(code, { level: 9 }).byteLength;
console.log(
  `web-sdk: dist/v1.js ${(code.byteLength / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped (budget 30 KB)`,
);
if (gzipped > BUDGET_BYTES) {
  console.error('web-sdk: the bundle is over its 30 KB gzipped budget');
  process.exit(1);
}
