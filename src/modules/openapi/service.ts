import { requireViewer, type RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, hiddenAsMissing } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import type { TaskDefinition } from '../../jobs/job';
import { newId } from '../../lib/ids';
import { getOrganization } from '../organizations/service';
import type { OrganizationRow } from '../../db/schema/organizations';
import { slugSchema, specCreateSchema, specPatchSchema, specPutSchema, type SpecCreateInput, type SpecPatchInput, type SpecPutInput } from './input';
import { processSpec } from './processing';
import { specPages, specUnavailable, type GeneratedPages } from './pages';
import { deleteSpecRow, findSpec, findSpecById, findSpecsBySlugs, findVersion, findVersions, insertSpec, insertVersion, listSpecRows, updateSpecRow } from './queries';
import type { OpenApiSpecRow, OpenApiSpecVersionRow } from '../../db/schema/openapi';

export const PROCESS_TASK = 'openapi-process';

/** A spec with its organization: what its fields and checks need. */
export interface SpecInOrganization {
  organization: OrganizationRow;
  row: OpenApiSpecRow;
}

/** Members with a role read the organization's specs; guests do not (they see nothing of it). */
async function readableOrganization(ctx: RequestContext, organizationId: string): Promise<OrganizationRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assertVisible('organization:listMembers', org, 'Organization');
  return org;
}

/** Publishing a spec takes the `create` role, as making spaces does. */
async function assertMayEdit(ctx: RequestContext, org: OrganizationRow): Promise<void> {
  await ctx.authz.assert('organization:createContent', org, 'Publishing OpenAPI specifications takes the create role or more in the organization');
}

export async function specPermissions(ctx: RequestContext, org: OrganizationRow) {
  return { view: true, edit: await ctx.authz.can('organization:createContent', org) };
}

export async function listSpecs(ctx: RequestContext, organizationId: string, args: PageArgs, max: number): Promise<Page<SpecInOrganization>> {
  const organization = await readableOrganization(ctx, organizationId);
  const page = await listSpecRows(ctx.db, organization.id, args, max);
  return { ...page, items: page.items.map((row) => ({ organization, row })) };
}

export async function getSpec(ctx: RequestContext, organizationId: string, slug: string): Promise<SpecInOrganization> {
  const organization = await readableOrganization(ctx, organizationId);
  const row = await findSpec(ctx.db, organization.id, slug);
  if (!row) throw new NotFoundError('OpenAPI specification');
  return { organization, row };
}

/** A spec by id alone (GraphQL's node lookup), when the caller may read its organization. */
export async function getSpecById(ctx: RequestContext, id: string): Promise<SpecInOrganization> {
  requireViewer(ctx);
  const row = await findSpecById(ctx.db, id);
  if (!row) throw new NotFoundError('OpenAPI specification');
  const organization = await hiddenAsMissing(readableOrganization(ctx, row.organizationId), 'OpenAPI specification');
  return { organization, row };
}

const sourceColumns = (source: { url?: string; text?: string }) => ({ sourceUrl: source.url ?? null, sourceText: source.text ?? null });

/** Queues the processing of the spec's source: the answer comes back `pending`. */
async function queueProcessing(ctx: RequestContext, row: OpenApiSpecRow): Promise<void> {
  await ctx.jobs.send(PROCESS_TASK, { specId: row.id });
}

export async function createSpec(ctx: RequestContext, organizationId: string, input: SpecCreateInput): Promise<SpecInOrganization> {
  const organization = await readableOrganization(ctx, organizationId);
  await assertMayEdit(ctx, organization);
  const { slug, source } = parseInput(specCreateSchema, input);
  ctx.jobs.assertRunning(PROCESS_TASK);
  const now = ctx.now();
  const row = await insertSpec(ctx.db, { id: newId(), organizationId: organization.id, slug, ...sourceColumns(source), processingState: 'pending', createdAt: now, updatedAt: now });
  if (!row) throw new ConflictError(`slug: an OpenAPI specification "${slug}" already exists in the organization; PUT .../openapi/${slug} updates it`, ['slug']);
  await queueProcessing(ctx, row);
  return { organization, row };
}

/** Creates the spec with this slug, or gives it a new source: `created` says which (201 or 200). */
export async function putSpec(ctx: RequestContext, organizationId: string, slug: string, input: SpecPutInput): Promise<SpecInOrganization & { created: boolean }> {
  const organization = await readableOrganization(ctx, organizationId);
  await assertMayEdit(ctx, organization);
  parseInput(slugSchema, slug, ['slug']);
  const { source } = parseInput(specPutSchema, input);
  ctx.jobs.assertRunning(PROCESS_TASK);
  const now = ctx.now();
  const existing = await findSpec(ctx.db, organization.id, slug);
  let row: OpenApiSpecRow | null;
  let created = false;
  if (existing) row = await updateSpecRow(ctx.db, existing.id, { ...sourceColumns(source), processingState: 'pending', updatedAt: now });
  else {
    row = await insertSpec(ctx.db, { id: newId(), organizationId: organization.id, slug, ...sourceColumns(source), processingState: 'pending', createdAt: now, updatedAt: now });
    created = row !== null;
  }
  if (!row) throw new ConflictError('The specification changed meanwhile; send the request again');
  await queueProcessing(ctx, row);
  return { organization, row, created };
}

