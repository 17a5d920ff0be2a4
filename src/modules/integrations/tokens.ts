import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { hashToken, newId } from '../../lib/ids';
import { integrationTokens } from '../../db/schema/installations';

/** Integration and installation tokens: `quirei_` + 32 random bytes, stored hashed (src/auth/integration-tokens.ts reads them). */
export async function issueToken(db: Db, integrationId: string, installationId: string | null, expiresAt: Date): Promise<string> {
  const token = `quirei_${randomBytes(32).toString('base64url')}`;
  await db.insert(integrationTokens).values({ id: newId(), tokenHash: hashToken(token), integrationId, installationId, expiresAt });
  return token;
}
