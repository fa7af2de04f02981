/**
 * `@idv/client`: a typed Node client of the Identity Verification API. The types are generated
 * from the service's OpenAPI document (src/generated, `npm run generate:client`); the runtime is
 * openapi-fetch, so every call is checked against the document's paths, parameters and bodies:
 *
 *   const idv = createIdvClient({ baseUrl, secretKey: process.env.IDV_SECRET_KEY });
 *   const { data, error } = await idv.GET('/v1/verifications/{id}', { params: { path: { id } } });
 *
 * `verifyImages(idv, { front, back, selfie })` picks multipart or direct uploads by size.
 * Receivers of webhooks check the `Service-Signature` header with `verifyWebhookSignature`.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './generated/openapi-types.ts';

export type { components, operations, paths, webhooks } from './generated/openapi-types.ts';
export * from './verify-images.ts';
export * from './webhook-signature.ts';

export type Verification = components['schemas']['Verification'];
export type VerificationCompletedEvent = components['schemas']['VerificationCompletedEvent'];
export type ApiErrorBody = components['schemas']['Error'];
export type ErrorCode = ApiErrorBody['error']['code'];

export interface IdvClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** The service's base URL, e.g. http://localhost:8787. */
  baseUrl: string;
  /** A secret key (`vn_test_…`, `vn_live_…`), sent as `Authorization: Bearer …`. Server side only. */
  secretKey?: string;
  /** Or a session's client token (`vn_ct_…`), for the session's browser-side calls. */
  clientToken?: string;
  /** Headers sent with every call (a call's own headers win). */
  headers?: Record<string, string>;
}

export type IdvClient = Client<paths>;

export function createIdvClient(options: IdvClientOptions): IdvClient {
  const { secretKey, clientToken, headers, ...rest } = options;
  const credential = secretKey ?? clientToken;
  return createClient<paths>({
    bodySerializer: serializeBody,
    ...rest,
    headers: { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...headers },
  });
}

/**
 * Bodies with a file part (a Blob, e.g. `{ front: new Blob([bytes]) }` for POST /v1/verify) go
 * as multipart/form-data, the others as JSON; a FormData is sent as it is.
 */
function serializeBody(body: unknown): BodyInit {
  if (body instanceof FormData) return body;
  if (body && typeof body === 'object' && Object.values(body).some((v) => v instanceof Blob)) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) {
      if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
      else if (value !== undefined && value !== null) form.append(name, String(value));
    }
    return form;
  }
  return JSON.stringify(body);
}