export async function updateSpecVisibility(ctx: RequestContext, spec: SpecInOrganization, input: SpecPatchInput): Promise<SpecInOrganization> {
  await assertMayEdit(ctx, spec.organization);
  const { visibility } = parseInput(specPatchSchema, input);
  const row = await updateSpecRow(ctx.db, spec.row.id, { visibility, updatedAt: ctx.now() });
  if (!row) throw new NotFoundError('OpenAPI specification');
  return { organization: spec.organization, row };
}

export async function deleteSpec(ctx: RequestContext, spec: SpecInOrganization): Promise<void> {
  await assertMayEdit(ctx, spec.organization);
  await deleteSpecRow(ctx.db, spec.row.id);
}

/** The spec's newest processed version, or null before the first. */
export async function latestVersion(ctx: RequestContext, spec: SpecInOrganization): Promise<OpenApiSpecVersionRow | null> {
  return spec.row.lastVersionId ? findVersion(ctx.db, spec.row.lastVersionId) : null;
}

/** The newest version of a public spec, for its published URL; null when there is none to show. */
export async function publishedSpecText(ctx: RequestContext, organizationId: string, slug: string): Promise<string | null> {
  const row = await findSpec(ctx.db, organizationId, slug);
  if (!row || row.visibility !== 'public' || !row.lastVersionId) return null;
  return (await findVersion(ctx.db, row.lastVersionId))?.text ?? null;
}

/** What a page computed from a spec shows: the latest version's pages, or why there are none. */
export type ComputedSpecPages = { state: 'ready'; versionId: string; pages: GeneratedPages } | { state: 'unavailable'; markdown: string };

export const computedSpecKey = (slug: string, models: boolean) => `${slug}\u0000${models ? 'models' : ''}`;

/**
 * The pages of computed content built from the organization's specs, in two statements. No
 * permission of its own: whoever reads the space reads what its pages show, as with any content.
 */
export async function computedSpecPages(ctx: RequestContext, organizationId: string, requests: readonly { slug: string; models: boolean }[]): Promise<Map<string, ComputedSpecPages>> {
  const specs = await findSpecsBySlugs(ctx.db, organizationId, [...new Set(requests.map((r) => r.slug))]);
  const bySlug = new Map(specs.map((s) => [s.slug, s]));
  const versions = new Map((await findVersions(ctx.db, specs.map((s) => s.lastVersionId).filter((id): id is string => id !== null))).map((v) => [v.id, v]));
  const out = new Map<string, ComputedSpecPages>();
  for (const { slug, models } of requests) {
    const spec = bySlug.get(slug);
    const version = spec?.lastVersionId ? versions.get(spec.lastVersionId) : undefined;
    let result: ComputedSpecPages;
    if (version) result = { state: 'ready', versionId: version.id, pages: specPages(slug, version, { models }) };
    else if (!spec) result = { state: 'unavailable', markdown: specUnavailable(slug, 'missing') };
    else if (spec.lastProcessErrorCode) result = { state: 'unavailable', markdown: specUnavailable(slug, 'failed', `${spec.lastProcessErrorCode}${spec.lastProcessError ? ` (${spec.lastProcessError})` : ''}`) };
    else result = { state: 'unavailable', markdown: specUnavailable(slug, 'pending') };
    out.set(computedSpecKey(slug, models), result);
  }
  return out;
}

/** Whether the organization has a spec of this slug, for a page computed from it. */
export async function specSlugExists(ctx: RequestContext, organizationId: string, slug: string): Promise<boolean> {
  return (await findSpec(ctx.db, organizationId, slug)) !== null;
}

/**
 * Processes one spec's current source: `progress` while it runs, then `complete`, with a new
 * version on success, or the error code and reason on failure. A spec deleted meanwhile is left.
 */
export const openApiProcessTask: TaskDefinition<{ specId: string }> = {
  name: PROCESS_TASK,
  async run({ db, config, now, log }, { specId }) {
    const start = await updateSpecRow(db, specId, { processingState: 'progress' });
    if (!start) return { skipped: 'deleted' };
    const result = await processSpec({ url: start.sourceUrl, text: start.sourceText }, { allowHosts: config.fetchAllowHosts ?? [], timeoutMs: config.fetchTimeoutMs ?? 15_000 });
    const at = now();
    if (!result.ok) {
      log(`openapi-process ${start.slug}: ${result.code} ${result.message}`);
      await updateSpecRow(db, specId, { processingState: 'complete', lastProcessedAt: at, lastProcessErrorCode: result.code, lastProcessError: result.message });
      return { error: result.code };
    }
    const version = await insertVersion(db, { id: newId(), specId, text: result.text, title: result.title, apiVersion: result.apiVersion, operations: result.operations, createdAt: at });
    await updateSpecRow(db, specId, { processingState: 'complete', lastProcessedAt: at, lastVersionId: version.id, lastProcessErrorCode: null, lastProcessError: null });
    return { version: version.id, operations: result.operations.length };
  },
};
