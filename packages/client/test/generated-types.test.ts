import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, renderClientTypes } from '../../../scripts/client/generate-types.ts';

describe('the generated client types', () => {
  it('are those of the current OpenAPI document (run `npm run generate:client` when this fails)', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    expect(committed === (await renderClientTypes())).toBe(true);
  });
});
