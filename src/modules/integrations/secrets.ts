import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { serverSecret } from '../../db/secrets';

/*
 * An integration's `secrets` map, encrypted at rest with AES-256-GCM under a server secret of the
 * database (so any instance decrypts): `v1.<iv>.<tag>.<ciphertext>`, base64url parts. Only the
 * delivery to the script decrypts it; the API never returns it.
 */
const KEY_NAME = 'integration-secrets';

export async function encryptSecrets(db: Db, secrets: Record<string, string>): Promise<string> {
  const key = await serverSecret(db, KEY_NAME);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export async function decryptSecrets(db: Db, sealed: string | null): Promise<Record<string, string>> {
  if (!sealed) return {};
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown format of stored integration secrets');
  const decipher = createDecipheriv('aes-256-gcm', await serverSecret(db, KEY_NAME), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')) as Record<string, string>;
}
