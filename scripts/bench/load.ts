import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createApp } from '@idv/api';
import { startNodeServer } from '@idv/api/node-server';
import { billingMonth, createStore, type Store } from '@idv/store';
import { startLocalServers } from '@idv/store/local';
import { analyzeImages, createWorkerAnalyzer, warmUpAnalyzer } from '@idv/vision';
import { documentPhoto } from '../../test/support/documents.ts';
import { dynamoDbLocalPid, processCpuMs } from './process-cpu.ts';
import type { LoadPlan, LoadResult } from './read-loader.ts';

/**
 * `npm run bench -- load`: the service under load over real HTTP on loopback, against the local
 * stack, with the real analyzer. Two figures:
 *  1. N verifications sent at once (default 50): how many completed, how many were refused
 *     with 503 + retry-after, how many were lost (no answer, another 5xx, or a 200 without its
 *     stored verification and billing count, or a refusal that left one); p50/p95.
 *  2. The read routes at a fixed rate (default 200 requests/s for 10 s) across many keys: p50,
 *     p95, p99 measured from each request's scheduled start (no coordinated omission), errors.
 * LOAD_VERIFICATIONS, LOAD_RATE and LOAD_SECONDS change the sizes (LOAD_VERIFICATIONS=0: reads only;
 * LOAD_WARMUP_SECONDS, default 10, the unmeasured warm-up at half the rate). The machine's load average
 * is printed with the figures: on a shared machine they are an upper bound.
 */
export async function benchLoad(): Promise<void> {
  const inFlight = Number(process.env.LOAD_VERIFICATIONS ?? 50);
  const rate = Number(process.env.LOAD_RATE ?? 200);
  const seconds = Number(process.env.LOAD_SECONDS ?? 10);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const servers = await startLocalServers({ prefix: `idvload${Date.now().toString(36)}` });
  const store = createStore({ ...servers.config, imageMasterKey: randomBytes(32).toString('base64') });
  const { org, app: application } = await store.organisations.create({
    name: 'Load',
    appName: 'Load',
    liveEnabled: true,
  });
  // Many keys, each under the spec's 120 calls per minute, as many customers would be.
  const keyCount = Math.max(inFlight, Math.ceil((rate * 60) / 100));
  const keys: { test: string; live: string }[] = [];
  for (let i = 0; i < keyCount; i++) {
    const test = await store.apiKeys.create({ orgId: org.id, appId: application.id, mode: 'test' });
    const live = await store.apiKeys.create({ orgId: org.id, appId: application.id, mode: 'live' });
    keys.push({ test: test.secret, live: live.secret });
  }
  // As `npm start` runs it: the analysis on worker threads, so the reads' HTTP thread is free.
  const workers = process.env.BENCH_ANALYZER === 'in-process' ? null : createWorkerAnalyzer();
  if (workers) await workers.ready();
  else await warmUpAnalyzer();
  const app = createApp({
    store,
    baseUrl: 'http://127.0.0.1',
    analyzer: workers ?? { analyze: analyzeImages },
    urlSigningKey: randomBytes(32),
  });
  const server = startNodeServer({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ', ',
      )} (${keyCount} key pairs; analysis ${workers ? `on ${workers.threads.length} worker threads, BENCH_ANALYZER=in-process for the HTTP thread` : 'on the HTTP thread'})`,
  );

  if (inFlight > 0) await verificationsInFlight(base, store, org.id, keys, inFlight);
  await readsAtRate(
    base,
    store,
    org.id,
    keys,
    rate,
    seconds,
    Number(new URL(servers.config.dynamoEndpoint ?? '').port),
  );

  console.log(
    `\nload average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  server.closeAllConnections();
  server.close();
  await workers?.close();
  await servers.stop();
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN);
}

