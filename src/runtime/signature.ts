import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The signature of a delivery to a dev tunnel: `X-Quire-Signature: t=<unix seconds>,v1=<hex>`,
 * where the hex is HMAC-SHA256(signing secret, `<t>.<body>`). The timestamp is inside the MAC,
 * so a receiver that refuses old timestamps also refuses a replayed body.
 */

export const SIGNATURE_HEADER = 'x-quire-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

function mac(secret: string, timestamp: number, body: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/** The header value for `body`, signed at `now` (unix seconds). */
export function signBody(secret: string, body: Uint8Array, now = Math.floor(Date.now() / 1000)): string {
  return `t=${now},v1=${mac(secret, now, body).toString('hex')}`;
}

export interface VerifyOptions {
  /** Oldest (and furthest in the future) a timestamp may be, in seconds. */
  toleranceSeconds?: number;
  /** The receiver's clock, unix seconds. */
  now?: number;
}

/**
 * Whether `header` is a valid signature of `body` with `secret`, made within the tolerance.
 * Several `v1=` entries are accepted (one per secret during a rotation); any match is enough.
 */
export function verifySignature(header: string | null | undefined, body: Uint8Array | string, secret: string, options: VerifyOptions = {}): boolean {
  if (!header) return false;
  const { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Math.floor(Date.now() / 1000) } = options;
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  if (Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = mac(secret, timestamp, typeof body === 'string' ? Buffer.from(body) : body);
  return candidates.some((hex) => timingSafeEqual(Buffer.from(hex, 'hex'), expected));
}
