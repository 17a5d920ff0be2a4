import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { byTimeThenId, keysetPage, keysetPages } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError, hiddenAsMissing } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { getOrganization } from '../organizations/service';
import { organizations, type OrganizationRow } from '../../db/schema/organizations';
import { addMembership } from '../members/service';
import { organizationMembers } from '../../db/schema/members';
import { teamById } from '../teams/service';
import { teamMembers, type TeamRow } from '../../db/schema/teams';
import { createApiToken, ensureUser } from '../users/service';
import { emailSchema } from '../../domain/email';
import { samlPostSchema, samlProviderCreateSchema, samlProviderUpdateSchema, type SamlPost, type SamlProviderCreateInput, type SamlProviderUpdateInput } from './input';
import { parseAppPath } from '../../lib/app-paths';
import { samlProviderById } from './loaders';
import { authnRequestUrl, serviceProviderMetadata, serviceUrls, verifySamlResponse, type ServiceUrls, type VerifiedAssertion } from './protocol';
import { samlAssertions, samlProviders, type SamlProviderRow } from '../../db/schema/saml';

const ADMINS_ONLY = 'Only organization admins can manage SAML providers';

const providerOrder = byTimeThenId<SamlProviderRow>(samlProviders.createdAt, (p) => p.createdAt, samlProviders.id);

/** The organization, refused unless the viewer administers it: provider settings are admin settings. */
async function administeredOrganization(ctx: RequestContext, organizationId: string): Promise<OrganizationRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, ADMINS_ONLY);
  return org;
}

/** A team of this organization, for `defaultTeam`; anything else is a 400 naming the field. */
async function teamOfOrganization(ctx: RequestContext, org: OrganizationRow, teamId: string): Promise<TeamRow> {
  const team = await teamById(ctx).load(teamId);
  if (!team || team.organizationId !== org.id) throw new ValidationError(`defaultTeam: "${teamId}" is not a team of this organization`, ['defaultTeam']);
  return team;
}

export async function listSamlProviders(ctx: RequestContext, organizationId: string, args: PageArgs, max: number): Promise<Page<SamlProviderRow>> {
  const org = await administeredOrganization(ctx, organizationId);
  const page = await keysetPage(ctx.db, { table: samlProviders, where: eq(samlProviders.organizationId, org.id), keys: providerOrder, direction: 'asc' }, args, max);
  for (const p of page.items) samlProviderById(ctx).prime(p.id, p);
  return page;
}

/** Providers of many organizations in one statement, for nested GraphQL; non-admins get FORBIDDEN per organization. */
export async function listSamlProvidersOfOrganizations(ctx: RequestContext, orgs: readonly OrganizationRow[], args: PageArgs, max: number): Promise<Map<string, Page<SamlProviderRow> | Error>> {
  const ids = (await ctx.authz.allowed('organization:admin', orgs)).map((o) => o.id);
  const pages = await keysetPages(
    ctx.db,
    { table: samlProviders, keys: providerOrder, direction: 'asc', partition: samlProviders.organizationId, parentIds: ids, parentOf: (p) => p.organizationId },
    args,
    max,
  );
  return new Map(orgs.map((o) => [o.id, pages.get(o.id) ?? new ForbiddenError(ADMINS_ONLY)]));
}

/** A provider of that organization; another organization's provider is NOT_FOUND, like a missing one. */
export async function getSamlProvider(ctx: RequestContext, organizationId: string, providerId: string): Promise<SamlProviderRow> {
  const org = await administeredOrganization(ctx, organizationId);
  const provider = await samlProviderById(ctx).load(providerId);
  if (!provider || provider.organizationId !== org.id) throw new NotFoundError('SAML provider');
  return provider;
}

/** A provider by its id alone (GraphQL): the same checks, and the same NOT_FOUND for what the viewer cannot see. */
export async function getSamlProviderById(ctx: RequestContext, providerId: string): Promise<SamlProviderRow> {
  requireViewer(ctx);
  const provider = await samlProviderById(ctx).load(providerId);
  if (!provider) throw new NotFoundError('SAML provider');
  // Only admins read providers: anyone else is refused before the lookup by REST, and here, where the lookup comes first, told it is missing.
  return hiddenAsMissing(getSamlProvider(ctx, provider.organizationId, providerId), 'SAML provider');
}

export async function createSamlProvider(ctx: RequestContext, organizationId: string, input: SamlProviderCreateInput): Promise<SamlProviderRow> {
  const org = await administeredOrganization(ctx, organizationId);
  const parsed = parseInput(samlProviderCreateSchema, input);
  if (parsed.defaultTeam) await teamOfOrganization(ctx, org, parsed.defaultTeam);
  const [created] = await ctx.db
    .insert(samlProviders)
    .values({
      id: newId(),
      organizationId: org.id,
      label: parsed.label,
      entityId: parsed.entityID,
      ssoUrl: parsed.ssoURL,
      certificate: parsed.certificate,
      defaultTeamId: parsed.defaultTeam ?? null,
      // People who sign in read by default; `null` asks for guests.
      defaultRole: parsed.defaultRole === undefined ? 'read' : parsed.defaultRole,
      createdAt: ctx.now(),
    })
    .returning();
  samlProviderById(ctx).prime(created.id, created);
  return created;
}

