import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@idv/store/local';
import { afterAll, describe, expect, it } from 'vitest';
import { documentPhoto } from '../support/documents.ts';
import { downUrl, startReceiver, waitFor } from '../webhooks/support.ts';
import {
  type ServiceProcess,
  signalGroup,
  startService,
  survivors,
  waitForNoSurvivors,
} from './support/service-process.ts';

/**
 * `npm start` killed and restarted. Webhook deliveries across real restarts of `npm start` (the local queue lives in memory, so a
 * restart loses every delayed message; the table must bring them back): the whole process group
 * killed with `kill -9`, then stopped with Ctrl-C, with deliveries waiting for their next attempt.
 * Two endpoints: one answers 500 until the last restart, then 200 (every event must arrive,
 * none twice); one where nothing ever listens (every delivery must end `failed` after 8 attempts).
 *
 * About six minutes expected idle (three starts, model warm-up included, the 4-minute schedule):
 * `npm run test:reliability` runs it
 * (IDV_RESTART_TEST=1); plain `npm test` skips it. The retry minute is scaled to 2 s
 * (WEBHOOKS_RETRY_MINUTE_MS=2000), so the whole schedule is about 4 min.
 */
const RUN = process.env.IDV_RESTART_TEST === '1';
// Long enough that no delivery spends its 8 attempts (127 retry minutes: 254 s)
// before the receiver comes back, on a busy machine too; short enough to end in minutes.
const MINUTE_MS = 2_000;
const VERIFICATIONS = 3;
const began = Date.now();
/** Progress on the console: on a loaded machine a step can take minutes. */
const step = (what: string) =>
  console.log(`restart test, ${Math.round((Date.now() - began) / 1000)} s: ${what}`);

interface Delivery {
  id: string;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status_code: number | null;
  next_attempt_at: string | null;
}

