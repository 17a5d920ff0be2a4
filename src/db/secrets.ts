import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { serverSecrets } from './schema/secrets';

const cache = new WeakMap<Db, Map<string, Promise<Uint8Array>>>();

/**
 * A named secret shared by every instance on this database: made by whichever asks first, then
 * read by the others, so tokens one instance signs verify on all.
 */
export function serverSecret(db: Db, name: string): Promise<Uint8Array> {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let secret = byName.get(name);
  if (!secret) {
    secret = (async () => {
      await db.insert(serverSecrets).values({ name, value: randomBytes(32).toString('base64url') }).onConflictDoNothing();
      const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
      return new Uint8Array(Buffer.from(row.value, 'base64url'));
    })();
    byName.set(name, secret);
  }
  return secret;
}
