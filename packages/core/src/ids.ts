import { webcrypto } from 'node:crypto';

/** Id prefixes of every resource; ids are `<prefix>_<lower-case base36>`. */
export const ID_PREFIX = {
  verification: 'vrf',
  session: 'ses',
  organisation: 'org',
  application: 'app',
  key: 'key',
  user: 'usr',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  event: 'evt',
  request: 'req',
  audit: 'aud',
  operator: 'opr',
  upload: 'upl',
} as const;

export type IdPrefix = (typeof ID_PREFIX)[keyof typeof ID_PREFIX];

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random lower-case alphanumerics from a CSPRNG, without modulo bias. */
export function randomAlphanumeric(length: number, alphabet = ALPHABET): string {
  let out = '';
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    const bytes = webcrypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

/**
 * A new id. The first 9 characters encode the creation time (base36 milliseconds), so ids
 * sort by creation time as strings; 16 random characters follow.
 */
export function newId(prefix: IdPrefix): string {
  const time = Date.now().toString(36).padStart(9, '0');
  return `${prefix}_${time}${randomAlphanumeric(16)}`;
}

/**
 * The most characters after `<prefix>_` any id may have. Ours have 25; the bound keeps a
 * forged id far below DynamoDB's key-size limits, so a path id can never reach the store as
 * something it refuses.
 */
export const ID_BODY_MAX_LENGTH = 64;

/** The exact shape of an id of one resource: its prefix, `_`, 1 to 64 lower-case base36 characters. */
export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_[a-z0-9]{1,${ID_BODY_MAX_LENGTH}}$`);
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return idPattern(prefix).test(id);
}
