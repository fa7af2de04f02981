import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * glibc reads MALLOC_ARENA_MAX once, when the process starts, so no code can set it: the service's
 * entry points carry it in their environment (docs/decisions.md, "Memory (issue 17)"). Each must
 * carry the same value, or the memory measured by the bench is not the one served.
 */
const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('MALLOC_ARENA_MAX', () => {
  it('is set alike for npm start, the bench and the analyzer Lambda, and can be overridden locally', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    for (const name of ['start', 'bench']) {
      expect(scripts[name]).toMatch(/^MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-2\} tsx scripts\//);
    }
    expect(read('infra/analyzer.ts')).toMatch(/^\s+MALLOC_ARENA_MAX: '2',$/m);
  });
});