export async function updateSamlProvider(ctx: RequestContext, provider: SamlProviderRow, input: SamlProviderUpdateInput): Promise<SamlProviderRow> {
  const org = await administeredOrganization(ctx, provider.organizationId);
  const parsed = parseInput(samlProviderUpdateSchema, input ?? {});
  if (parsed.defaultTeam) await teamOfOrganization(ctx, org, parsed.defaultTeam);
  const changes: Partial<SamlProviderRow> = {};
  if (parsed.label !== undefined) changes.label = parsed.label;
  if (parsed.entityID !== undefined) changes.entityId = parsed.entityID;
  if (parsed.ssoURL !== undefined) changes.ssoUrl = parsed.ssoURL;
  if (parsed.certificate !== undefined) changes.certificate = parsed.certificate;
  if (parsed.defaultTeam !== undefined) changes.defaultTeamId = parsed.defaultTeam;
  if (parsed.defaultRole !== undefined) changes.defaultRole = parsed.defaultRole;
  if (Object.keys(changes).length === 0) return provider;
  const [updated] = await ctx.db.update(samlProviders).set(changes).where(eq(samlProviders.id, provider.id)).returning();
  samlProviderById(ctx).clear(provider.id).prime(provider.id, updated);
  return updated;
}

/** Deletes a provider; a missing one answers like a deleted one (204), once the organization is checked. */
export async function deleteSamlProvider(ctx: RequestContext, organizationId: string, providerId: string): Promise<void> {
  const org = await administeredOrganization(ctx, organizationId);
  await ctx.db.delete(samlProviders).where(and(eq(samlProviders.id, providerId), eq(samlProviders.organizationId, org.id)));
  samlProviderById(ctx).clear(providerId);
}

/** The team new members join, when the provider has one. */
export async function samlProviderDefaultTeam(ctx: RequestContext, provider: SamlProviderRow): Promise<TeamRow | null> {
  return provider.defaultTeamId ? teamById(ctx).load(provider.defaultTeamId) : null;
}

/**
 * The sign-in choices of an organization, for a login page: every member, guests included, may
 * read them. They name no secret: a label and where to start.
 */
export async function listSsoLogins(ctx: RequestContext, organizationId: string): Promise<SamlProviderRow[]> {
  const org = await getOrganization(ctx, organizationId);
  const rows = await ctx.db.select().from(samlProviders).where(eq(samlProviders.organizationId, org.id)).orderBy(samlProviders.createdAt, samlProviders.id).limit(100);
  return rows;
}

/** Our side of the provider: the entity id, ACS URL and start URL an IdP is configured with. */
export function samlServiceUrls(ctx: RequestContext, provider: SamlProviderRow): ServiceUrls {
  return serviceUrls(ctx.config.publicUrl, provider.id);
}

/** A provider for the public sign-in endpoints: whoever follows a start URL has no token yet. */
async function signInProvider(ctx: RequestContext, providerId: string): Promise<SamlProviderRow> {
  const provider = await samlProviderById(ctx).load(providerId);
  if (!provider) throw new NotFoundError('SAML provider');
  return provider;
}

