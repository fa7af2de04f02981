import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 `.cpuprofile` (scripts/bench/cpu-profile.ts, or node --cpu-prof), per analysis
 * (CPU_PROFILE_RUNS, default 20, the profile script's count):
 * - the functions with the most self time (samples in the function itself), with their callers
 *   (up to three frames up), to tell which step pays for a shared helper such as a resize;
 * - the functions with the most inclusive time (themselves and their callees, each counted once
 *   per sample even when recursive).
 * Native time (model runs inside onnxruntime) shows as an unnamed frame without a file.
 *
 *   npx tsx scripts/bench/cpu-profile-summary.ts <file.cpuprofile> [top]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: cpu-profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 30);
const runs = Number(process.env.CPU_PROFILE_RUNS ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** A frame's name: function and file (tsx's output keeps names, not lines). */
const label = (id: number) => {
  const { functionName, url } = byId.get(id)!.callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}`.trim();
};
const msPerAnalysis = (us: number) => (us / 1000 / runs).toFixed(1);

// Self time per node: each sample's time delta goes to the node sampled.
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]!;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const callers = new Map<string, Map<string, number>>();
for (const [id, us] of selfUs) {
  const name = label(id);
  self.set(name, (self.get(name) ?? 0) + us);
  const chain: string[] = [];
  for (let p = parent.get(id); p !== undefined && chain.length < 3; p = parent.get(p)) chain.push(label(p));
  const byCaller = callers.get(name) ?? new Map<string, number>();
  byCaller.set(chain.join(' < '), (byCaller.get(chain.join(' < ')) ?? 0) + us);
  callers.set(name, byCaller);
  const seen = new Set<string>();
  for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
    const n = label(p);
    if (seen.has(n)) continue;
    seen.add(n);
    inclusive.set(n, (inclusive.get(n) ?? 0) + us);
  }
}
const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);

console.log(`sampled ${msPerAnalysis(total)} ms per analysis (main thread, ${runs} analyses)`);
console.log('\n| function (self time) | ms per analysis | share | main callers (ms) |\n|---|---|---|---|');
for (const [name, us] of sorted(self).slice(0, top)) {
  const from = sorted(callers.get(name)!)
    .slice(0, 2)
    .map(([c, u]) => `${c || '(root)'} (${msPerAnalysis(u)})`)
    .join('; ');
  console.log(`| ${name} | ${msPerAnalysis(us)} | ${((100 * us) / total).toFixed(1)}% | ${from} |`);
}
console.log('\n| function (inclusive time) | ms per analysis |\n|---|---|');
for (const [name, us] of sorted(inclusive).slice(0, top)) console.log(`| ${name} | ${msPerAnalysis(us)} |`);
