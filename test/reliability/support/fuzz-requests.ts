import {
  encodeLoosely,
  fillPath,
  type JsonSchema,
  type Operation,
  type Parameter,
} from './openapi-operations.ts';
import type { Prng } from './prng.ts';

/**
 * Malformed requests for one operation of the contract, made from its OpenAPI description:
 * one fault per request (a bad path, query, header, credential or body), the rest of the
 * request valid, so that each fault reaches the code that must refuse it.
 */
export interface FuzzRequest {
  /** The fault's class and detail, e.g. `json:wrong-type description=[]`. */
  label: string;
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}

export interface FuzzContext {
  /** A valid value of each path parameter, by its id prefix (`vrf_`, `ses_` …) or name. */
  validIds: Record<string, string>;
  /** The valid bearer credential of each security scheme. */
  credentials: Record<string, string>;
  /** Idempotency keys already used in this run: reused to replay them with other bodies. */
  idempotencyKeys: string[];
  /** A tiny PNG that decodes to far more pixels than the budget. */
  pixelBomb: Uint8Array;
  /** Oversized bodies are large: at most this many per run. */
  oversizedLeft: number;
}

const encoder = new TextEncoder();

/** Strings that break naive code: controls, bidi, lone surrogates, combining marks, emoji, NUL. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202etxt.exe',
  '\ud800',
  '\udfff\ud800',
  'e\u0301\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦'.repeat(50),
  'Ω≈ç√∫˜µ≤≥÷',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$ne":null}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection payload, sent as is.
  '${jndi:ldap://x}',
  '../../../../etc/passwd',
  '%00%0d%0a',
  '\r\nX-Injected: 1',
  '\uFEFF',
  'ＡＢＣ',
];

const WRONG_VALUES: unknown[] = [0, -1, 1.5, 1e308, -1e308, true, false, null, [], {}, ['a'], { a: 1 }, '1'];

/** A valid value for a schema, as a well-behaved client would send. */
function validValue(schema: JsonSchema & { example?: unknown; default?: unknown }, rng: Prng): unknown {
  if (schema.enum) return rng.pick(schema.enum);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return validObject(schema, rng);
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

function validObject(schema: JsonSchema, rng: Prng): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (schema.required?.includes(name) || rng.chance(0.5)) out[name] = validValue(property, rng);
  }
  return out;
}

/** A valid value for a path parameter: a known resource for its prefix, else one matching the pattern. */
function validPathValue(param: Parameter, ctx: FuzzContext, rng: Prng): string {
  const prefix = /^\^([a-z]+_)/.exec(param.schema.pattern ?? '')?.[1];
  if (prefix && ctx.validIds[prefix]) return ctx.validIds[prefix];
  const named = ctx.validIds[param.name];
  if (named) return named;
  if (param.schema.enum) return String(rng.pick(param.schema.enum));
  return `${prefix ?? ''}${'a'.repeat(rng.int(1, 20))}`;
}

/** Malformed values for a path parameter: wrong prefix, lengths from 0 to 10 000, encodings. */
function badPathValue(param: Parameter, rng: Prng): { value: string; raw: boolean } {
  const prefix = /^\^([a-z]+_)/.exec(param.schema.pattern ?? '')?.[1] ?? '';
  const choices: [string, boolean][] = [
    ['', false],
    [`${prefix}`, false],
    [`${prefix}${'a'.repeat(rng.pick([65, 200, 3000, 10_000]))}`, false],
    [`${prefix}ABC`, false],
    [`${prefix}a-b`, false],
    [`xyz_${'a'.repeat(10)}`, false],
    [`${prefix}${rng.pick(ODD_STRINGS)}`, false],
    [`${prefix}%00`, true],
    ['..%2F..%2Fopenapi.json', true],
    ['%2e%2e', true],
    [`${prefix}%ZZ`, true],
    [`${prefix}a%2Fb`, true],
    ['FRONT', false],
  ];
  const [value, raw] = rng.pick(choices);
  return { value, raw };
}

/** A deeply nested JSON text, for parsers that recurse. */
function deepJson(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

const BAD_JSON_TEXTS = [
  '',
  '{',
  '{"url":',
  '{"a":1,}',
  "{'a':1}",
  'null',
  '[]',
  '"x"',
  '1',
  'NaN',
  '\uFEFF{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"a":"\\ud800"}',
  '{"a":1}{"b":2}',
  '{"a":1e999999}',
  deepJson(5000),
];

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array;
}

