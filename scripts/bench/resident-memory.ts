import { readFileSync } from 'node:fs';

/**
 * The process's resident memory by kind, from /proc/self/smaps (Linux): what `rss` alone cannot
 * say when the HTTP server, the local stack, the analysis worker and onnxruntime share one
 * process (issue 17's memory target). glibc gives the main thread the brk heap and each other
 * thread that allocates a heap of its own ("arena", 64 MB-aligned, up to 8 per core unless
 * MALLOC_ARENA_MAX says fewer): the analysis worker's models and onnxruntime's buffers live in
 * those; V8's heaps and blocks too large for a heap are other anonymous mappings.
 */
export interface ResidentMemory {
  /** Every mapping's resident MB (the process's rss). */
  total: number;
  /** Mapped files: the node binary and the shared libraries (onnxruntime, libvips), MB. */
  files: number;
  /** glibc's main heap (brk), MB. */
  mainHeap: number;
  /** glibc's other heaps (one per thread, at most MALLOC_ARENA_MAX), MB, and how many. */
  threadHeaps: number;
  threadHeapCount: number;
  /** Every other anonymous mapping: V8's heaps, large malloc blocks, thread stacks, MB. */
  otherAnonymous: number;
}

/** glibc's HEAP_MAX_SIZE on 64-bit: a thread heap is reserved whole and aligned on it. */
const THREAD_HEAP_BYTES = 64 * 2 ** 20;

interface Mapping {
  start: number;
  end: number;
  perms: string;
  path: string;
  rssKb: number;
}

export function residentMemory(smaps = readFileSync('/proc/self/smaps', 'utf8')): ResidentMemory {
  const maps: Mapping[] = [];
  for (const line of smaps.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, start, end, perms, path] = head;
      maps.push({
        start: Number.parseInt(start!, 16),
        end: Number.parseInt(end!, 16),
        perms: perms!,
        path: path!.trim(),
        rssKb: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length) maps[maps.length - 1]!.rssKb = Number(rss[1]);
  }
  const out: ResidentMemory = {
    total: 0,
    files: 0,
    mainHeap: 0,
    threadHeaps: 0,
    threadHeapCount: 0,
    otherAnonymous: 0,
  };
  maps.forEach((m, i) => {
    const mb = m.rssKb / 1024;
    out.total += mb;
    if (m.path === '[heap]') out.mainHeap += mb;
    else if (m.path.startsWith('/')) out.files += mb;
    else if (isThreadHeap(m, maps[i + 1])) {
      out.threadHeaps += mb;
      out.threadHeapCount++;
    } else out.otherAnonymous += mb;
  });
  return out;
}

/**
 * A glibc thread heap: anonymous, read-write, starting on a 64 MB boundary, either 64 MB long or
 * followed at once by the rest of its 64 MB reserved without access (the part not yet in use).
 */
function isThreadHeap(m: Mapping, next: Mapping | undefined): boolean {
  if (m.path !== '' || !m.perms.startsWith('rw') || m.start % THREAD_HEAP_BYTES !== 0) return false;
  if (m.end - m.start === THREAD_HEAP_BYTES) return true;
  return (
    next !== undefined &&
    next.path === '' &&
    next.perms.startsWith('---') &&
    next.start === m.end &&
    next.end - m.start === THREAD_HEAP_BYTES
  );
}

/** One line: "rss 812 = files 90 + main heap 34 + 5 thread heaps 376 + other anonymous 300". */
export function describeResident(r: ResidentMemory): string {
  const n = (v: number) => Math.round(v);
  return (
    `${n(r.total)} = files ${n(r.files)} + main heap ${n(r.mainHeap)} + ` +
    `${r.threadHeapCount} thread heaps ${n(r.threadHeaps)} + other anonymous ${n(r.otherAnonymous)}`
  );
}
