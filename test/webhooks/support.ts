import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { Verification } from '@idv/core';
import { createStore, type Store } from '@idv/store';
import { freePort } from '@idv/store/local';
import { startWebhookWorker, webhookEventPublisher } from '@idv/webhooks';
import { inject } from 'vitest';
import { testStore } from '../support/stack.ts';

/**
 * A store on the shared local stack but with its own events queue and dead-letter queue, so
 * this file's worker never sees another test file's messages (nor they its).
 */
export async function isolatedStore(): Promise<Store> {
  const config = inject('storeConfig');
  const sqs = testStore().clients.sqs;
  const suffix = randomBytes(4).toString('hex');
  const dlq = await sqs.send(
    new CreateQueueCommand({ QueueName: `${config.eventsQueueName}-wh-${suffix}-dlq` }),
  );
  const dlqArn = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: `${config.eventsQueueName}-wh-${suffix}`,
      Attributes: {
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqArn.Attributes?.QueueArn,
          maxReceiveCount: '10',
        }),
        VisibilityTimeout: '60',
      },
    }),
  );
  return createStore({ ...config, eventsQueueUrl: queue.QueueUrl, eventsDeadLetterQueueUrl: dlq.QueueUrl });
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Arrival time, ms since epoch. */
  at: number;
}

/** What the receiver does with its n-th request (1-based). */
export type Behaviour = (n: number) => 'ok' | 'error' | 'hang';

/** A real HTTP receiver on 127.0.0.1 that records every request it gets. */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 'ok'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const action = behaviour(requests.length);
      if (action === 'hang') return; // never answers
      res.writeHead(action === 'ok' ? 200 : 500, { 'content-type': 'text/plain' });
      res.end(action === 'ok' ? 'ok' : 'boom');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks/idv`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL where nothing listens (connection refused). */
/**
 * A whole delivery path for a journey test: an isolated store, a receiver, a worker delivering
 * to it and the event publisher an app needs; `close` stops the worker and the receiver.
 */
export async function startDeliveryPath(behaviour?: Behaviour) {
  const store = await isolatedStore();
  const receiver = await startReceiver(behaviour);
  const worker = startWebhookWorker(store, { allowLocalhost: true });
  return {
    store,
    receiver,
    events: webhookEventPublisher(store),
    close: async () => {
      await worker.stop();
      await receiver.close();
    },
  };
}

export async function downUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/hooks/idv`;
}

/** Polls `probe` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T> | T,
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const noFields = {
  surname: 'DIALLO',
  given_names: 'AMINATA',
  date_of_birth: '1990-04-12',
  sex: 'F',
  nationality: 'NER',
  place_of_birth: 'NIAMEY',
  document_number: 'A1234567',
  date_of_issue: '2021-01-05',
  date_of_expiry: '2031-01-04',
  issuing_authority: null,
};

const explanation = { fr: 'Contrôle réussi.', en: 'Check passed.' };

/** A synthetic Verification as POST /v1/verify returns it (made up for these tests). */
export function sampleVerification(overrides: Partial<Verification> = {}): Verification {
  return {
    id: `vrf_${randomBytes(10).toString('hex')}`,
    verdict: 'review',
    final_verdict: null,
    status: 'REVIEW',
    score: 0.84,
    document_type: 'passport',
    checks: [
      { name: 'mrz_checksum', status: 'pass', score: 1, explanation },
      { name: 'expiry', status: 'pass', score: 1, explanation },
      { name: 'viz_mrz_consistency', status: 'warn', score: 0.6, explanation },
      { name: 'tamper', status: 'pass', score: 1, explanation, details: { anomalies: [] } },
      { name: 'face_match', status: 'skipped', score: null, explanation },
    ],
    latency_ms: 4210,
    created_at: '2026-11-21T08:00:00.000Z',
    document: {
      type: 'passport',
      country: 'NER',
      fields: noFields,
      mrz: {
        lines: ['P<NERDIALLO<<AMINATA'.padEnd(44, '<'), 'A1234567<0NER9004124F3101048<<<<<<<<<<<<<<06'],
        valid: true,
      },
      legibility: 0.93,
    },
    fields: noFields,
    face_match: null,
    timings: { normalize_ms: 40, ocr_ms: 2100, mrz_ms: 300, total_ms: 4210 },
    mode: 'test',
    ...overrides,
  };
}