describe.runIf(RUN)('npm start restarted with webhook deliveries pending', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-restart-'));
  const services: ServiceProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    // A failed assertion must not leave a service (and its Java) running.
    for (const service of services) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        signalGroup(service, 'SIGKILL');
        await service.exited;
      }
    }
    await Promise.all(closers.map((close) => close()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('kill -9 then Ctrl-C: every event arrives once, the dead endpoint ends failed at 8 attempts, nothing stuck', async () => {
    const env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      WEBHOOKS_RETRY_MINUTE_MS: String(MINUTE_MS),
    };
    let receiverUp = false;
    const answers: ('ok' | 'error')[] = []; // what the receiver answered to its n-th request
    const flaky = await startReceiver((n) => {
      answers[n - 1] = receiverUp ? 'ok' : 'error';
      return answers[n - 1] ?? 'error';
    });
    closers.push(flaky.close);
    const deadUrl = await downUrl();

    const start = async () => {
      const service = startService(env);
      services.push(service);
      await service.ready;
      return service;
    };

    // --- First run: endpoints, verifications, deliveries failing and waiting. ---
    const first = await start();
    step('first start ready');
    const credentials = JSON.parse(readFileSync(join(dataDir, 'local.json'), 'utf8'));
    const call = async (
      method: string,
      path: string,
      body?: BodyInit,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(`${credentials.base_url}${path}`, {
        method,
        body,
        headers: { authorization: `Bearer ${credentials.test_key}`, ...headers },
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
    };
    const endpoint = async (url: string) => {
      const created = await call('POST', '/v1/webhooks', JSON.stringify({ url }), {
        'content-type': 'application/json',
      });
      expect(created.status).toBe(201);
      return created.body.id as string;
    };
    const flakyId = await endpoint(flaky.url);
    const deadId = await endpoint(deadUrl);
    const deliveries = async (endpointId: string): Promise<Delivery[]> => {
      const listed = await call('GET', `/v1/webhooks/${endpointId}/deliveries`);
      expect(listed.status).toBe(200);
      return listed.body.data;
    };
    // Two list calls per poll every 2 s stay far under the key's 120 calls per minute.
    const poll = async (
      what: string,
      ok: (flaky: Delivery[], dead: Delivery[]) => boolean,
      timeoutMs: number,
    ) => {
      let last: [Delivery[], Delivery[]] = [[], []];
      try {
        await waitFor(
          what,
          async () => {
            await new Promise((r) => setTimeout(r, 2_000));
            last = [await deliveries(flakyId), await deliveries(deadId)];
            return ok(...last);
          },
          timeoutMs,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`);
      }
      return last;
    };

    const photo = await documentPhoto('passport');
    // All at once, so that the events are close in time (the schedule must outlast the gap
    // between the first and the last), retried as a client honouring 503 + retry-after would.
    const verified = await Promise.all(
      Array.from({ length: VERIFICATIONS }, async (_, i) => {
        for (let tries = 1; ; tries++) {
          const form = new FormData();
          form.append('front', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'front.jpg');
          const res = await call('POST', '/v1/verify', form, { 'idempotency-key': `restart-${i}` });
          if (res.status === 503 && tries < 20) {
            await new Promise((r) => setTimeout(r, Number(res.retryAfter ?? 5) * 1000));
            continue;
          }
          expect(res.status).toBe(200);
          return res.body.id as string;
        }
      }),
    );
    step('verifications done');
    const allRetrying = (list: Delivery[]) =>
      list.length === VERIFICATIONS && list.every((d) => d.status === 'pending' && d.attempts >= 2);
    const [atKill] = await poll(
      'every delivery failed twice and waiting',
      (f, d) => allRetrying(f) && allRetrying(d),
      120_000,
    );
    const requestsBeforeKill = flaky.requests.length;
    expect(requestsBeforeKill).toBeGreaterThanOrEqual(2 * VERIFICATIONS);

    step('deliveries waiting; kill -9 of the group');
    // kill -9 of the whole group: npm, tsx, the service and DynamoDB Local's Java.
    signalGroup(first, 'SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await waitForNoSurvivors(first, dataDir)).toEqual([]);

    // --- Second run: the retries resume from the table, then Ctrl-C with them pending again. ---
    const second = await start();
    step('second start ready');
    const attemptsAtKill = new Map(atKill.map((d) => [d.id, d.attempts]));
    const [atInterrupt] = await poll(
      'the retries resumed after kill -9',
      (f) =>
        f.length === VERIFICATIONS &&
        f.every((d) => d.status === 'pending' && d.attempts > (attemptsAtKill.get(d.id) ?? 8)),
      400_000,
    );
    expect(flaky.requests.length).toBeGreaterThan(requestsBeforeKill);

    step('retries resumed; Ctrl-C');
    // Ctrl-C: the terminal sends SIGINT to the whole foreground group.
    signalGroup(second, 'SIGINT');
    await second.exited;
    expect(second.output()).toContain('Stopping…');
    expect(await waitForNoSurvivors(second, dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'start.lock'))).toBe(false);

    // --- Third run: the receiver is back; everything must reach its end. ---
    receiverUp = true;
    const third = await start();
    step('third start ready, receiver up');
    const attemptsAtInterrupt = new Map(atInterrupt.map((d) => [d.id, d.attempts]));
    const [flakyEnd, deadEnd] = await poll(
      'every delivery finished',
      (f, d) =>
        f.length === VERIFICATIONS &&
        f.every((x) => x.status === 'succeeded') &&
        d.length === VERIFICATIONS &&
        d.every((x) => x.status === 'failed'),
      600_000,
    );

    // Every event arrived, each exactly once (by delivery id and by verification id).
    expect(flakyEnd.every((d) => d.attempts > (attemptsAtInterrupt.get(d.id) ?? 8))).toBe(true);
    const answeredOk = flaky.requests.filter((_, i) => answers[i] === 'ok');
    expect(answeredOk.map((r) => r.headers['service-delivery']).sort()).toEqual(
      flakyEnd.map((d) => d.id).sort(),
    );
    expect(answeredOk.map((r) => JSON.parse(r.body).data.id).sort()).toEqual([...verified].sort());
    for (const d of flakyEnd) {
      expect(d.last_status_code).toBe(200);
      expect(d.next_attempt_at).toBeNull();
      // Each recorded attempt was sent at most once (an attempt claimed by a killed worker
      // before it sent anything is recorded as failed without a request).
      const sent = flaky.requests.filter((r) => r.headers['service-delivery'] === d.id).length;
      expect(sent).toBeLessThanOrEqual(d.attempts);
      expect(sent).toBeGreaterThan(attemptsAtInterrupt.get(d.id) ?? 8);
    }

    // The dead endpoint: every delivery spent its 8 attempts and says so; none left pending.
    for (const d of deadEnd) {
      expect(d).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
    }
    expect(new Set(deadEnd.map((d) => d.event_id))).toEqual(new Set(flakyEnd.map((d) => d.event_id)));

    // The figures docs/reliability.md quotes.
    const attemptsOf = (list: Delivery[]) => list.map((d) => d.attempts).join('/');
    console.log(
      `restart: ${VERIFICATIONS} events × 2 endpoints; attempts at kill -9 ${attemptsOf(atKill)}, at Ctrl-C ${attemptsOf(atInterrupt)}, ` +
        `at the end ${attemptsOf(flakyEnd)} (succeeded) and ${attemptsOf(deadEnd)} (failed); ` +
        `${flaky.requests.length} requests received, ${answeredOk.length} answered 200, one per event; 0 lost, 0 twice`,
    );

    signalGroup(third, 'SIGINT');
    await third.exited;
    expect(survivors(third, dataDir)).toEqual([]);
  }, 1_200_000);

  it('kill -9 of the service process alone: its Java outlives it, and the next start ends it', async () => {
    const ownDir = mkdtempSync(join(tmpdir(), 'idv-orphan-'));
    closers.push(async () => rmSync(ownDir, { recursive: true, force: true }));
    const env = { DATA_DIR: ownDir, PORT: String(await freePort()) };
    const first = startService(env);
    services.push(first);
    await first.ready;
    const servicePid = Number(readFileSync(join(ownDir, 'start.lock'), 'utf8'));
    const java = survivors(first, ownDir).find((p) => p.cmdline.includes('DynamoDBLocal'));
    expect(java).toBeDefined();

    // Only the service: no exit handler runs, so nothing stops DynamoDB Local.
    process.kill(servicePid, 'SIGKILL');
    await first.exited; // npm and tsx follow their child
    const left = await waitForNoSurvivors(first, ownDir, 2_000);
    expect(left.map((p) => p.pid)).toEqual([java?.pid]);

    const second = startService(env);
    services.push(second);
    await second.ready;
    expect(second.output()).toContain(`Ended DynamoDB Local (process ${java?.pid})`);
    expect(survivors(second, ownDir).some((p) => p.pid === java?.pid)).toBe(false);
    const credentials = JSON.parse(readFileSync(join(ownDir, 'local.json'), 'utf8'));
    const res = await fetch(`${credentials.base_url}/v1/logs`, {
      headers: { authorization: `Bearer ${credentials.test_key}` },
    });
    expect(res.status).toBe(200); // the same data, the same keys

    signalGroup(second, 'SIGINT');
    await second.exited;
    expect(await waitForNoSurvivors(second, ownDir)).toEqual([]);
  }, 300_000);
});
