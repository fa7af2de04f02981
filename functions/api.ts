/**
 * AWS Lambda entry of the HTTP API: the same Hono app as `npm start`, behind API Gateway v2.
 * Built once per Lambda instance (module scope), reused by every invocation. A Lambda instance
 * serves one invocation at a time, so the module-level `current` record belongs to the
 * invocation in progress.
 */
import { LambdaClient } from '@aws-sdk/client-lambda';
import { type AppDeps, AWS_GATEWAY_LIMITS, createApp, createLambdaAnalyzer } from '@idv/api';
import { deriveConsoleSessionKey, mountConsole } from '@idv/console';
import type { Analyzer } from '@idv/core';
import { createStore, storeConfigFromEnv } from '@idv/store';
import { webhookEventPublisher } from '@idv/webhooks';
import { handle } from 'hono/aws-lambda';
import { applyEdgeViewer, type EdgeViewerEvent } from './edge-viewer.ts';
import { type CostFields, type InvocationContext, withInvocationCost } from './invocation-cost.ts';
import { applyLinkedSecrets } from './linked-secrets.ts';

applyLinkedSecrets();
const env = process.env;
const store = createStore(storeConfigFromEnv());

let current: { requestId?: string; fields: CostFields } = { fields: {} };

/** Times the analyzer calls, so the API's cost line carries the analyzer time it paid for. */
function timed(analyzer: Analyzer): Analyzer {
  return {
    ...analyzer,
    async analyze(request) {
      const startedAt = performance.now();
      try {
        return await analyzer.analyze(request);
      } finally {
        const ms = Math.ceil(performance.now() - startedAt);
        current.fields.analyzer_ms = Number(current.fields.analyzer_ms ?? 0) + ms;
        current.fields.analyzer_memory_mb = Number(env.ANALYZER_MEMORY_MB ?? 0) || null;
      }
    },
  };
}

const deps: AppDeps = {
  store,
  baseUrl: env.PUBLIC_BASE_URL ?? '',
  analyzer: env.ANALYZER_FUNCTION_NAME
    ? timed(
        createLambdaAnalyzer(new LambdaClient({}), env.ANALYZER_FUNCTION_NAME, {
          callerRequestId: () => current.requestId,
        }),
      )
    : undefined,
  // Below the gateway's 30 s cut, so a slow analysis still answers in the spec's envelope.
  analysisTimeoutMs: Number(env.ANALYSIS_TIMEOUT_MS) || undefined,
  events: webhookEventPublisher(store),
  // What the gateway lets through anyway; the app's own refusal names the large-upload path.
  gateway: AWS_GATEWAY_LIMITS,
  urlSigningKey: env.URL_SIGNING_KEY ? Buffer.from(env.URL_SIGNING_KEY, 'base64') : undefined,
  onRequestLogged: (entry) => {
    Object.assign(current.fields, {
      organisation: entry.orgId,
      mode: entry.mode,
      route: entry.route,
      status: entry.status,
      // Only a verification's id is a verification id; other resources are not billed.
      verification_id: entry.resourceId?.startsWith('vrf_') ? entry.resourceId : null,
    });
  },
};
const app = createApp(deps);
// The operator console needs the signing secret for its sessions; without it, it is not served.
if (deps.urlSigningKey) {
  mountConsole(app, deps, { sessionKey: deriveConsoleSessionKey(deps.urlSigningKey) });
}

const serve = handle(app);

export const handler = (event: Parameters<typeof serve>[0], context: Parameters<typeof serve>[1]) => {
  const ctx = context as InvocationContext | undefined;
  current = { requestId: ctx?.awsRequestId, fields: {} };
  // The caller's address behind CloudFront (per-IP limits), before the app reads it.
  applyEdgeViewer(event as EdgeViewerEvent, env.EDGE_ORIGIN_SECRET);
  return withInvocationCost(
    'api',
    ctx,
    () => current.fields,
    () => serve(event, context),
  );
};
