import { and, eq, inArray, sql } from 'drizzle-orm';
import { byTimeThenId, keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError, PreconditionFailedError, ValidationError, ConflictError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { documentUrlRule, LINK_URL, unsafeUrlIn, urlRuleText } from '../../domain/urls';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { componentErrors } from '../../lib/spec-schemas';
import { getOrganization } from '../organizations/service';
import type { OrganizationRow } from '../../db/schema/organizations';
import { getSpace } from '../spaces/service';
import type { SpaceRow } from '../../db/schema/spaces';
import { translationCreateSchema, translationUpdateSchema, type TranslationCreateInput, type TranslationUpdateInput } from './input';
import type { TaskDefinition } from '../../jobs/job';
import { translationById } from './loaders';
import { markQueued, unmarkQueued } from './queries';
import { NO_PROVIDER_MESSAGE, performTranslationRun, TRANSLATION_RUN_TASK } from './run';
import { translations, type TranslationRow } from '../../db/schema/translations';

/** Instructions when none are given: an empty document. */
const EMPTY_DOCUMENT = { object: 'document', data: { schemaVersion: 1 }, nodes: [] };

function checkedInstructions(value: Record<string, unknown> | undefined): Record<string, unknown> {
  if (value === undefined) return EMPTY_DOCUMENT;
  const errors = componentErrors('JSONDocument', value);
  if (errors) throw new ValidationError(`instructions must be a document: ${errors.join('; ')}`, ['instructions']);
  const unsafe = unsafeUrlIn(value, documentUrlRule);
  if (unsafe) throw new ValidationError(`instructions.${unsafe.path.join('.')} must be ${urlRuleText(LINK_URL)}`, ['instructions', ...unsafe.path]);
  return value;
}

const missingAsNull = (error: unknown) => {
  if (error instanceof NotFoundError) return null;
  throw error;
};

/** The row when it belongs to the organization and the viewer may see it; undefined otherwise. */
async function visibleIn(ctx: RequestContext, org: OrganizationRow, id: string): Promise<TranslationRow | undefined> {
  const row = (await translationById(ctx).load(id)) ?? undefined;
  return row && row.organizationId === org.id && (await ctx.authz.can('translation:view', row)) ? row : undefined;
}

/** A translation of the organization the viewer may see; anything else, another organization's included, is NOT_FOUND. */
export async function getTranslation(ctx: RequestContext, organizationId: string, id: string): Promise<TranslationRow> {
  const row = await findTranslation(ctx, organizationId, id);
  if (!row) throw new NotFoundError('Translation');
  return row;
}

/** Like `getTranslation`, but null for a translation the viewer cannot see (a delete of it succeeds); the organization must be visible. */
export async function findTranslation(ctx: RequestContext, organizationId: string, id: string): Promise<TranslationRow | null> {
  return (await visibleIn(ctx, await getOrganization(ctx, organizationId), id)) ?? null;
}

/** A translation by id alone (GraphQL's node and mutations); NOT_FOUND unless the viewer may see it. */
export async function getTranslationById(ctx: RequestContext, id: string): Promise<TranslationRow> {
  requireViewer(ctx);
  const row = (await translationById(ctx).load(id)) ?? undefined;
  const org = row && (await getOrganization(ctx, row.organizationId).catch(missingAsNull));
  if (!row || !org || !(await ctx.authz.can('translation:view', row))) throw new NotFoundError('Translation');
  return row;
}

const listSpec = (where: ReturnType<typeof and>): KeysetSpec<TranslationRow> => ({
  table: translations,
  where,
  keys: byTimeThenId(translations.createdAt, (t) => t.createdAt, translations.id),
  direction: 'desc',
});

/**
 * Whether the viewer sees the organization's translations: they do or do not see all of them, by
 * their role there, the rule of `translation:view` (members with a role), which `organization:
 * listMembers` shares.
 */
const seesTranslations = (ctx: RequestContext, org: OrganizationRow) => ctx.authz.can('organization:listMembers', org);

function remember(ctx: RequestContext, rows: Iterable<TranslationRow>): void {
  for (const row of rows) {
    translationById(ctx).prime(row.id, row);
    ctx.authz.remember('translation:view', row, true);
  }
}

/** The organization's translations, newest first; guests see none. */
export async function listTranslations(ctx: RequestContext, organizationId: string, args: PageArgs, max: number): Promise<Page<TranslationRow>> {
  const org = await getOrganization(ctx, organizationId);
  const visible = await seesTranslations(ctx, org);
  const page = await keysetPage(ctx.db, listSpec(and(eq(translations.organizationId, org.id), visible ? undefined : sql`false`)), args, max);
  remember(ctx, page.items);
  return page;
}

/** The translations of many organizations, one page each, in one statement (GraphQL). */
export async function listTranslationsOfOrganizations(ctx: RequestContext, orgs: readonly OrganizationRow[], args: PageArgs, max: number): Promise<Map<string, Page<TranslationRow>>> {
  const allowed = await ctx.authz.allowed('organization:listMembers', orgs);
  const ids = allowed.map((o) => o.id);
  const pages = await keysetPages(ctx.db, { ...listSpec(undefined), partition: translations.organizationId, parentIds: orgs.map((o) => o.id), parentOf: (t) => t.organizationId, where: ids.length ? inArray(translations.organizationId, ids) : sql`false` }, args, max);
  for (const page of pages.values()) remember(ctx, page.items);
  return pages;
}

/** The translations of many spaces (those whose source they are), one page each, in one statement (GraphQL). */
export async function listTranslationsOfSpaces(ctx: RequestContext, sources: readonly SpaceRow[], args: PageArgs, max: number): Promise<Map<string, Page<TranslationRow>>> {
  const orgs = await Promise.all([...new Set(sources.map((s) => s.organizationId))].map((id) => getOrganization(ctx, id).catch(missingAsNull)));
  const allowed = new Set((await ctx.authz.allowed('organization:listMembers', orgs.filter((o): o is OrganizationRow => o !== null))).map((o) => o.id));
  const ids = sources.filter((s) => allowed.has(s.organizationId)).map((s) => s.id);
  const pages = await keysetPages(ctx.db, { ...listSpec(undefined), partition: translations.sourceSpaceId, parentIds: sources.map((s) => s.id), parentOf: (t) => t.sourceSpaceId, where: ids.length ? inArray(translations.sourceSpaceId, ids) : sql`false` }, args, max);
  for (const page of pages.values()) remember(ctx, page.items);
  return pages;
}

/**
 * Creates a translation of a space of the organization into another language; nothing is
 * translated until it is run. Needs the `create` role in the organization (the first run creates
 * a space) and sight of the source space.
 */
export async function createTranslation(ctx: RequestContext, organizationId: string, input: TranslationCreateInput): Promise<TranslationRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:createContent', org, 'Only organization admins and creators can manage translations');
  const body = parseInput(translationCreateSchema, input);
  const instructions = checkedInstructions(body.instructions);
  const source = await getSpace(ctx, body.source.space).catch(missingAsNull);
  if (!source || source.organizationId !== org.id) throw new ValidationError(`source.space: there is no space ${body.source.space} in this organization`, ['source', 'space']);
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(translations)
    .values({ id: newId(), organizationId: org.id, sourceSpaceId: source.id, sourceLanguage: body.source.language, language: body.language, instructions, createdAt: now, updatedAt: now })
    .returning();
  translationById(ctx).prime(row!.id, row!);
  return row!;
}

