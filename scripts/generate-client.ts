/** `npm run generate:client`: rewrites @idv/client's types from the app's OpenAPI document. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_TYPES_FILE, renderClientTypes } from './client/generate-types.ts';

writeFileSync(CLIENT_TYPES_FILE, await renderClientTypes());
console.log(`wrote ${fileURLToPath(CLIENT_TYPES_FILE)}`);
