import { or, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { RequestContext } from '../../context/request-context';
import { getBlob } from './files';
import { ASSETS_PATH } from './service';
import { integrations } from '../../db/schema/integrations';

/*
 * Icons and preview images of integrations, by the hash of their bytes, without a token (the
 * marketplace shows them). Only hashes an integration names as an image are served: never its
 * script, never any other blob.
 */
export async function serveIntegrationAsset(ctx: RequestContext, url: URL): Promise<Response> {
  const hash = url.pathname.slice(ASSETS_PATH.length);
  const missing = () => Response.json({ error: { code: 404, message: 'Asset not found' } }, { status: 404 });
  if (!/^[0-9a-f]{64}$/.test(hash)) return missing();
  const [named] = await ctx.db
    .select({ one: sql`1` })
    .from(integrations)
    .where(or(sql`${integrations.iconBlob} = ${hash}`, sql`${hash} = any(${integrations.previewBlobs})`))
    .limit(1);
  const bytes = named ? await getBlob(ctx.db, hash) : null;
  if (!bytes) return missing();
  const type = (await fileTypeFromBuffer(bytes))?.mime ?? 'application/octet-stream';
  return new Response(new Uint8Array(bytes), {
    headers: { 'content-type': type.startsWith('image/') ? type : 'application/octet-stream', 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' },
  });
}
