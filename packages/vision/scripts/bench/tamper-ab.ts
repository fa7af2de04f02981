import { pathToFileURL } from 'node:url';
import { detectTamper } from '../../src/tamper/index.ts';
import { generateDocument } from '../synth/index.ts';
import { cpuMs, FIRST_SEED, KINDS, median, tamperInputs } from './tamper-stages.ts';

/**
 * The tamper step of this tree against another copy of the package (an older commit checked
 * out elsewhere), interleaved in one process on the tamper-stages bench's documents: per
 * document, each detector's smallest CPU time over `rounds` runs of each version (the two
 * versions alternate, so both see the same load), then the median over documents. On a shared
 * machine the minimum is what the code costs; a median of runs measures the neighbours too.
 * Also checks that both versions give the same signals on every document, and times the whole
 * step again without the per-detector clock (what the service pays).
 *
 *   npx tsx packages/vision/scripts/bench/tamper-ab.ts <other>/packages/vision [documents] [rounds]
 *
 * The other copy must resolve its packages to this tree's node_modules (a link: one process loads
 * onnxruntime's native binding once), e.g.
 *   git archive <commit> package.json packages training tsconfig.json | tar -x -C /tmp/base
 *   ln -s "$PWD/node_modules" /tmp/base/node_modules
 */

export async function benchTamperAb(other: string, documents = 6, rounds = 5): Promise<void> {
  const versions = {
    this: detectTamper,
    other: (await import(pathToFileURL(`${other}/src/tamper/index.ts`).href))
      .detectTamper as typeof detectTamper,
  };
  console.log(
    `Tamper step, this tree against ${other}: per document the minimum CPU ms over ${rounds} interleaved runs each, median over ${documents} documents per kind\n`,
  );
  for (const [label, kind] of KINDS) {
    const best: Record<keyof typeof versions, Record<string, number>[]> = { this: [], other: [] };
    for (let d = 0; d < documents; d++) {
      const doc = await generateDocument(FIRST_SEED + d, { kind, split: 'tuning', level: 'mild' });
      const { images, context } = await tamperInputs(doc.back ? [doc, doc.back] : [doc]);
      const signals = {
        this: JSON.stringify((await versions.this(images, context)).signals),
        other: JSON.stringify((await versions.other(images, context)).signals),
      };
      if (signals.this !== signals.other)
        console.log(`SIGNALS DIFFER on ${label} ${FIRST_SEED + d}:\n  ${signals.this}\n  ${signals.other}`);
      const docBest = { this: {} as Record<string, number>, other: {} as Record<string, number> };
      for (let r = 0; r < rounds; r++) {
        for (const v of r % 2 ? (['other', 'this'] as const) : (['this', 'other'] as const)) {
          const stageTimes: Record<string, number> = {};
          await versions[v](images, context, { stageTimes, clock: cpuMs });
          const t0 = cpuMs();
          await versions[v](images, context);
          stageTimes['whole step (no per-detector clock)'] = cpuMs() - t0;
          for (const [k, t] of Object.entries(stageTimes))
            docBest[v][k] = Math.min(docBest[v][k] ?? Infinity, t);
        }
      }
      best.this.push(docBest.this);
      best.other.push(docBest.other);
    }
    const names = [...new Set([...best.other, ...best.this].flatMap((s) => Object.keys(s)))];
    console.log(`${label}\n\n| detector | other | this |\n|---|---:|---:|`);
    for (const n of names)
      console.log(
        `| ${n} | ${median(best.other.map((s) => s[n] ?? 0)).toFixed(1)} | ${median(best.this.map((s) => s[n] ?? 0)).toFixed(1)} |`,
      );
    console.log('');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const other = process.argv[2];
  if (!other) throw new Error('usage: tamper-ab.ts <other tree>/packages/vision [documents] [rounds]');
  await benchTamperAb(other, Number(process.argv[3] ?? 6), Number(process.argv[4] ?? 5));
  process.exit(0);
}
