import { randomBytes } from 'node:crypto';
import { createApp } from '@idv/api';
import { startNodeServer } from '@idv/api/node-server';
import { createStore } from '@idv/store';
import { startLocalServers } from '@idv/store/local';
import { analyzeImages, createWorkerAnalyzer, warmUpAnalyzer } from '@idv/vision';
import { documentPhoto, HOLDER, matchingSelfie } from '../../test/support/documents.ts';
import { figure, load, median, quantile } from './figures.ts';
import { describeResident, residentMemory } from './resident-memory.ts';

/**
 * POST /v1/verify over real HTTP against the local stack, warm (models loaded, every worker
 * given each case twice, first calls discarded): passport + selfie and card front + back + selfie one at a time, then four clients
 * at once (throughput, latency, errors), with the process's resident memory after warm-up and
 * its peak under the four clients. The time outside the analysis (HTTP, S3, DynamoDB) is the
 * response's total_ms − analysis_ms. The analysis runs on the worker-thread pool as `npm start`
 * runs it; BENCH_ANALYZER=in-process runs it on the HTTP thread instead (the A/B of issue 17).
 * CPU per verification is the process's (every thread), so a loaded machine shows in the wall
 * times, not in it. The resident memory is also broken down by kind (resident-memory.ts) at each
 * stage: the local stack and the HTTP app alone (what the analyzer Lambda does not hold), the
 * analysis workers ready, after the single-client runs, after the four clients.
 */
