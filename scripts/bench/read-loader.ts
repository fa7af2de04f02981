import { Agent, request } from 'node:http';

/**
 * The open-loop load generator of `npm run bench -- load`, run as a process of its own so that
 * its timers and sockets never share the served API's event loop (as autocannon would not).
 * Reads its plan as JSON on stdin, prints its result as one JSON line on stdout.
 *
 * Request i is scheduled at start + i / rate and its latency counts from that scheduled time,
 * so a slow server cannot slow the generator down and hide its own queueing.
 */
export interface LoadPlan {
  base: string;
  rate: number;
  seconds: number;
  /** Request i uses requests[i % requests.length]. */
  requests: { path: string; key: string }[];
}

export interface LoadResult {
  latencies: number[];
  statuses: Record<string, number>;
  elapsedMs: number;
  /** This process's own CPU time (user + system), ms. */
  cpuMs: number;
}

async function run(plan: LoadPlan): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const total = plan.rate * plan.seconds;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduled = start + (i * 1000) / plan.rate;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const target = plan.requests[i % plan.requests.length];
    if (!target) break;
    pending.push(
      new Promise<void>((resolve) => {
        const req = request(
          `${plan.base}${target.path}`,
          { agent, headers: { authorization: `Bearer ${target.key}` }, timeout: 60_000 },
          (res) => {
            res.resume();
            res.on('end', () => {
              latencies.push(performance.now() - scheduled);
              const status = String(res.statusCode ?? 0);
              statuses[status] = (statuses[status] ?? 0) + 1;
              resolve();
            });
          },
        );
        req.on('error', () => {
          statuses['0'] = (statuses['0'] ?? 0) + 1;
          resolve();
        });
        req.end();
      }),
    );
  }
  await Promise.all(pending);
  const elapsedMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return { latencies, statuses, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const plan = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadPlan;
process.stdout.write(`${JSON.stringify(await run(plan))}\n`);