/** A multipart/form-data body written byte by byte (so that it can be cut or mislabelled). */
function multipart(parts: Part[], boundary: string): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const disposition = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${disposition}${type}\r\n\r\n`,
      ),
      part.data,
      encoder.encode('\r\n'),
    );
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

/** Bytes that are not a usable image: random, empty, a truncated header, text, another format. */
function notAnImage(rng: Prng, ctx: FuzzContext): { data: Uint8Array; contentType: string } {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const choices: (() => { data: Uint8Array; contentType: string })[] = [
    () => ({ data: rng.bytes(rng.int(1, 4096)), contentType: 'image/jpeg' }),
    () => ({ data: new Uint8Array(0), contentType: 'image/png' }),
    () => ({
      data: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...rng.bytes(rng.int(0, 300))]),
      contentType: 'image/jpeg',
    }),
    () => ({ data: new Uint8Array([...png, ...rng.bytes(rng.int(0, 300))]), contentType: 'image/png' }),
    () => ({ data: encoder.encode('RIFF\x00\x00\x00\x00WEBPVP8 '), contentType: 'image/webp' }),
    () => ({ data: encoder.encode('GIF89a\x01\x00\x01\x00'), contentType: 'image/gif' }),
    () => ({
      data: encoder.encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      contentType: 'image/svg+xml',
    }),
    () => ({ data: encoder.encode(rng.pick(ODD_STRINGS) || 'text'), contentType: 'text/plain' }),
    () => ({ data: ctx.pixelBomb, contentType: 'image/png' }),
    () => ({
      data: ctx.pixelBomb.subarray(0, rng.int(8, ctx.pixelBomb.length - 1)),
      contentType: 'image/png',
    }),
  ];
  return rng.pick(choices)();
}

function fileParts(schema: JsonSchema, rng: Prng, ctx: FuzzContext): Part[] {
  return Object.keys(schema.properties ?? {})
    .filter((name) => schema.required?.includes(name) || rng.chance(0.3))
    .map((name) => {
      const { data, contentType } = notAnImage(rng, ctx);
      return { name, filename: `${name}.jpg`, contentType, data };
    });
}

interface Body {
  label?: string;
  contentType?: string;
  body?: Uint8Array<ArrayBuffer>;
}

function jsonBody(schema: JsonSchema, rng: Prng, ctx: FuzzContext): Body {
  const valid = validObject(schema, rng);
  const fields = Object.keys(schema.properties ?? {});
  const field = fields.length ? rng.pick(fields) : 'x';
  const json = (value: unknown, label: string, contentType = 'application/json'): Body => ({
    label,
    contentType,
    body: encoder.encode(JSON.stringify(value)),
  });
  switch (rng.int(0, 8)) {
    case 0: {
      const wrong = rng.pick(WRONG_VALUES);
      return json({ ...valid, [field]: wrong }, `json:wrong-type ${field}=${JSON.stringify(wrong)}`);
    }
    case 1: {
      const { [field]: _dropped, ...rest } = valid;
      return json(rest, `json:missing ${field}`);
    }
    case 2: {
      const extra = rng.pick(['__proto__', 'constructor', 'id', 'org_id', 'mode', 'admin', 'x'.repeat(300)]);
      return {
        label: `json:extra ${extra.slice(0, 20)}`,
        contentType: 'application/json',
        body: encoder.encode(
          `${JSON.stringify(valid).slice(0, -1)}${fields.length && Object.keys(valid).length ? ',' : ''}"${extra}":{"a":1}}`,
        ),
      };
    }
    case 3: {
      const length = rng.pick([300, 3000, 100_000, 1_000_000]);
      return json({ ...valid, [field]: 'a'.repeat(length) }, `json:huge ${field} (${length})`);
    }
    case 4: {
      const odd = rng.pick(ODD_STRINGS);
      return json({ ...valid, [field]: odd }, `json:unicode ${field}=${JSON.stringify(odd).slice(0, 30)}`);
    }
    case 5: {
      const text = rng.pick(BAD_JSON_TEXTS);
      return {
        label: `json:bad-text ${text.slice(0, 30)}`,
        contentType: 'application/json',
        body: encoder.encode(text),
      };
    }
    case 6: {
      const contentType = rng.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/xml',
        '',
      ]);
      return json(valid, `json:content-type "${contentType}"`, contentType);
    }
    case 7: {
      const root = rng.pick([[valid], 'x', 42, null, true]);
      return json(root, `json:root ${JSON.stringify(root).slice(0, 30)}`);
    }
    default: {
      if (ctx.oversizedLeft <= 0)
        return json({ ...valid, [field]: 'b'.repeat(70_000) }, `json:large ${field}`);
      ctx.oversizedLeft--;
      return json({ ...valid, [field]: 'b'.repeat(13 * 1024 * 1024) }, `json:oversized ${field} (13 MiB)`);
    }
  }
}

function multipartBody(schema: JsonSchema, rng: Prng, ctx: FuzzContext): Body {
  const boundary = `fuzz${rng.int(0, 1e9)}`;
  const typeOf = (b = boundary) => `multipart/form-data; boundary=${b}`;
  const parts = fileParts(schema, rng, ctx);
  const names = Object.keys(schema.properties ?? {});
  const anyName = names.length ? rng.pick(names) : 'file';
  const bodyOf = (label: string, p: Part[], contentType = typeOf()): Body => ({
    label,
    contentType,
    body: multipart(p, boundary),
  });
  switch (rng.int(0, 9)) {
    case 0:
      return bodyOf(
        `multipart:missing ${schema.required?.join(',')}`,
        parts.filter((p) => !schema.required?.includes(p.name)),
      );
    case 1: {
      const name = rng.pick([
        'frontt',
        'FRONT',
        'front[]',
        '',
        'front"',
        'x'.repeat(2000),
        rng.pick(ODD_STRINGS),
      ]);
      return bodyOf(`multipart:unknown part ${JSON.stringify(name).slice(0, 20)}`, [
        ...parts,
        { name, filename: 'x.jpg', contentType: 'image/jpeg', data: rng.bytes(64) },
      ]);
    }
    case 2:
      return bodyOf(`multipart:duplicate ${anyName}`, [...parts, ...parts, ...fileParts(schema, rng, ctx)]);
    case 3:
      return bodyOf(`multipart:text for ${anyName}`, [
        ...parts.filter((p) => p.name !== anyName),
        { name: anyName, data: encoder.encode(rng.pick(ODD_STRINGS)) },
      ]);
    case 4: {
      const body = multipart(parts, boundary);
      const cut = rng.int(0, Math.max(0, body.length - 1));
      return {
        label: `multipart:truncated at ${cut}/${body.length}`,
        contentType: typeOf(),
        body: body.subarray(0, cut),
      };
    }
    case 5: {
      const contentType = rng.pick([
        typeOf('other'),
        'multipart/form-data',
        typeOf(''),
        'multipart/mixed; boundary=x',
        typeOf('"unterminated'),
      ]);
      return bodyOf(`multipart:content-type "${contentType}"`, parts, contentType);
    }
    case 6: {
      const filename = rng.pick([
        'x'.repeat(5000),
        '../../etc/passwd',
        'a"b.jpg',
        rng.pick(ODD_STRINGS),
        '\u0000.jpg',
      ]);
      return bodyOf(
        `multipart:filename ${JSON.stringify(filename).slice(0, 20)}`,
        parts.map((p) => ({ ...p, filename })),
      );
    }
    case 7: {
      const contentType = rng.pick(['application/json', 'text/plain', 'application/octet-stream', '']);
      return {
        label: `multipart:wrong body type "${contentType}"`,
        contentType,
        body: encoder.encode('{"front":"abc"}'),
      };
    }
    case 8: {
      if (ctx.oversizedLeft <= 0) return bodyOf('multipart:garbage parts', parts);
      ctx.oversizedLeft--;
      const big = {
        name: anyName,
        filename: 'big.jpg',
        contentType: 'image/jpeg',
        data: rng.bytes(13 * 1024 * 1024),
      };
      return bodyOf(`multipart:oversized ${anyName} (13 MiB)`, [
        ...parts.filter((p) => p.name !== anyName),
        big,
      ]);
    }
    default:
      return bodyOf(`multipart:bomb in ${anyName}`, [
        ...parts.filter((p) => p.name !== anyName),
        { name: anyName, filename: 'b.png', contentType: 'image/png', data: ctx.pixelBomb },
      ]);
  }
}

/** A wrong value for a query parameter of the operation's type. */
function badQueryValue(param: Parameter, rng: Prng): string {
  if (param.name === 'cursor') {
    return rng.pick([
      'not-a-cursor',
      '%',
      'a'.repeat(3000),
      Buffer.from('{"pk":"ORG#org_other","sk":"x"}').toString('base64url'),
      Buffer.from('{}').toString('base64url'),
      Buffer.from(rng.bytes(64)).toString('base64url'),
      rng.pick(ODD_STRINGS),
    ]);
  }
  if (param.schema.type === 'integer' || param.schema.type === 'number') {
    return rng.pick(['abc', '-1', '0', '1.5', '1e999', '', '0x10', '99999999999999999999', 'NaN', ' 1']);
  }
  return rng.pick(['a'.repeat(5000), 'NOT_AN_ENUM', ...ODD_STRINGS]);
}

function queryString(entries: [string, string][]): string {
  if (entries.length === 0) return '';
  return `?${entries.map(([k, v]) => `${encodeLoosely(k)}=${encodeLoosely(v)}`).join('&')}`;
}

/** The wrong credentials a careless or hostile caller sends. */
function badAuthorization(valid: string, rng: Prng): string | null {
  return rng.pick([
    null,
    '',
    'Bearer',
    'Bearer ',
    `bearer ${valid}`,
    `Bearer ${valid} extra`,
    `Bearer ${valid},${valid}`,
    `Basic ${Buffer.from('a:b').toString('base64')}`,
    `Bearer ${valid.slice(0, -1)}`,
    `Bearer ${valid}x`,
    `Bearer ${'a'.repeat(4000)}`,
    'Bearer vn_test_',
  ]);
}

/** One malformed request for the operation. */
export function fuzzRequest(op: Operation, ctx: FuzzContext, rng: Prng): FuzzRequest {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const values: Record<string, string> = {};
  for (const p of pathParams) values[p.name] = validPathValue(p, ctx, rng);
  const credential = op.security ? ctx.credentials[op.security] : undefined;
  const headers: Record<string, string> = {};
  if (credential) headers.authorization = `Bearer ${credential}`;
  const query: [string, string][] = [];
  let label: string;
  let body: Body = {};
  let rawPath = false;

  const classes = ['path', 'query', 'credential', 'header'];
  if (op.body) classes.push('body', 'body', 'body', 'body');
  const fault = rng.pick(classes.filter((c) => c !== 'path' || pathParams.length > 0));
  // Requests whose fault is elsewhere still carry a (garbage) body where the operation takes one.
  if (op.body && fault !== 'body') {
    body =
      op.body.contentType === 'application/json'
        ? {
            contentType: 'application/json',
            body: encoder.encode(JSON.stringify(validObject(op.body.schema, rng))),
          }
        : {
            contentType: `multipart/form-data; boundary=b`,
            body: multipart(fileParts(op.body.schema, rng, ctx), 'b'),
          };
  }
  switch (fault) {
    case 'path': {
      const param = rng.pick(pathParams);
      const bad = badPathValue(param, rng);
      values[param.name] = bad.value;
      rawPath = bad.raw;
      label = `path:${param.name}=${bad.value.slice(0, 30)}${bad.value.length > 30 ? `… (${bad.value.length})` : ''}`;
      break;
    }
    case 'query': {
      if (queryParams.length && rng.chance(0.8)) {
        const param = rng.pick(queryParams);
        const value = badQueryValue(param, rng);
        query.push([param.name, value]);
        if (rng.chance(0.2)) query.push([param.name, value]);
        label = `query:${param.name}=${value.slice(0, 30)}`;
      } else {
        const name = rng.pick(['x', 'limit[]', '__proto__', 'a'.repeat(500)]);
        query.push([name, rng.pick(ODD_STRINGS)]);
        label = `query:unknown ${name.slice(0, 20)}`;
      }
      break;
    }
    case 'credential': {
      const auth = badAuthorization(credential ?? 'vn_test_abc', rng);
      if (auth === null) delete headers.authorization;
      else headers.authorization = auth;
      label = `credential:${auth === null ? 'none' : auth.replace(/vn_[a-z]+_[A-Za-z0-9_-]+/g, '<key>').slice(0, 40)}`;
      break;
    }
    case 'header': {
      const choice = rng.int(0, 3);
      if (choice === 0 && ctx.idempotencyKeys.length) {
        headers['idempotency-key'] = rng.pick(ctx.idempotencyKeys);
        label = 'header:replayed idempotency-key';
      } else if (choice <= 1) {
        const key = rng.pick([
          '',
          ' ',
          'k'.repeat(256),
          'k'.repeat(5000),
          'tab\there',
          `key-${rng.int(0, 1e9)}`,
        ]);
        headers['idempotency-key'] = key;
        if (key.startsWith('key-')) ctx.idempotencyKeys.push(key);
        label = `header:idempotency-key ${JSON.stringify(key.slice(0, 20))} (${key.length})`;
      } else if (choice === 2) {
        headers.accept = rng.pick(['application/xml', '*/*;q=abc', 'text/html', 'x'.repeat(3000)]);
        label = `header:accept ${headers.accept.slice(0, 20)}`;
      } else {
        headers['content-encoding'] = rng.pick(['gzip', 'br', 'deflate', 'identity, gzip', 'x-unknown']);
        label = `header:content-encoding ${headers['content-encoding']}`;
      }
      break;
    }
    default: {
      if (!op.body) throw new Error('unreachable: a body fault for an operation without a body');
      body =
        op.body.contentType === 'application/json'
          ? jsonBody(op.body.schema, rng, ctx)
          : multipartBody(op.body.schema, rng, ctx);
      label = body.label ?? 'body';
    }
  }
  if (body.contentType !== undefined && body.contentType !== '') headers['content-type'] = body.contentType;
  return {
    label,
    method: op.method,
    url: fillPath(op.path, values, rawPath) + queryString(query),
    headers,
    body: body.body,
  };
}
