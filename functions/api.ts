/**
 * AWS Lambda entry of the HTTP API: the same Hono app as `npm start`, behind API Gateway v2.
 * Built once per Lambda instance (module scope), reused by every invocation.
 */
import { createApp } from '@idv/api';
import { createStore, storeConfigFromEnv } from '@idv/store';
import { handle } from 'hono/aws-lambda';

const store = createStore(storeConfigFromEnv());
const app = createApp({ store, baseUrl: process.env.PUBLIC_BASE_URL ?? '' });

export const handler = handle(app);