async function assertManages(ctx: RequestContext, row: TranslationRow): Promise<void> {
  await ctx.authz.assert('translation:manage', row, 'Only organization admins and creators can manage translations');
}

/** Replaces the instructions given to the translator. */
export async function updateTranslation(ctx: RequestContext, row: TranslationRow, input: TranslationUpdateInput): Promise<TranslationRow> {
  await assertManages(ctx, row);
  const { instructions } = parseInput(translationUpdateSchema, input);
  const [updated] = await ctx.db
    .update(translations)
    .set({ instructions: checkedInstructions(instructions), updatedAt: ctx.now() })
    .where(eq(translations.id, row.id))
    .returning();
  if (!updated) throw new NotFoundError('Translation');
  translationById(ctx).clear(row.id).prime(row.id, updated);
  return updated;
}

/** Deletes the translation; the space it wrote stays. A missing one (null, from `findTranslation`) is deleted already. */
export async function deleteTranslation(ctx: RequestContext, row: TranslationRow | null): Promise<void> {
  if (!row) return;
  await assertManages(ctx, row);
  await ctx.db.delete(translations).where(eq(translations.id, row.id));
  translationById(ctx).clear(row.id);
}

/**
 * Queues a run: the job translates the pages changed since the last run into the result space
 * (made by the first run), acting as the caller. Refused while a run is queued or running, and
 * when the server has no translation provider.
 */
export async function runTranslation(ctx: RequestContext, row: TranslationRow): Promise<TranslationRow> {
  const viewer = requireViewer(ctx);
  await assertManages(ctx, row);
  if (!ctx.config.translate) throw new PreconditionFailedError(NO_PROVIDER_MESSAGE);
  const queued = await markQueued(ctx.db, row.id, viewer.user.id, ctx.now());
  if (!queued) throw new ConflictError('A run of this translation is already queued or running: wait for it to finish');
  try {
    await ctx.jobs.send(TRANSLATION_RUN_TASK, { translationId: row.id });
  } catch (error) {
    await unmarkQueued(ctx.db, row);
    throw error;
  }
  translationById(ctx).clear(row.id).prime(row.id, queued);
  return queued;
}

export async function translationPermissions(ctx: RequestContext, row: TranslationRow): Promise<{ view: boolean; edit: boolean }> {
  const [view, edit] = await Promise.all([ctx.authz.can('translation:view', row), ctx.authz.can('translation:manage', row)]);
  return { view, edit };
}

/** A run of a translation, queued by `runTranslation`. Not retried: a failure is recorded on the translation. */
export const translationRunTask: TaskDefinition<{ translationId: string }> = {
  name: TRANSLATION_RUN_TASK,
  expireInSeconds: 15 * 60,
  run: (ctx, { translationId }) => performTranslationRun(ctx, translationId),
};
