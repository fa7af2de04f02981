import {
  analyzeImages,
  decisionCounts,
  type ProfileEvent,
  startProfile,
  stopProfile,
  warmUpAnalyzer,
} from '@idv/vision';
import { documentPhoto, HOLDER, matchingSelfie } from '../../test/support/documents.ts';
import { figure, load, median } from './figures.ts';

/**
 * Where the time of one analysis goes, without HTTP or the store (those are in `verify`): for a
 * passport + selfie and a card front + back + selfie, run one at a time, warm, `runs` times:
 * - CPU time of the process per analysis (user + system, all threads: ONNX, libvips, JS) beside
 *   its wall time: on a shared machine the CPU time is the steadier figure;
 * - the analyzer's own step timings (normalize, ocr, mrz, faces, tamper…), medians;
 * - every model run and image decode or resize (runtime/profile.ts): how many per analysis,
 *   at which input size, and their median time; steps that contain model runs (mrz-read-…)
 *   count only their own time;
 * - the MRZ cascade's decisions (stopped sure, stopped by checks, voted and why).
 * The passport is drawn twice: with its zone in DejaVu Sans Mono (the tests' historical drawing,
 * which the MRZ model misreads at times, so the cascade votes) and in OCR-B, as real documents
 * print it.
 */
export async function benchProfile(runs = 10): Promise<void> {
  await warmUpAnalyzer();
  const holder = { ...HOLDER, number: '12345678901234567' };
  const cases: [string, string, Record<string, Uint8Array>][] = [
    [
      'passport',
      'passport + selfie',
      { front: await documentPhoto('passport'), selfie: await matchingSelfie() },
    ],
    [
      'passport_ocrb',
      'passport (zone in OCR-B) + selfie',
      {
        front: await documentPhoto('passport', HOLDER, { mrzFont: 'ocr-b' }),
        selfie: await matchingSelfie(),
      },
    ],
    [
      'card',
      'card front + back + selfie',
      {
        front: await documentPhoto('cni_front', holder),
        back: await documentPhoto('cni_back', holder),
        selfie: await matchingSelfie(),
      },
    ],
  ];
  for (const [key, name, parts] of cases) {
    const images = Object.fromEntries(Object.entries(parts).map(([k, bytes]) => [k, { bytes }]));
    const wall: number[] = [];
    const cpu: number[] = [];
    const steps = new Map<string, number[]>();
    const ops = new Map<string, { counts: number[]; ms: number[]; perAnalysis: number[] }>();
    const decisions: ProfileEvent[] = [];
    const loadBefore = load();
    for (let i = 0; i < runs + 2; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      startProfile();
      const outcome = await analyzeImages({ images });
      const events = stopProfile();
      const w = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (outcome.kind !== 'observations') throw new Error(`${name}: analysis refused (${outcome.code})`);
      if (i < 2) continue; // the first calls warm caches and the JIT
      wall.push(w);
      cpu.push((c.user + c.system) / 1000);
      for (const [step, ms] of Object.entries(outcome.observations.timings)) {
        steps.set(step, [...(steps.get(step) ?? []), ms]);
      }
      collect(
        ops,
        events.filter((e) => e.kind !== 'decision'),
        i - 2,
      );
      decisions.push(...events.filter((e) => e.kind === 'decision'));
    }
    console.log(`### ${name} (${runs} analyses, one at a time; ${loadBefore} → ${load()})\n`);
    console.log('| measure | median |\n|---|---|');
    console.log(`| wall ms per analysis | ${figure(`profile.${key}.wall_ms`, median(wall))} |`);
    console.log(`| CPU ms per analysis (all threads) | ${figure(`profile.${key}.cpu_ms`, median(cpu))} |`);
    for (const [step, values] of steps)
      console.log(`| step ${step} | ${figure(`profile.${key}.${step}`, median(values))} |`);
    console.log(
      '\n| operation | input | count per analysis | median ms each | ms per analysis |\n|---|---|---|---|---|',
    );
    const byCost = [...ops].sort((a, b) => median(b[1].perAnalysis) - median(a[1].perAnalysis));
    let modelRuns = 0;
    let decodes = 0;
    for (const [op, s] of byCost) {
      const [kind, opName, detail] = op.split('|') as [string, string, string];
      const count = median(s.counts);
      if (kind === 'model') modelRuns += count;
      else if (kind === 'decode') decodes += count;
      console.log(
        `| ${kind} ${opName} | ${detail} | ${count} | ${median(s.ms).toFixed(1)} | ${median(s.perAnalysis).toFixed(0)} |`,
      );
    }
    console.log(
      `\nmodel runs per analysis: ${figure(`profile.${key}.model_runs`, modelRuns)}; image decodes: ${figure(`profile.${key}.decodes`, decodes)}`,
    );
    const cascade = decisionCounts(decisions, 'mrz-cascade');
    console.log(
      `MRZ cascade over ${runs} analyses (per candidate block): ${cascade.map(([d, n]) => `${d} ${n}`).join(', ') || 'none'}`,
    );
    // The MRZ rows the page reading deferred (ocr/page.ts): settled by the MRZ model or read by PP-OCR.
    const rows = decisionCounts(decisions, 'mrz-row-ocr');
    console.log(
      `MRZ rows over ${runs} analyses: ${rows.map(([d, n]) => `${d} ${n}`).join(', ') || 'none deferred'}\n`,
    );
  }
}

/** Groups one analysis's events by operation and input size (every run fills every group). */
function collect(
  ops: Map<string, { counts: number[]; ms: number[]; perAnalysis: number[] }>,
  events: ProfileEvent[],
  run: number,
): void {
  for (const e of events) {
    const id = `${e.kind}|${e.name}|${e.detail}`;
    let s = ops.get(id);
    if (!s) {
      s = { counts: [], ms: [], perAnalysis: [] };
      ops.set(id, s);
    }
    while (s.counts.length <= run) {
      s.counts.push(0);
      s.perAnalysis.push(0);
    }
    s.counts[run]! += 1;
    s.perAnalysis[run]! += e.ms;
    s.ms.push(e.ms);
  }
}
