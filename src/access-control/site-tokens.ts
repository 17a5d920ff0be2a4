import { and, eq, sql } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/client';
import { serverSecret } from '../db/secrets';
import type { SiteGrant, Viewer } from '../context/request-context';
import { UnauthenticatedError } from '../domain/errors';
import { sites, type SiteRow } from '../db/schema/sites';

/*
 * The `apiToken` of a published site's URL lookup: a JWT (HS256) signed with a server secret of
 * the database, so any instance verifies it, that lets the platform's renderer read that one
 * site's published content for an hour. Nothing is stored: the token names the site, the spaces
 * the visitor could open and what admitted them (the visibility, the share key), and each request
 * checks these against the site as it is now, so unpublishing a site, removing a space from it or
 * revoking a share key ends the tokens at once.
 */

const SECRET_NAME = 'site-api-tokens';
const AUDIENCE = 'quire:published-site';
/** How long a token lives at most: the renderer asks again for a new one once it expires. */
export const SITE_TOKEN_LIFETIME_SECONDS = 60 * 60;
/** JWTs start with a base64url JSON header, `{"` = `eyJ`; Quire's own tokens start with `quire`. */
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/;

export interface SiteTokenFacts {
  organizationId: string;
  siteId: string;
  spaceIds: string[];
  visibility: SiteRow['visibility'];
  /** The share key that admitted the visitor, for a share-link site. */
  shareKey?: string;
  /** Seconds since the epoch past which the token must not live (the visitor token's own expiry). */
  notAfter?: number;
}

export async function mintSiteToken(db: Db, facts: SiteTokenFacts, now: Date): Promise<string> {
  const seconds = Math.floor(now.getTime() / 1000);
  const exp = Math.min(seconds + SITE_TOKEN_LIFETIME_SECONDS, facts.notAfter ?? Infinity);
  return new SignJWT({ org: facts.organizationId, spaces: facts.spaceIds, vis: facts.visibility, ...(facts.shareKey ? { key: facts.shareKey } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(facts.siteId)
    .setAudience(AUDIENCE)
    .setIssuedAt(seconds)
    .setExpirationTime(exp)
    .sign(await serverSecret(db, SECRET_NAME));
}

export const looksLikeSiteToken = (token: string) => JWT.test(token);

/** The site as a token is checked against, one statement built once per database; an empty key matches no share link. */
const statements = new WeakMap<Db, ReturnType<typeof prepareSiteStatement>>();

function prepareSiteStatement(db: Db) {
  const siteId = sql.placeholder('siteId');
  return (
    db
      .select({
        visibility: sites.visibility,
        // Named by the site id given: drizzle leaves columns of a one-table select unqualified, which a subquery would misread.
        spaceIds: sql<string[]>`coalesce((select array_agg(ss.space_id) from site_spaces ss where ss.site_id = ${siteId}), '{}')`,
        keyActive: sql<boolean>`exists (select 1 from share_links sl where sl.site_id = ${siteId} and sl.key = ${sql.placeholder('key')} and sl.active)`,
      })
      .from(sites)
      .where(and(eq(sites.id, siteId), eq(sites.organizationId, sql.placeholder('org')), eq(sites.published, true)))
      .prepare('quire_site_token')
  );
}

const refused = () => new UnauthenticatedError('Invalid or expired site API token: look the site URL up again for a new one');

/**
 * The viewer of a site token: verified, then held against the site in one statement (still
 * published, same visibility, its share key still active, which of its spaces it still publishes).
 */
export async function loadSiteViewer(db: Db, token: string, now: Date): Promise<Viewer> {
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, await serverSecret(db, SECRET_NAME), { algorithms: ['HS256'], audience: AUDIENCE, currentDate: now, requiredClaims: ['exp', 'sub'] }));
  } catch {
    throw refused();
  }
  const { sub: siteId, org, spaces, vis, key } = claims;
  if (typeof siteId !== 'string' || typeof org !== 'string' || !Array.isArray(spaces) || typeof vis !== 'string') throw refused();
  let statement = statements.get(db);
  if (!statement) statements.set(db, (statement = prepareSiteStatement(db)));
  const [row] = await statement.execute({ siteId, org, key: typeof key === 'string' ? key : '' });
  if (!row || row.visibility !== vis || (vis === 'share-link' && !row.keyActive)) throw refused();
  const current = new Set(row.spaceIds);
  const grant: SiteGrant = { organizationId: org, siteId, spaceIds: new Set(spaces.filter((s): s is string => typeof s === 'string' && current.has(s))) };
  return {
    // A stand-in for the site's visitor: a member of nothing, never written anywhere (the token writes nothing).
    user: { id: `site-visitor:${siteId}`, displayName: 'Site visitor', email: '', photoUrl: null, createdAt: new Date(0) },
    memberships: new Map(),
    organizations: new Map(),
    site: grant,
  };
}
