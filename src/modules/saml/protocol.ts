import type { CacheItem, CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { UnauthenticatedError } from '../../domain/errors';
import { newId } from '../../lib/ids';
import { samlRequests, type SamlProviderRow } from '../../db/schema/saml';

/** How long an AuthnRequest may wait for its answer. */
const REQUEST_TTL_MS = 10 * 60 * 1000;
/** Clocks of the IdP and of this server may differ this much. */
export const CLOCK_SKEW_MS = 60 * 1000;

/** Where the identity provider reaches us for one provider: our entity id, the ACS and the start URL. */
export interface ServiceUrls {
  entityID: string;
  acsURL: string;
  startURL: string;
}

export function serviceUrls(publicUrl: string, providerId: string): ServiceUrls {
  const base = `${publicUrl}/sso/saml/${encodeURIComponent(providerId)}`;
  return { entityID: base, acsURL: `${base}/acs`, startURL: `${base}/start` };
}

/**
 * AuthnRequest ids in PostgreSQL, so that the instance that receives the answer need not be the one
 * that sent the request. Each id is answered once: node-saml removes it when a response names it.
 */
class RequestStore implements CacheProvider {
  constructor(
    private readonly ctx: RequestContext,
    private readonly providerId: string,
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem> {
    const createdAt = this.ctx.now();
    await this.ctx.db.insert(samlRequests).values({ id: key, providerId: this.providerId, createdAt }).onConflictDoNothing();
    return { value, createdAt: createdAt.getTime() };
  }

  async getAsync(key: string): Promise<string | null> {
    const [row] = await this.ctx.db
      .select()
      .from(samlRequests)
      .where(and(eq(samlRequests.id, key), eq(samlRequests.providerId, this.providerId)));
    if (!row || row.createdAt.getTime() + REQUEST_TTL_MS <= this.ctx.now().getTime()) return null;
    // node-saml checks the age once more against its own clock: hand it a time it cannot find too old.
    return new Date().toISOString();
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (!key) return null;
    const [row] = await this.ctx.db.delete(samlRequests).where(and(eq(samlRequests.id, key), eq(samlRequests.providerId, this.providerId))).returning();
    return row ? row.id : null;
  }
}

/** node-saml and its XML signature stack load with the first SAML request, not at server start. */
async function samlFor(ctx: RequestContext, provider: SamlProviderRow): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  const urls = serviceUrls(ctx.config.publicUrl, provider.id);
  return new SAML({
    idpCert: provider.certificate,
    idpIssuer: provider.entityId,
    entryPoint: provider.ssoUrl,
    issuer: urls.entityID,
    callbackUrl: urls.acsURL,
    audience: urls.entityID,
    // Either the response or its assertion must carry a valid signature; node-saml refuses neither signed.
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    // Time windows are checked below against the app's clock, which node-saml cannot be given.
    acceptedClockSkewMs: -1,
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: 24 * 60 * 60 * 1000,
    cacheProvider: new RequestStore(ctx, provider.id),
    disableRequestedAuthnContext: true,
    generateUniqueId: () => `_${newId(32)}`,
  });
}

/** The IdP's sign-in URL with a new AuthnRequest (HTTP-Redirect binding: deflated, base64, in the query). */
export async function authnRequestUrl(ctx: RequestContext, provider: SamlProviderRow, relayState: string): Promise<string> {
  return (await samlFor(ctx, provider)).getAuthorizeUrlAsync(relayState, undefined, {});
}

/** This service provider's metadata, for the IdP's administrator. */
export async function serviceProviderMetadata(ctx: RequestContext, provider: SamlProviderRow): Promise<string> {
  return (await samlFor(ctx, provider)).generateServiceProviderMetadata(null);
}

/** What a verified assertion says, and until when it may be used. */
export interface VerifiedAssertion {
  assertionId: string;
  expiresAt: Date;
  nameID: string;
  attributes: Record<string, unknown>;
}

type Attrs = Record<string, string | undefined>;
type XmlNode = { $?: Attrs; [child: string]: unknown };

const children = (node: XmlNode | undefined, name: string): XmlNode[] => ((node?.[name] as XmlNode[] | undefined) ?? []);

const refused = (reason: string) => new UnauthenticatedError(`SAML response refused: ${reason}`);

function instant(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw refused(`${what} is not a time`);
  return ms;
}

/**
 * The validity window of the signed assertion, against the app's clock: Conditions' NotBefore and
 * NotOnOrAfter, and the bearer confirmation's NotOnOrAfter and Recipient. One NotOnOrAfter at least
 * is required: it bounds how long the assertion id must be remembered against replay.
 */
function checkWindow(ctx: RequestContext, assertion: XmlNode, acsURL: string): Date {
  const now = ctx.now().getTime();
  const conditions = children(assertion, 'Conditions')[0]?.$ ?? {};
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation').flatMap((c) => children(c, 'SubjectConfirmationData'));
  const notBefore = instant(conditions.NotBefore, 'NotBefore');
  const ends = [instant(conditions.NotOnOrAfter, 'NotOnOrAfter'), ...confirmations.map((d) => instant(d.$?.NotOnOrAfter, 'NotOnOrAfter'))].filter((v): v is number => v !== undefined);
  if (ends.length === 0) throw refused('the assertion has no NotOnOrAfter');
  const end = Math.min(...ends);
  if (notBefore !== undefined && now + CLOCK_SKEW_MS < notBefore) throw refused('the assertion is not valid yet (NotBefore)');
  if (now - CLOCK_SKEW_MS >= end) throw refused('the assertion has expired (NotOnOrAfter)');
  for (const data of confirmations) {
    const recipient = data.$?.Recipient;
    if (recipient !== undefined && recipient !== acsURL) throw refused(`the assertion is meant for ${recipient}, not this service`);
  }
  return new Date(end + CLOCK_SKEW_MS);
}

/**
 * Verifies a posted SAMLResponse with node-saml (signature against the provider's certificate,
 * issuer, audience, InResponseTo when given), then its time window against the app's clock.
 * Replay is the caller's to check, with the answer's assertion id, inside its transaction.
 */
export async function verifySamlResponse(ctx: RequestContext, provider: SamlProviderRow, samlResponse: string): Promise<VerifiedAssertion> {
  let profile: Profile | null;
  try {
    ({ profile } = await (await samlFor(ctx, provider)).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw refused(error instanceof Error ? error.message : 'it could not be verified');
  }
  if (!profile) throw refused('it carries no assertion');
  // node-saml compares idpIssuer on logout messages only: the assertion's Issuer is checked here.
  if (profile.issuer !== provider.entityId) throw refused(`the assertion was issued by ${profile.issuer || 'no one'}, not ${provider.entityId}`);
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) throw refused('the assertion has no ID');
  const expiresAt = checkWindow(ctx, assertion, serviceUrls(ctx.config.publicUrl, provider.id).acsURL);
  return { assertionId, expiresAt, nameID: profile.nameID ?? '', attributes: (profile.attributes as Record<string, unknown> | undefined) ?? {} };
}