export async function benchVerify(runs = 10, concurrentRequests = 24): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const servers = await startLocalServers({ prefix: `idvbench${Date.now().toString(36)}` });
  const store = createStore({ ...servers.config, imageMasterKey: randomBytes(32).toString('base64') });
  const { org, app: application } = await store.organisations.create({
    name: 'Bench',
    appName: 'Bench',
    liveEnabled: true,
  });
  const key = (await store.apiKeys.create({ orgId: org.id, appId: application.id, mode: 'test' })).secret;
  const stages: [string, string][] = [
    ['the local stack, the store and the code loaded, no model', describeResident(residentMemory())],
  ];
  const inProcess = process.env.BENCH_ANALYZER === 'in-process';
  const workers = inProcess ? null : createWorkerAnalyzer({ taskTimeoutMs: 600_000 });
  if (workers) await workers.ready();
  else await warmUpAnalyzer();
  stages.push(['the analyzer ready (models loaded)', describeResident(residentMemory())]);
  console.log(
    workers
      ? `analysis on ${workers.threads.length} worker threads (BENCH_ANALYZER=in-process for the HTTP thread)\n`
      : 'analysis on the HTTP thread (BENCH_ANALYZER=in-process)\n',
  );
  // glibc reads it once, when the process starts (package.json's bench script sets it).
  console.log(`MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '(unset: 8 heaps per core)'}\n`);
  const app = createApp({
    store,
    baseUrl: 'http://127.0.0.1',
    analyzer: workers ?? { analyze: analyzeImages },
    urlSigningKey: randomBytes(32),
    limits: { perKeyPerMinute: 100_000 },
    // A shared, loaded machine can stretch one analysis past the service's 45 s: the bench
    // measures, it does not give up.
    analysisTimeoutMs: 600_000,
  });
  const server = startNodeServer({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/verify`;

  const holder = { ...HOLDER, number: '12345678901234567' };
  // The documents print their zone in OCR-B, the ICAO font every real MRZ is printed in (and the
  // one the MRZ model was trained on). Figures before 2026-11-26 were measured on a zone drawn in
  // DejaVu Sans Mono, which the model misreads (G for 6) so that the reading cascade always fell
  // back to its costly vote: the last case keeps that document, to compare with those figures.
  const ocrb = { mrzFont: 'ocr-b' } as const;
  const cases: [string, string, Record<string, Uint8Array>][] = [
    [
      'passport',
      'passport + selfie',
      { front: await documentPhoto('passport', HOLDER, ocrb), selfie: await matchingSelfie() },
    ],
    [
      'card',
      'card front + back + selfie',
      {
        front: await documentPhoto('cni_front', holder, ocrb),
        back: await documentPhoto('cni_back', holder, ocrb),
        selfie: await matchingSelfie(),
      },
    ],
    [
      'passport_dejavu',
      'passport (zone in DejaVu, as before 2026-11-26) + selfie',
      { front: await documentPhoto('passport'), selfie: await matchingSelfie() },
    ],
  ];
  const call = async (parts: Record<string, Uint8Array>) => {
    const form = new FormData();
    for (const [part, bytes] of Object.entries(parts))
      form.append(part, new Blob([new Uint8Array(bytes)]), `${part}.jpg`);
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
    const body = await res.json();
    const ms = performance.now() - t;
    const outside = res.ok ? body.timings.total_ms - body.timings.analysis_ms : Number.NaN;
    return {
      ok: res.ok,
      ms,
      outside,
      verdict: res.ok ? (body.verdict as string) : (body.error.code as string),
    };
  };

  // Every worker warm before any figure (JIT, the arena's buffers, first runs of each shape): one
  // request per worker at once, of each case, twice. Calls one after the other would all go to
  // the first worker, and the second would warm up inside the four clients' figures.
  const warmers = workers?.threads.length ?? 1;
  for (let i = 0; i < 2; i++)
    for (const [, , parts] of cases) await Promise.all(Array.from({ length: warmers }, () => call(parts)));

  console.log(
    '| request | runs | median ms | p95 ms | outside the analysis ms | CPU ms per request | verdict | load |\n|---|---|---|---|---|---|---|---|',
  );
  for (const [caseKey, name, parts] of cases) {
    const times: number[] = [];
    const outside: number[] = [];
    const cpu: number[] = [];
    let verdict = '';
    for (let i = 0; i < runs + 2; i++) {
      const cpuBefore = cpuMs();
      const r = await call(parts);
      verdict = r.verdict;
      if (i < 2) continue; // the first two calls of each case settle caches
      times.push(r.ms);
      outside.push(r.outside);
      cpu.push(cpuMs() - cpuBefore);
    }
    console.log(
      `| ${name} | ${runs} | ${figure(`verify.${caseKey}.median_ms`, median(times))} | ${figure(`verify.${caseKey}.p95_ms`, quantile(times, 0.95))} | ${figure(`verify.${caseKey}.outside_ms`, median(outside))} | ${figure(`verify.${caseKey}.cpu_ms`, median(cpu))} | ${verdict} | ${load()} |`,
    );
  }

  // Four clients, each sending passport + selfie until `concurrentRequests` have been answered.
  const rssWarm = process.memoryUsage().rss / 2 ** 20;
  stages.push(['after the single-client runs', describeResident(residentMemory())]);
  let rssPeak = rssWarm;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss / 2 ** 20);
  }, 50);
  const parts = cases[0]![2];
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  let sent = 0;
  const loadBefore = load();
  const cpuBefore = cpuMs();
  // A light read every 250 ms meanwhile: how long the HTTP thread keeps a caller waiting while
  // analyses run (on the HTTP thread in process, on the workers otherwise).
  const readLatencies: number[] = [];
  const readUrl = url.replace(/\/v1\/verify$/, '/v1/verifications?limit=1');
  const reader = setInterval(() => {
    const t = performance.now();
    fetch(readUrl, { headers: { authorization: `Bearer ${key}` } })
      .then((res) => res.arrayBuffer())
      .then(() => readLatencies.push(performance.now() - t))
      .catch(() => {});
  }, 250);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (sent < concurrentRequests) {
        sent++;
        const r = await call(parts);
        if (r.ok) latencies.push(r.ms);
        else errors.set(r.verdict, (errors.get(r.verdict) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  clearInterval(reader);
  const cpuPerVerification = (cpuMs() - cpuBefore) / Math.max(1, latencies.length);
  clearInterval(sampler);
  stages.push(['after the four clients', describeResident(residentMemory())]);
  const errorText = errors.size ? [...errors].map(([c, n]) => `${n} ${c}`).join(', ') : 'none';
  console.log(
    `\nfour clients, ${concurrentRequests} passport + selfie requests (${loadBefore} → ${load()}):\n` +
      `| measure | value |\n|---|---|\n` +
      `| verifications/s | ${figure('verify.four_clients.per_s', latencies.length / seconds, 2)} |\n` +
      `| median latency ms | ${figure('verify.four_clients.median_ms', median(latencies))} |\n` +
      `| p95 latency ms | ${figure('verify.four_clients.p95_ms', quantile(latencies, 0.95))} |\n` +
      `| CPU ms per verification (every thread) | ${figure('verify.four_clients.cpu_ms', cpuPerVerification)} |\n` +
      `| errors | ${errorText} |\n` +
      `| GET /v1/verifications meanwhile (${readLatencies.length}, one per 250 ms): median / p95 / max ms | ${figure('verify.reads_during.median_ms', median(readLatencies))} / ${figure('verify.reads_during.p95_ms', quantile(readLatencies, 0.95))} / ${figure('verify.reads_during.max_ms', Math.max(...readLatencies))} |\n` +
      `| resident MB before the four clients (after the single-client runs) | ${figure('verify.rss_warm_mb', rssWarm)} |\n` +
      `| resident MB, peak under four clients | ${figure('verify.rss_peak_mb', rssPeak)} |`,
  );
  console.log(
    `\nresident MB by kind:\n| stage | rss = files + main heap + thread heaps + other anonymous |\n|---|---|\n${stages.map(([stage, text]) => `| ${stage} | ${text} |`).join('\n')}`,
  );
  server.close();
  await workers?.close();
  await servers.stop();
}

/** CPU time of the whole process (user + system, every thread: workers, ONNX, libvips), ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
