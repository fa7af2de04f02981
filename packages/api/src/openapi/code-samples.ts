/**
 * Adds `x-codeSamples` (curl and Node with `@idv/client`) to every operation of the generated
 * document, so the reference page shows runnable calls for what the route files declare,
 * without each route writing its own samples.
 */
type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: Json;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  security?: Record<string, unknown>[];
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
}

export interface DocumentWithPaths {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Json> };
  servers?: { url: string }[];
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function resolveSchema(doc: DocumentWithPaths, schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  return doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
}

function exampleOf(parameter: Parameter): string {
  const value = parameter.example ?? parameter.schema?.example;
  return value === undefined ? `<${parameter.name}>` : String(value);
}

/** An example JSON body from the schema's property examples (required ones, and any with one). */
function jsonExample(doc: DocumentWithPaths, schema: Json | undefined): Json {
  const resolved = resolveSchema(doc, schema);
  const properties = (resolved?.properties ?? {}) as Record<string, Json>;
  const required = new Set((resolved?.required as string[] | undefined) ?? []);
  const body: Json = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.example !== undefined) body[name] = property.example;
    else if (required.has(name)) body[name] = `<${name}>`;
  }
  return body;
}

/** The file parts of a multipart body (front, back, selfie for a verification). */
function fileParts(doc: DocumentWithPaths, schema: Json | undefined): string[] {
  const properties = (resolveSchema(doc, schema)?.properties ?? {}) as Record<string, Json>;
  return Object.keys(properties).filter((name) => properties[name]?.format === 'binary');
}

/** The credential an operation takes (its first security scheme), as the samples name it. */
const CREDENTIALS: Record<string, { variable: string; option: 'secretKey' | 'clientToken' }> = {
  SecretKey: { variable: 'IDV_SECRET_KEY', option: 'secretKey' },
  ClientToken: { variable: 'IDV_CLIENT_TOKEN', option: 'clientToken' },
};

function credentialOf(op: Operation) {
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  return scheme ? (CREDENTIALS[scheme] ?? CREDENTIALS.SecretKey) : undefined;
}

function samplesFor(doc: DocumentWithPaths, baseUrl: string, path: string, method: string, op: Operation) {
  const parameters = op.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query' && p.required);
  const concretePath = pathParams.reduce((p, param) => p.replace(`{${param.name}}`, exampleOf(param)), path);
  const query = queryParams.map((p) => `${p.name}=${encodeURIComponent(exampleOf(p))}`).join('&');
  const url = `${baseUrl}${concretePath}${query ? `?${query}` : ''}`;
  const credential = credentialOf(op);
  const multipart = op.requestBody?.content?.['multipart/form-data'];
  const json = op.requestBody?.content?.['application/json'];

  const curl = [`curl -X ${method.toUpperCase()} '${url}'`];
  if (credential) curl.push(`-H "Authorization: Bearer $${credential.variable}"`);
  if (multipart) for (const part of fileParts(doc, multipart.schema)) curl.push(`-F ${part}=@${part}.jpg`);
  if (json) {
    curl.push("-H 'Content-Type: application/json'");
    curl.push(`-d '${JSON.stringify(jsonExample(doc, json.schema))}'`);
  }

  const options: string[] = [];
  const params: string[] = [];
  if (pathParams.length)
    params.push(`path: { ${pathParams.map((p) => `${p.name}: '${exampleOf(p)}'`).join(', ')} }`);
  if (queryParams.length)
    params.push(`query: { ${queryParams.map((p) => `${p.name}: '${exampleOf(p)}'`).join(', ')} }`);
  if (params.length) options.push(`params: { ${params.join(', ')} }`);
  const prelude: string[] = [];
  if (multipart) {
    prelude.push("import { readFile } from 'node:fs/promises';");
    // The client sends an object with Blob values as multipart/form-data.
    const parts = fileParts(doc, multipart.schema).map(
      (part) => `${part}: new Blob([await readFile('${part}.jpg')], { type: 'image/jpeg' })`,
    );
    options.push(`body: { ${parts.join(', ')} }`);
  }
  if (json) options.push(`body: ${JSON.stringify(jsonExample(doc, json.schema))}`);
  const node = [
    ...prelude,
    "import { createIdvClient } from '@idv/client';",
    '',
    `const idv = createIdvClient({ baseUrl: '${baseUrl}'${credential ? `, ${credential.option}: process.env.${credential.variable}` : ''} });`,
  ];
  const call = `idv.${method.toUpperCase()}('${path}'${options.length ? `, { ${options.join(', ')} }` : ''})`;
  node.push(`const { data, error } = await ${call};`);
  node.push("if (error) throw new Error(error.error.code + ': ' + error.error.message);");
  node.push('console.log(data);');

  return [
    { lang: 'Shell', label: 'curl', source: curl.join(' \\\n  ') },
    { lang: 'JavaScript', label: 'Node (@idv/client)', source: node.join('\n') },
  ];
}

export function withCodeSamples<T extends DocumentWithPaths>(doc: T): T {
  const baseUrl = doc.servers?.[0]?.url ?? 'http://localhost:8787';
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method) || typeof op !== 'object' || op === null) continue;
      (op as Operation)['x-codeSamples'] = samplesFor(doc, baseUrl, path, method, op as Operation);
    }
  }
  return doc;
}
