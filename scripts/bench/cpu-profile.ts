import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { analyzeImages, warmUpAnalyzer } from '@idv/vision';
import { documentPhoto, HOLDER, matchingSelfie } from '../../test/support/documents.ts';

/**
 * A V8 CPU profile of one passport (zone in OCR-B) + selfie analysis, repeated in-process, to
 * find the JavaScript between model runs (crops, resizes, normalisation, alignment, tamper).
 * Only the analyses are profiled (not the module loading, the documents' drawing or the warm-up):
 *
 *   nice -n 10 npx tsx scripts/bench/cpu-profile.ts /tmp/passport.cpuprofile
 *   npx tsx scripts/bench/cpu-profile-summary.ts /tmp/passport.cpuprofile
 *
 * The same documents as `npm run bench -- profile`. CPU_PROFILE_RUNS analyses (default 20).
 */
const out = process.argv[2] ?? 'passport.cpuprofile';
const runs = Number(process.env.CPU_PROFILE_RUNS ?? 20);
await warmUpAnalyzer();
const images = {
  front: { bytes: await documentPhoto('passport', HOLDER, { mrzFont: 'ocr-b' }) },
  selfie: { bytes: await matchingSelfie() },
};
const analyze = async () => {
  const outcome = await analyzeImages({ images });
  if (outcome.kind !== 'observations') throw new Error(`analysis refused (${outcome.code})`);
};
// Two analyses before the profile: the JIT and the analyzer's caches warm, as in the bench.
for (let i = 0; i < 2; i++) await analyze();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const c0 = process.cpuUsage();
for (let i = 0; i < runs; i++) await analyze();
const c = process.cpuUsage(c0);
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
console.log(
  `${runs} analyses, CPU ms per analysis (all threads): ${((c.user + c.system) / 1000 / runs).toFixed(0)}; profile in ${out}`,
);
process.exit(0);
