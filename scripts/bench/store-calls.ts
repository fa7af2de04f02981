import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { createStore } from '@idv/store';
import { startLocalServers } from '@idv/store/local';
import { dynamoDbLocalPid, processCpuMs } from './process-cpu.ts';

/**
 * `npm run bench -- store-calls`: what one DynamoDB call of the read path costs against the
 * local stack, in CPU time (DynamoDB Local's Java, and this process: the SDK's work), round
 * after round of the same calls, so that the cold start of DynamoDB Local's JIT shows.
 * STORE_CALLS (default 600) calls per round, 8 at a time, 5 rounds.
 */
export async function benchStoreCalls(): Promise<void> {
  const perRound = Number(process.env.STORE_CALLS ?? 600);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const servers = await startLocalServers({ prefix: `idvcalls${Date.now().toString(36)}` });
  const store = createStore({ ...servers.config, imageMasterKey: randomBytes(32).toString('base64') });
  const java = dynamoDbLocalPid(Number(new URL(servers.config.dynamoEndpoint ?? '').port));
  if (!java) throw new Error('DynamoDB Local not found in /proc');
  const { org, app } = await store.organisations.create({
    name: 'Calls',
    appName: 'Calls',
    liveEnabled: true,
  });
  const key = await store.apiKeys.create({ orgId: org.id, appId: app.id, mode: 'test' });
  const logEntry = (i: number) => ({
    id: `req_${i}${randomBytes(6).toString('hex')}`,
    method: 'GET',
    route: '/v1/logs',
    status: 200,
    error_code: null,
    key: key.record.id,
    mode: 'test' as const,
    duration_ms: 3,
    resource_id: null,
    created_at: new Date().toISOString(),
  });
  const calls: [string, (i: number) => Promise<unknown>][] = [
    ['key GetItem (consistent)', () => store.apiKeys.findActiveBySecret(key.secret)],
    ['rate-limit UpdateItem (ADD)', (i) => store.rateLimits.hit(`key#bench${i % 120}`, 120, 60)],
    ['request-log PutItem', (i) => store.requestLogs.record(org.id, logEntry(i))],
    ['logs Query (limit 20)', () => store.requestLogs.list({ orgId: org.id, mode: 'test', limit: 20 })],
  ];
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}\n`,
  );
  console.log(
    '| round | call | DynamoDB Local CPU ms / call | this process CPU ms / call | wall ms / call (8 at a time) |',
  );
  console.log('|---|---|---|---|---|');
  for (let round = 1; round <= 5; round++) {
    for (const [name, call] of calls) {
      const javaBefore = processCpuMs(java);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < perRound) await call(next++);
        }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      const per = (ms: number) => (ms / perRound).toFixed(2);
      console.log(
        `| ${round} | ${name} | ${per(processCpuMs(java) - javaBefore)} | ${per((cpu.user + cpu.system) / 1000)} | ${per(performance.now() - started)} |`,
      );
    }
  }
  console.log(
    `\nload average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  await servers.stop();
}
