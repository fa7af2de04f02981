/**
 * The operations of the published contract, read from the running app's /openapi.json, so
 * that a route added later is fuzzed and put through the credential matrix without anyone
 * remembering to list it here.
 */
export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The OpenAPI path, e.g. /v1/verifications/{id}. */
  path: string;
  /** `SecretKey`, `ClientToken` or null for a public operation. */
  security: string | null;
  parameters: Parameter[];
  /** The request body's media type and schema, when it takes one. */
  body: { contentType: string; schema: JsonSchema } | null;
  /** The documented response statuses. */
  statuses: number[];
}

interface OpenApiOperation {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

export async function loadOperations(app: {
  request(path: string): Response | Promise<Response>;
}): Promise<Operation[]> {
  const res = await app.request('/openapi.json');
  if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
  const doc = (await res.json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        security: Object.keys(op.security?.[0] ?? {})[0] ?? null,
        parameters: op.parameters ?? [],
        body: content ? { contentType: content[0], schema: content[1].schema } : null,
        statuses: Object.keys(op.responses).map(Number),
      });
    }
  }
  return operations;
}

/** `GET /v1/verifications/{id}`: how tests and tables name an operation. */
export function operationName(op: Pick<Operation, 'method' | 'path'>): string {
  return `${op.method} ${op.path}`;
}

/** The path with its parameters filled in (values are percent-encoded unless `raw`). */
export function fillPath(path: string, values: Record<string, string>, raw = false): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return raw ? value : encodeLoosely(value);
  });
}

const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the bytes of
 * an invalid UTF-8 sequence: a caller can send those, so the fuzz does too.
 */
export function encodeLoosely(value: string): string {
  return value
    .split(LONE_SURROGATE)
    .map((piece, i) => (i % 2 === 1 ? '%ED%A0%80' : encodeURIComponent(piece)))
    .join('');
}
