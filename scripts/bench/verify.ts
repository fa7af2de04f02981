import { randomBytes } from 'node:crypto';
import { createApp } from '@idv/api';
import { startNodeServer } from '@idv/api/node-server';
import { createStore } from '@idv/store';
import { startLocalServers } from '@idv/store/local';
import { analyzeImages, warmUpAnalyzer } from '@idv/vision';
import { documentPhoto, HOLDER, matchingSelfie } from '../../test/support/documents.ts';

/**
 * Latency of POST /v1/verify over real HTTP, warm (models loaded, first calls discarded),
 * against the local stack: passport + selfie, and card front + back + selfie.
 */
export async function benchVerify(runs = 10): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const servers = await startLocalServers({ prefix: `idvbench${Date.now().toString(36)}` });
  const store = createStore({ ...servers.config, imageMasterKey: randomBytes(32).toString('base64') });
  const { org, app: application } = await store.organisations.create({
    name: 'Bench',
    appName: 'Bench',
    liveEnabled: true,
  });
  const key = (await store.apiKeys.create({ orgId: org.id, appId: application.id, mode: 'test' })).secret;
  await warmUpAnalyzer();
  const app = createApp({
    store,
    baseUrl: 'http://127.0.0.1',
    analyzer: { analyze: analyzeImages },
    urlSigningKey: randomBytes(32),
    limits: { perKeyPerMinute: 100_000 },
  });
  const server = startNodeServer({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/verify`;

  const holder = { ...HOLDER, number: '12345678901234567' };
  const cases: [string, Record<string, Uint8Array>][] = [
    ['passport + selfie', { front: await documentPhoto('passport'), selfie: await matchingSelfie() }],
    [
      'card front + back + selfie',
      {
        front: await documentPhoto('cni_front', holder),
        back: await documentPhoto('cni_back', holder),
        selfie: await matchingSelfie(),
      },
    ],
  ];
  console.log(`| request | runs | median ms | p95 ms | verdict |\n|---|---|---|---|---|`);
  for (const [name, parts] of cases) {
    const times: number[] = [];
    let verdict = '';
    for (let i = 0; i < runs + 2; i++) {
      const form = new FormData();
      for (const [part, bytes] of Object.entries(parts))
        form.append(part, new Blob([new Uint8Array(bytes)]), `${part}.jpg`);
      const t = performance.now();
      const res = await fetch(url, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${key}` },
      });
      const body = await res.json();
      if (i >= 2) times.push(performance.now() - t); // the first two calls warm caches and JIT
      verdict = res.ok ? body.verdict : body.error.code;
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!);
    console.log(`| ${name} | ${runs} | ${at(0.5)} | ${at(0.95)} | ${verdict} |`);
  }
  server.close();
  await servers.stop();
}
