import { createApp } from '@idv/api';
import { createStore, storeConfigFromEnv } from '@idv/store';

/**
 * The app as far as its published contract goes: the document and the docs page are built from
 * the route definitions alone, so the store is configured but never reached.
 */
export function contractApp() {
  return createApp({ store: createStore(storeConfigFromEnv({})), baseUrl: 'http://localhost:8787' });
}

export async function openApiDocument(): Promise<OpenApiDocument> {
  const res = await contractApp().request('/openapi.json');
  if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

export interface OpenApiOperation {
  operationId?: string;
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
  parameters?: { name: string; in: string }[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  webhooks: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

/** Every operation of the document with its method and path. */
export function operations(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}
