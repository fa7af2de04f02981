import type { AnalysisRequest } from '@idv/core';
import { createWorkerAnalyzer, type WorkerAnalyzer } from '@idv/vision';
import { documentPhoto, HOLDER, matchingSelfie } from '../../test/support/documents.ts';
import { load, median } from './figures.ts';

/**
 * `npm run bench -- ab`: two env settings of the analysis compared on the same documents, each
 * on its own worker pool in this process (the pool passes its env to its workers: threads,
 * spinning, memory switches, ANALYSIS_CONCURRENCY for the pool's size). The rounds alternate A
 * and B (and which goes first), so that a shared machine's load falls on both alike; the figures
 * are medians over the rounds and the ratio B / A.
 *
 *   BENCH_A='ANALYSIS_CONCURRENCY=2' BENCH_B='ANALYSIS_CONCURRENCY=1' BENCH_AB_CLIENTS=4 \
 *     BENCH_RUNS=6 npm run bench -- ab
 *
 * One client (default): each round analyses a passport + selfie and a card front + back +
 * selfie, one after the other: wall ms and CPU ms (every thread of the process) per analysis.
 * N clients: each round sends N passport + selfie analyses at once: analyses/s, latency.
 * Memory is not compared here (both pools live in one process): `npm run bench -- verify` with
 * each setting prints the resident size. The observations are: every analysis's outcome, its
 * timings left out, must be the same under A and B (a setting meant for speed or memory must
 * not change a result); the bench prints which case and field differ when one does.
 */

type Settings = Record<string, string>;

interface Sample {
  ms: number[];
  cpuMs: number[];
  perSecond: number[];
}

/** An image as the analyzer gets it (the key only matters to the remote analyzer). */
const image = (bytes: Uint8Array) => ({ bytes, contentType: 'image/jpeg', storageKey: 'bench' });

