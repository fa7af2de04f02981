import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed, bareHost } from './address-policy.ts';

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowLocalhost: boolean;
}

/** `ok` only for a 2xx in time; otherwise the status (if one came) and a short reason. */
export interface DeliveryResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

class RefusedAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
}

/**
 * A DNS lookup that refuses disallowed addresses. The socket connects to exactly the address
 * checked here, so a host cannot pass the check and then re-resolve elsewhere (DNS rebinding).
 */
function guardedLookup(allowLocalhost: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => addressAllowed(a.address, hostname, allowLocalhost));
      if (allowed.length === 0 || allowed.length !== addresses.length) {
        return callback(
          new RefusedAddressError(`refused: ${hostname} resolves to a private or reserved address`),
          '',
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      const first = allowed[0]!;
      callback(null, first.address, first.family);
    });
  };
}

function describeError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  switch (error.code) {
    case 'ETIMEDOUT_REPLY':
      return `timeout: no reply within ${timeoutMs / 1000} s`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'DNS lookup failed';
    case 'EREFUSEDADDRESS':
      return error.message;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      if (error.code?.startsWith('ERR_TLS') || /CERT|SSL/.test(error.code ?? '')) {
        return `TLS error (${error.code})`;
      }
      return error.code ? `network error (${error.code})` : `network error: ${error.message}`;
  }
}

/**
 * POSTs one signed body. Success is a 2xx status line received within the time-out; the
 * response body is never read (it is the receiver's, and could be large). Redirects are not
 * followed: a 3xx is a failure, as a redirect could point anywhere.
 */
export function deliver(req: DeliveryRequest): Promise<DeliveryResult> {
  const url = new URL(req.url);
  const host = bareHost(url.hostname);
  // Literal IPs skip the lookup, so they are checked here.
  if (isIP(host) && !addressAllowed(host, host, req.allowLocalhost)) {
    return Promise.resolve({
      ok: false,
      statusCode: null,
      error: `refused: ${host} is a private or reserved address`,
    });
  }
  const body = Buffer.from(req.body, 'utf8');
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...req.headers, 'Content-Length': String(body.byteLength) },
    lookup: guardedLookup(req.allowLocalhost),
    // A fresh connection per attempt: a pooled socket would skip the address check.
    agent: false,
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = send(url, options, (response) => {
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      finish({ ok, statusCode: status, error: ok ? null : `receiver answered ${status}` });
      request.destroy();
    });
    const timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error('reply timeout');
      error.code = 'ETIMEDOUT_REPLY';
      request.destroy(error);
    }, req.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, statusCode: null, error: describeError(error, req.timeoutMs) });
    });
    request.end(body);
  });
}
