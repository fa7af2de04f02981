import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the built browser files are (`dist/v1.js`, `dist/v1.d.ts`), for the server that serves
 * them at `/sdk/`. Node-only; never part of the browser bundle. A bundled server (the Lambda)
 * ships the files beside its code and names the folder in `SDK_DIST_DIR`.
 */
export const SDK_DIST_DIR = process.env.SDK_DIST_DIR
  ? resolve(process.env.SDK_DIST_DIR)
  : resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