/** Where to go in the app after signing in: a path of the app only, never another site. */
function appPath(value: string | undefined): string {
  // Only a page the app answers (a `urls.app` path, query and anchor aside): the browser lands there.
  if (!value || value.length > 1024 || !/^\/(?![/\\])[^\s]*$/.test(value)) return '/';
  return parseAppPath(value.split(/[?#]/, 1)[0]) ? value : '/';
}

/** The IdP URL that starts signing in (HTTP-Redirect binding); `next` is the app path to land on. */
export async function startSamlSignIn(ctx: RequestContext, providerId: string, next?: string): Promise<string> {
  return authnRequestUrl(ctx, await signInProvider(ctx, providerId), appPath(next));
}

export async function samlMetadata(ctx: RequestContext, providerId: string): Promise<string> {
  return serviceProviderMetadata(ctx, await signInProvider(ctx, providerId));
}

const EMAIL_ATTRIBUTES = ['email', 'mail', 'emailAddress', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME_ATTRIBUTES = ['displayName', 'name', 'cn', 'urn:oid:2.16.840.1.113730.3.1.241', 'http://schemas.microsoft.com/identity/claims/displayname'];

function firstString(attributes: Record<string, unknown>, names: string[]): string | undefined {
  for (const name of names) {
    const raw = attributes[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/**
 * Who the assertion names: an e-mail attribute, else a NameID that is an address, in the form
 * users are stored and found by (lower case), so that every check below reads the same address.
 */
function identity(assertion: VerifiedAssertion): { email: string; name?: string } {
  const named = firstString(assertion.attributes, EMAIL_ATTRIBUTES) ?? (assertion.nameID.includes('@') ? assertion.nameID : undefined);
  if (!named) throw new UnauthenticatedError('SAML response refused: it names no e-mail address (NameID or an email attribute)');
  const email = emailSchema.safeParse(named);
  if (!email.success) throw new UnauthenticatedError('SAML response refused: the e-mail address it names is not valid');
  const name = firstString(assertion.attributes, NAME_ATTRIBUTES)?.slice(0, 100);
  return { email: email.data, name };
}

/** Whether the address is at one of the domains: exactly one of them; a subdomain is another domain. */
function atDomain(email: string, domains: readonly string[]): boolean {
  return domains.includes(email.slice(email.lastIndexOf('@') + 1));
}

/**
 * Spends the assertion before anything else: its id is kept until it expires, so it signs no one
 * in a second time, on any instance, and a refused one cannot be tried again once its subject
 * would be let in.
 */
async function spendAssertion(ctx: RequestContext, provider: SamlProviderRow, assertion: VerifiedAssertion): Promise<void> {
  await ctx.db.delete(samlAssertions).where(and(eq(samlAssertions.providerId, provider.id), lt(samlAssertions.expiresAt, ctx.now())));
  const [fresh] = await ctx.db
    .insert(samlAssertions)
    .values({ providerId: provider.id, assertionId: assertion.assertionId, expiresAt: assertion.expiresAt })
    .onConflictDoNothing()
    .returning();
  if (!fresh) throw new UnauthenticatedError('SAML response refused: this assertion was already used');
}

export interface SamlSignIn {
  token: string;
  userId: string;
  organizationId: string;
  created: boolean;
  /** Where the browser goes next: the app, with the token in the fragment (never sent to a server). */
  redirect: string;
}

/**
 * The assertion consumer service: verifies the posted response, spends it, then signs its subject
 * in, if this organization's provider may vouch for them: a member of the organization (not
 * disabled), an address at one of its e-mail domains, or an address no user has yet, who is then
 * created. Anyone else is refused (403) and nothing is written. A newcomer joins with the
 * provider's default role and team; every one becomes an SSO member. The token made acts in this
 * organization only.
 */
export async function completeSamlSignIn(ctx: RequestContext, providerId: string, post: SamlPost): Promise<SamlSignIn> {
  const provider = await signInProvider(ctx, providerId);
  const { SAMLResponse, RelayState } = parseInput(samlPostSchema, post);
  const assertion = await verifySamlResponse(ctx, provider, SAMLResponse);
  const who = identity(assertion);
  const team = await samlProviderDefaultTeam(ctx, provider);
  await spendAssertion(ctx, provider, assertion);
  const result = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [org] = await tx.select({ emailDomains: organizations.emailDomains }).from(organizations).where(eq(organizations.id, provider.organizationId));
    const { user, created } = await ensureUser(db, who.name ? { email: who.email, name: who.name } : { email: who.email });
    const key = and(eq(organizationMembers.organizationId, provider.organizationId), eq(organizationMembers.userId, user.id));
    const [member] = await tx.select().from(organizationMembers).where(key);
    if (member?.disabled) throw new ForbiddenError('Your membership of this organization is disabled');
    // Someone who already has an account elsewhere is the provider's to sign in only when they are
    // its organization's: a member, or at one of its domains. Nothing has been written for them.
    if (!member && !created && !atDomain(who.email, org.emailDomains)) {
      throw new ForbiddenError(
        `This organization's identity provider cannot sign in ${who.email}: that account is not a member of the organization, and its domain is not one of the organization's e-mail domains`,
      );
    }
    const joined = member ? null : await addMembership(tx, { organizationId: provider.organizationId, userId: user.id, role: provider.defaultRole, sso: true, joinedAt: ctx.now() });
    if (!joined) {
      // A member already, or one who joined meanwhile: kept as they are, marked SSO.
      const [kept] = await tx.update(organizationMembers).set({ sso: true }).where(and(key, eq(organizationMembers.disabled, false))).returning();
      if (!kept) throw new ForbiddenError('Your membership of this organization is disabled');
    }
    if (joined && team && team.organizationId === provider.organizationId) {
      await tx.insert(teamMembers).values({ teamId: team.id, organizationId: team.organizationId, userId: user.id, role: 'member', addedAt: ctx.now() }).onConflictDoNothing();
    }
    return { user, created, token: await createApiToken(db, user.id, `SSO: ${provider.label}`, provider.organizationId) };
  });
  const fragment = new URLSearchParams({ token: result.token, organization: provider.organizationId, user: result.user.id });
  return {
    token: result.token,
    userId: result.user.id,
    organizationId: provider.organizationId,
    created: result.created,
    redirect: `${ctx.config.appUrl}${appPath(RelayState)}#${fragment.toString()}`,
  };
}
