import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressAllowed, bareHost, isLocalhostName } from './address-policy.ts';

/** Longest endpoint URL accepted (a generous bound; real URLs are far shorter). */
export const MAX_ENDPOINT_URL_LENGTH = 2048;

export type EndpointUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** Resolves a host to all its addresses (injectable for tests). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Checks an endpoint URL when it is registered: HTTPS (or, with the localhost allowance,
 * `http://localhost` / `http://127.0.0.1`), no credentials in it, and a host whose every
 * address is public. The worker checks the addresses again at each delivery (DNS can change).
 */
export async function checkEndpointUrl(
  raw: string,
  options: { allowLocalhost: boolean; resolve?: Resolver },
): Promise<EndpointUrlCheck> {
  if (raw.length > MAX_ENDPOINT_URL_LENGTH) {
    return { ok: false, reason: `must be at most ${MAX_ENDPOINT_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL, e.g. https://example.com/webhooks' };
  }
  const host = bareHost(url.hostname);
  const localhost = isLocalhostName(host);
  if (localhost && !options.allowLocalhost) {
    return { ok: false, reason: 'localhost endpoints are accepted only in local and test setups' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && localhost)) {
    return { ok: false, reason: 'must use https://' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not contain credentials' };
  if (url.hash) return { ok: false, reason: 'must not contain a #fragment' };

  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      return { ok: false, reason: `host ${host} does not resolve` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  const refused = addresses.find((ip) => !addressAllowed(ip, host, options.allowLocalhost));
  if (refused) {
    return { ok: false, reason: `host ${host} resolves to a private or reserved address (${refused})` };
  }
  return { ok: true, url: url.toString() };
}
