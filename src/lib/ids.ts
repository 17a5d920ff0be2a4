import { createHash, hash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Opaque 20-character identifiers, the same form the platform's REST ids take. */
export function newId(length = 20): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps the alphabet unbiased.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** API tokens start with `quire_`, so secret scanners and people can tell them from other keys. */
export function newToken(prefix = 'quire_'): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Share-link keys travel in URLs and open one site for reading: a prefix of their own, never taken for an API token. */
export const newShareKey = () => newToken('qshare_');

/** Every request hashes its token: the one-shot `hash` builds no Hash object (Node 20.12+). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A 20-character id derived from its parts: the same parts always give the same id. */
export function derivedId(...parts: string[]): string {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  let out = '';
  for (let i = 0; out.length < 20; i++) out += ALPHABET[digest[i % digest.length]! % 62];
  return out;
}
