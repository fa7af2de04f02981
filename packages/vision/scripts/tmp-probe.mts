import { readFile } from 'node:fs/promises';
import { analyzeUpload } from './eval/corpus/analyze.ts';
for (const f of process.argv.slice(2)) {
  const m: Record<string, number> = {};
  const { signals } = await analyzeUpload(new Uint8Array(await readFile(f)), 'td1' as any, m);
  console.log(f.split('/').pop(), 'p', m['front.portrait_swap']?.toFixed(3), 'seam', m['front.seam']?.toFixed(3), signals.map((s) => `${s.type}:${s.severity}`).join(','));
}
