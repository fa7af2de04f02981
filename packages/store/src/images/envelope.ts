import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Application-level envelope encryption for stored images, on top of the bucket's own
 * server-side encryption: a leaked bucket (or a misconfigured bucket policy) alone reveals
 * nothing. Each object gets its own random 256-bit data key; the data key is sealed with the
 * master key (AES-256-GCM) and stored beside the ciphertext.
 *
 * Layout: "IDV1" | sealed data key (12 iv + 32 key + 16 tag) | 12 iv | ciphertext | 16 tag
 */
const MAGIC = Buffer.from('IDV1');
const IV = 12;
const TAG = 16;
const KEY = 32;
const SEALED_KEY = IV + KEY + TAG;

function seal(key: Uint8Array, plaintext: Uint8Array, aad: Buffer): Buffer {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function open(key: Uint8Array, sealed: Uint8Array, aad: Buffer): Buffer {
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const iv = buf.subarray(0, IV);
  const tag = buf.subarray(buf.length - TAG);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(buf.subarray(IV, buf.length - TAG)), decipher.final()]);
}

/**
 * Encrypts `plaintext` bound to `context` (the object key): a ciphertext copied to another
 * key fails to decrypt, so objects cannot be swapped between verifications.
 */
export function encryptEnvelope(masterKey: Uint8Array, plaintext: Uint8Array, context: string): Buffer {
  if (masterKey.byteLength !== KEY) throw new Error('the image master key must be 32 bytes');
  const aad = Buffer.from(context, 'utf8');
  const dataKey = randomBytes(KEY);
  const sealedKey = seal(masterKey, dataKey, aad);
  return Buffer.concat([MAGIC, sealedKey, seal(dataKey, plaintext, aad)]);
}

export function decryptEnvelope(masterKey: Uint8Array, envelope: Uint8Array, context: string): Buffer {
  const buf = Buffer.from(envelope.buffer, envelope.byteOffset, envelope.byteLength);
  if (buf.length < MAGIC.length + SEALED_KEY + IV + TAG || !buf.subarray(0, 4).equals(MAGIC)) {
    throw new Error('not an encrypted image envelope');
  }
  const aad = Buffer.from(context, 'utf8');
  const dataKey = open(masterKey, buf.subarray(4, 4 + SEALED_KEY), aad);
  return open(dataKey, buf.subarray(4 + SEALED_KEY), aad);
}
