/**
 * AWS Lambda entry of the HTTP API: the same Hono app as `npm start`, behind API Gateway v2.
 * Built once per Lambda instance (module scope), reused by every invocation.
 */
import { LambdaClient } from '@aws-sdk/client-lambda';
import { createApp, createLambdaAnalyzer } from '@idv/api';
import { deriveConsoleSessionKey, mountConsole } from '@idv/console';
import { createStore, storeConfigFromEnv } from '@idv/store';
import { webhookEventPublisher } from '@idv/webhooks';
import { handle } from 'hono/aws-lambda';

const env = process.env;
const store = createStore(storeConfigFromEnv());
const deps = {
  store,
  baseUrl: env.PUBLIC_BASE_URL ?? '',
  analyzer: env.ANALYZER_FUNCTION_NAME
    ? createLambdaAnalyzer(new LambdaClient({}), env.ANALYZER_FUNCTION_NAME)
    : undefined,
  events: webhookEventPublisher(store),
  urlSigningKey: env.URL_SIGNING_KEY ? Buffer.from(env.URL_SIGNING_KEY, 'base64') : undefined,
};
const app = createApp(deps);
// The operator console needs the signing secret for its sessions; without it, it is not served.
if (deps.urlSigningKey) {
  mountConsole(app, deps, { sessionKey: deriveConsoleSessionKey(deps.urlSigningKey) });
}

export const handler = handle(app);
