import { describe, expect, it } from 'vitest';
import { describeResident, residentMemory } from '../../scripts/bench/resident-memory.ts';

/** One /proc/self/smaps entry as Linux prints it (only the fields the breakdown reads, plus one it skips). */
function mapping(start: number, end: number, perms: string, path: string, rssKb: number): string {
  const hex = (n: number) => n.toString(16).padStart(12, '0');
  return [
    `${hex(start)}-${hex(end)} ${perms} 00000000 00:00 0${path ? `                          ${path}` : ''}`,
    `Size:           ${(end - start) / 1024} kB`,
    `Rss:            ${rssKb} kB`,
    'Pss:            0 kB',
  ].join('\n');
}

const MB = 2 ** 20;
const HEAP = 64 * MB;

describe('resident memory by kind', () => {
  it('tells the binary, the main heap, the thread heaps and the other anonymous mappings apart', () => {
    const smaps = [
      mapping(0x400000, 0x400000 + 8 * MB, 'r-xp', '/usr/bin/node', 20 * 1024),
      mapping(0x10000000, 0x10000000 + 40 * MB, 'rw-p', '[heap]', 30 * 1024),
      // A thread heap in use up to 24 MB, the rest of its 64 MB reserved.
      mapping(3 * HEAP, 3 * HEAP + 24 * MB, 'rw-p', '', 22 * 1024),
      mapping(3 * HEAP + 24 * MB, 4 * HEAP, '---p', '', 0),
      // A thread heap grown to its whole 64 MB.
      mapping(5 * HEAP, 6 * HEAP, 'rw-p', '', 60 * 1024),
      // Anonymous, 64 MB-aligned, but with nothing reserved after it: a large block, not a heap.
      mapping(8 * HEAP, 8 * HEAP + 10 * MB, 'rw-p', '', 10 * 1024),
      // Anonymous, not aligned (a V8 page, a thread stack).
      mapping(9 * HEAP + 4096, 9 * HEAP + 4096 + 2 * MB, 'rw-p', '', 2 * 1024),
      mapping(0x7f0000000000, 0x7f0000000000 + 4 * MB, 'r-xp', '/opt/lib/libonnxruntime.so.1', 5 * 1024),
      mapping(0x7fff00000000, 0x7fff00000000 + MB, 'rw-p', '[stack]', 512),
    ].join('\n');
    const r = residentMemory(smaps);
    expect(r.files).toBe(25);
    expect(r.mainHeap).toBe(30);
    expect([r.threadHeapCount, r.threadHeaps]).toEqual([2, 82]);
    expect(r.otherAnonymous).toBe(12.5);
    expect(r.total).toBe(149.5);
    expect(describeResident(r)).toBe(
      '150 = files 25 + main heap 30 + 2 thread heaps 82 + other anonymous 13',
    );
  });

  it('reads this process when given nothing', () => {
    const r = residentMemory();
    expect(r.total).toBeGreaterThan(0);
    expect(r.files + r.mainHeap + r.threadHeaps + r.otherAnonymous).toBeCloseTo(r.total, 6);
  });
});