export async function benchAb(rounds: number): Promise<void> {
  const settings: [string, Settings][] = [
    ['A', parseSettings(process.env.BENCH_A ?? '')],
    ['B', parseSettings(process.env.BENCH_B ?? 'ANALYSIS_CONCURRENCY=1')],
  ];
  const clients = Math.max(1, Number(process.env.BENCH_AB_CLIENTS ?? 1));
  // Zones in OCR-B, as real documents print them (the verify bench's documents).
  const ocrb = { mrzFont: 'ocr-b' } as const;
  const passport: AnalysisRequest = {
    images: {
      front: image(await documentPhoto('passport', HOLDER, ocrb)),
      selfie: image(await matchingSelfie()),
    },
  };
  const holder = { ...HOLDER, number: '12345678901234567' };
  const card: AnalysisRequest = {
    images: {
      front: image(await documentPhoto('cni_front', holder, ocrb)),
      back: image(await documentPhoto('cni_back', holder, ocrb)),
      selfie: image(await matchingSelfie()),
    },
  };
  const cases: [string, AnalysisRequest][] = [
    ['passport + selfie', passport],
    ['card front + back + selfie', card],
  ];

  const pools: WorkerAnalyzer[] = [];
  for (const [name, env] of settings) {
    const pool = createWorkerAnalyzer({ env, taskTimeoutMs: 600_000 });
    await pool.ready();
    // Every worker warm (JIT, the arena's buffers) before any figure: each gets one analysis of
    // each case, twice.
    for (let i = 0; i < 2; i++)
      for (const [, request] of cases) await Promise.all(pool.threads.map(() => pool.analyze(request)));
    const n = pool.threads.length;
    console.log(`${name}: ${describe(env)} (${n} worker thread${n === 1 ? '' : 's'})`);
    pools.push(pool);
  }
  console.log(
    `\n${rounds} rounds, ${clients === 1 ? 'one client' : `${clients} clients at once`}, ${load()}\n`,
  );

  const samples = new Map<string, Sample>();
  // The first outcome of each case under A; every later one, A's or B's, is compared with it.
  const reference = new Map<string, string>();
  const differences: string[] = [];
  const compare = (caseName: string, setting: string, outcome: unknown) => {
    const text = withoutTimings(outcome);
    const first = reference.get(caseName);
    if (first === undefined) reference.set(caseName, text);
    else if (text !== first)
      differences.push(`${caseName} under ${setting}: ${firstDifference(first, text)}`);
  };
  const sample = (key: string): Sample => {
    let s = samples.get(key);
    if (!s) {
      s = { ms: [], cpuMs: [], perSecond: [] };
      samples.set(key, s);
    }
    return s;
  };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const p of order) {
      const pool = pools[p]!;
      const name = settings[p]![0];
      if (clients === 1) {
        for (const [caseName, request] of cases) {
          const cpu = cpuMs();
          const t = performance.now();
          const outcome = await pool.analyze(request);
          const s = sample(`${name}|${caseName}`);
          s.ms.push(performance.now() - t);
          s.cpuMs.push(cpuMs() - cpu);
          compare(caseName, name, outcome);
        }
      } else {
        const cpu = cpuMs();
        const t = performance.now();
        const latencies = await Promise.all(
          Array.from({ length: clients }, async () => {
            const start = performance.now();
            compare('passport + selfie', name, await pool.analyze(passport));
            return performance.now() - start;
          }),
        );
        const s = sample(`${name}|passport + selfie, ${clients} at once`);
        s.perSecond.push(clients / ((performance.now() - t) / 1000));
        s.ms.push(median(latencies));
        s.cpuMs.push((cpuMs() - cpu) / clients);
      }
    }
  }

  const caseNames = clients === 1 ? cases.map(([n]) => n) : [`passport + selfie, ${clients} at once`];
  console.log(`| case | measure | A | B | B / A |\n|---|---|---|---|---|`);
  for (const caseName of caseNames) {
    const a = samples.get(`A|${caseName}`)!;
    const b = samples.get(`B|${caseName}`)!;
    const rows: [string, number, number][] = [
      ['median wall ms', median(a.ms), median(b.ms)],
      ['median CPU ms per analysis', median(a.cpuMs), median(b.cpuMs)],
    ];
    if (clients > 1) rows.unshift(['analyses/s', median(a.perSecond), median(b.perSecond)]);
    for (const [measure, x, y] of rows)
      console.log(`| ${caseName} | ${measure} | ${shown(x)} | ${shown(y)} | ${(y / x).toFixed(2)} |`);
  }
  console.log(
    differences.length
      ? `\nobservations NOT the same in ${differences.length} analyses:\n${differences.slice(0, 10).join('\n')}`
      : '\nobservations: the same in every analysis of A and B (timings left out)',
  );
  console.log(`\n(${load()} at the end)`);
  await Promise.all(pools.map((p) => p.close()));
}

/** The outcome as JSON without its timings (every `timings` object), keys in a fixed order. */
function withoutTimings(outcome: unknown): string {
  return JSON.stringify(outcome, (key, value) => {
    if (key === 'timings') return undefined;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
    return value;
  });
}

/** Where two JSON texts part, with a little context. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `…${a.slice(Math.max(0, i - 60), i + 40)}… vs …${b.slice(Math.max(0, i - 60), i + 40)}…`;
}

/** Whole milliseconds; rates (a loaded machine gives 0.03/s) with three significant digits. */
function shown(x: number): string {
  return x >= 100 ? x.toFixed(0) : x.toPrecision(3);
}

/** `K=V K=V` → { K: V }. */
function parseSettings(text: string): Settings {
  const out: Settings = {};
  for (const pair of text.split(/\s+/).filter(Boolean)) {
    const i = pair.indexOf('=');
    if (i <= 0) throw new Error(`BENCH_A / BENCH_B: expected KEY=VALUE, got ${pair}`);
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

function describe(env: Settings): string {
  const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return pairs.length ? pairs.join(' ') : 'the defaults';
}

/** CPU time of the whole process (user + system, every thread), ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