async function verificationsInFlight(
  base: string,
  store: Store,
  orgId: string,
  keys: { live: string }[],
  count: number,
): Promise<void> {
  const photo = await documentPhoto('passport');
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const form = new FormData();
      form.append('front', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'front.jpg');
      const t = performance.now();
      try {
        const res = await fetch(`${base}/v1/verify`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${keys[i]?.live}`, 'idempotency-key': `load-${i}` },
          signal: AbortSignal.timeout(300_000),
        });
        const body = (await res.json()) as { id?: string; error?: { code: string } };
        return {
          status: res.status,
          ms: performance.now() - t,
          id: body.id,
          code: body.error?.code,
          retryAfter: res.headers.get('retry-after'),
        };
      } catch (error) {
        return { status: 0, ms: performance.now() - t, code: String((error as Error).name) };
      }
    }),
  );
  const wall = performance.now() - started;
  const completed = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 503 && Number(r.retryAfter) >= 1);
  const unanswered = results.filter((r) => r.status === 0);
  const other = results.filter((r) => r.status !== 200 && r.status !== 0 && !refused.includes(r));
  // A request the client gave up on may still finish on the server: wait until the stored
  // count stops moving (the analyses still running end) before counting what was kept.
  const counts = async () => {
    const listed = await store.verifications.list(orgId, 'live', 100);
    const ids = new Set(listed.ok ? listed.page.data.map((v) => v.verification.id) : []);
    const usage = await store.usage.get(orgId, billingMonth(new Date()));
    return { ids, billed: usage.live_verifications };
  };
  let kept = await counts();
  for (let stable = 0, waited = 0; stable < 3 && unanswered.length > 0 && waited < 600; waited += 10) {
    await new Promise((r) => setTimeout(r, 10_000));
    const next = await counts();
    stable = next.ids.size === kept.ids.size ? stable + 1 : 0;
    kept = next;
  }
  // Nothing lost: every 200 is stored and billed once; no refusal left a verification behind;
  // a request the client gave up on is counted only if it left a verification nobody was told of.
  const missing = completed.filter((r) => !r.id || !kept.ids.has(r.id)).length;
  const untold = kept.ids.size - (completed.length - missing);
  const lost = other.length + missing + Math.max(0, untold) + Math.abs(kept.billed - kept.ids.size);
  const times = completed.map((r) => r.ms).sort((a, b) => a - b);
  const codes = [...new Set(other.map((r) => `${r.status} ${r.code}`))].join(', ') || 'none';
  console.log(`\n### ${count} verifications in flight (POST /v1/verify, passport, live keys)\n`);
  console.log(
    '| sent | completed (200) | refused (503 + retry-after) | unanswered in 300 s | other errors | lost | p50 ms | p95 ms | wall s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${count} | ${completed.length} | ${refused.length} | ${unanswered.length} | ${other.length} (${codes}) | ${lost} | ${percentile(times, 0.5)} | ${percentile(times, 0.95)} | ${(wall / 1000).toFixed(1)} |`,
  );
  console.log(
    `stored once settled: ${kept.ids.size} verifications, billed: ${kept.billed} (of which ${Math.max(0, untold)} from requests the client gave up on)`,
  );
}

async function readsAtRate(
  base: string,
  store: Store,
  orgId: string,
  keys: { test: string; live: string }[],
  rate: number,
  seconds: number,
  dynamoPort: number,
): Promise<void> {
  // Something to read: the live verification made above, if any (with a live key: a test key
  // would be told "not found"); every fourth request reads it, the others read lists.
  const listed = await store.verifications.list(orgId, 'live', 1);
  const liveId = listed.ok ? listed.page.data[0]?.verification.id : undefined;
  const paths = ['/v1/verifications?limit=20', '/v1/webhooks', '/v1/logs?limit=20'];
  const requests = Array.from({ length: keys.length * 4 }, (_, i) => {
    const one = liveId !== undefined && i % 4 === 3;
    const pair = keys[i % keys.length];
    return {
      path: one ? `/v1/verifications/${liveId}` : (paths[i % paths.length] ?? '/'),
      key: (one ? pair?.live : pair?.test) ?? '',
    };
  });
  const plan: LoadPlan = { base, rate, seconds, requests };
  // Warm-up, not measured: DynamoDB Local's Java and V8 compile their hot paths during the
  // first thousands of calls; a service in use is past that, and so is the figure.
  const warmUpSeconds = Number(process.env.LOAD_WARMUP_SECONDS ?? 10);
  if (warmUpSeconds > 0) {
    const warm = await runLoader({ ...plan, rate: Math.ceil(rate / 2), seconds: warmUpSeconds });
    const n = Object.values(warm.statuses).reduce((a, b) => a + b, 0);
    console.log(
      `\nwarm-up: ${n} reads at ${Math.ceil(rate / 2)} requests/s for ${warmUpSeconds} s (not measured; statuses ${JSON.stringify(warm.statuses)})`,
    );
  }
  // CPU time spent by each side while the load runs: this process (the API, fauxqs, the SDK
  // clients), DynamoDB Local's Java, and the load generator (its own process). On a shared
  // machine the CPU per request is a steadier figure than the latency.
  const java = dynamoDbLocalPid(dynamoPort);
  const apiBefore = process.cpuUsage();
  const javaBefore = java ? processCpuMs(java) : Number.NaN;
  const result = await runLoader(plan);
  const api = process.cpuUsage(apiBefore);
  const apiCpuMs = (api.user + api.system) / 1000;
  const javaCpuMs = java ? processCpuMs(java) - javaBefore : Number.NaN;
  const total = rate * seconds;
  const latencies = result.latencies.sort((a, b) => a - b);
  const ok = (result.statuses['200'] ?? 0) + (result.statuses['404'] ?? 0);
  const perRequest = (ms: number) => (ms / total).toFixed(2);
  console.log(`\n### Reads at ${rate} requests/s for ${seconds} s across ${keys.length} keys\n`);
  console.log(
    '(GET /v1/verifications, /v1/webhooks, /v1/logs, /v1/verifications/{id}; latency from the scheduled start; load generated by a separate process)\n',
  );
  console.log('| requests | achieved req/s | statuses | p50 ms | p95 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| ${total} | ${(total / (result.elapsedMs / 1000)).toFixed(0)} | ${JSON.stringify(result.statuses)} | ${percentile(latencies, 0.5)} | ${percentile(latencies, 0.95)} | ${percentile(latencies, 0.99)} | ${Math.round(latencies.at(-1) ?? 0)} |`,
  );
  console.log(
    `\nCPU per request: API process ${perRequest(apiCpuMs)} ms, DynamoDB Local ${perRequest(javaCpuMs)} ms, load generator ${perRequest(result.cpuMs)} ms (CPU time over the run / requests; 2 cores = 2 000 ms per second)`,
  );
  if (ok !== total) console.log(`errors: ${total - ok} of ${total}`);
}

/** Runs scripts/bench/read-loader.ts in a process of its own and returns what it measured. */
async function runLoader(plan: LoadPlan): Promise<LoadResult> {
  const loader = fileURLToPath(new URL('./read-loader.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', loader], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stdin.end(JSON.stringify(plan));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as LoadResult;
}
