/**
 * `npm run purge`: runs the retention purge (and the expiry of unused direct uploads) now against the local stack started by
 * `npm start` (reads its endpoints from .data/runtime.json). `--now=<ISO date>` pretends the
 * purge runs at another time, to see retention end without waiting.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createStore, purgeExpiredImages, purgeExpiredUploads, type StoreConfig } from '@idv/store';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
let config: StoreConfig;
try {
  config = JSON.parse(readFileSync(resolve(dataDir, 'runtime.json'), 'utf8')).store;
} catch {
  console.error('The local service is not running (no .data/runtime.json). Start it with npm start.');
  process.exit(1);
}
const nowArg = process.argv.find((a) => a.startsWith('--now='));
const now = nowArg ? new Date(nowArg.slice(6)) : new Date();
const store = createStore(config);
const result = await purgeExpiredImages(store, now);
console.log(`Purged the images of ${result.purged} verification(s) due before ${now.toISOString()}.`);
const uploads = await purgeExpiredUploads(store, now);
console.log(`Deleted ${uploads.purged} direct upload(s) no verification used in time.`);
