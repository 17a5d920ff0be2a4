import type { RequestContext } from '../../context/request-context';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import type {
  SectionCreateInput,
  SectionGroupCreateInput,
  SectionGroupUpdateInput,
  SectionUpdateInput,
  ShareLinkCreateInput,
  ShareLinkUpdateInput,
  SiteCreateInput,
  SiteListInput,
  SiteRedirectCreateInput,
  SiteRedirectLookupInput,
  SiteRedirectUpdateInput,
  SiteSpaceAddInput,
  SiteSpaceUpdateInput,
  SiteUpdateInput,
  StructureSortInput,
} from './input';
import { presentAdaptiveSchema, presentMoved, presentPublishedSite, presentSection, presentSectionGroup, presentShareLink, presentSite, presentSiteRedirect, presentSiteSearchHit, presentSiteSpace, presentStructure } from './present';
import {
  searchSite,
  type SiteSearchInput,
  getAdaptiveSchema,
  listTemplateConditions,
  publishedSiteContent,
  setAdaptiveSchema,
  addSection,
  addSectionGroup,
  addSectionToGroup,
  deleteSection,
  deleteSectionGroup,
  listSectionGroups,
  listSections,
  moveStructureItem,
  removeSectionFromGroup,
  siteStructure,
  sortStructure,
  updateSection,
  updateSectionGroup,
  addSiteSpace,
  createShareLink,
  createSite,
  deleteShareLink,
  deleteSite,
  deleteSiteSpace,
  getShareLink,
  getSite,
  listShareLinks,
  listSites,
  listSiteSpaces,
  setPublished,
  updateShareLink,
  updateSite,
  updateSiteSpace,
  createSiteRedirect,
  deleteSiteRedirect,
  getSiteRedirect,
  listSiteRedirects,
  resolveSiteRedirect,
  updateSiteRedirect,
} from './service';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

/** The site a path names, resolved once (a hidden or missing one is a 404) for the service to act on. */
const siteOfPath = (ctx: RequestContext, params: Record<string, string>) => getSite(ctx, params.organizationId, params.siteId);

export function siteRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/sites', async ({ ctx, params, query }) => {
    const types = query.getAll('type').flatMap((t) => t.split(','));
    const filter = { space: optionalParam(query, 'space'), title: optionalParam(query, 'title'), published: optionalParam(query, 'published'), ...(types.length ? { type: types } : {}) } as SiteListInput;
    return { status: 200, body: await renderList(ctx, await listSites(ctx, params.organizationId, filter, pageArgs(query), REST_MAX), presentSite) };
  });

  r.post('/v1/orgs/:organizationId/sites', async ({ ctx, params, body }) => {
    const site = await presentSite(ctx, await createSite(ctx, params.organizationId, bodyAs<SiteCreateInput>(body)));
    return { status: 201, body: site, headers: { location: site.urls.location } };
  });

  r.get(SITE, async ({ ctx, params }) => ({ status: 200, body: await presentSite(ctx, await siteOfPath(ctx, params)) }));

  r.patch(SITE, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSite(ctx, await updateSite(ctx, await siteOfPath(ctx, params), bodyAs<SiteUpdateInput>(body))),
  }));

  r.delete(SITE, async ({ ctx, params }) => {
    await deleteSite(ctx, await siteOfPath(ctx, params));
    return { status: 204 };
  });

  r.post(`${SITE}/publish`, async ({ ctx, params }) => ({ status: 200, body: await presentSite(ctx, await setPublished(ctx, await siteOfPath(ctx, params), true)) }));
  r.post(`${SITE}/unpublish`, async ({ ctx, params }) => ({ status: 200, body: await presentSite(ctx, await setPublished(ctx, await siteOfPath(ctx, params), false)) }));

  r.get(`${SITE}/site-spaces`, async ({ ctx, params, query }) => {
    const page = await listSiteSpaces(ctx, params.organizationId, params.siteId, { default: optionalParam(query, 'default'), shareKey: optionalParam(query, 'shareKey') }, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentSiteSpace) };
  });

  r.post(`${SITE}/site-spaces`, async ({ ctx, params, body }) => ({
    status: 201,
    body: await presentSiteSpace(ctx, await addSiteSpace(ctx, await siteOfPath(ctx, params), bodyAs<SiteSpaceAddInput>(body))),
  }));

  r.patch(`${SITE}/site-spaces/:siteSpaceId`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSiteSpace(ctx, await updateSiteSpace(ctx, await siteOfPath(ctx, params), params.siteSpaceId, bodyAs<SiteSpaceUpdateInput>(body))),
  }));

  r.delete(`${SITE}/site-spaces/:siteSpaceId`, async ({ ctx, params }) => {
    await deleteSiteSpace(ctx, await siteOfPath(ctx, params), params.siteSpaceId);
    return { status: 204 };
  });

  r.get(`${SITE}/share-links`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await renderList(ctx, await listShareLinks(ctx, await siteOfPath(ctx, params), pageArgs(query), REST_MAX), presentShareLink),
  }));

  r.post(`${SITE}/share-links`, async ({ ctx, params, body }) => ({
    status: 201,
    body: presentShareLink(ctx, await createShareLink(ctx, await siteOfPath(ctx, params), bodyAs<ShareLinkCreateInput>(body))),
  }));

  r.patch(`${SITE}/share-links/:shareLinkId`, async ({ ctx, params, body }) => ({
    status: 200,
    body: presentShareLink(ctx, await updateShareLink(ctx, await getShareLink(ctx, params.organizationId, params.siteId, params.shareLinkId), bodyAs<ShareLinkUpdateInput>(body))),
  }));

  r.delete(`${SITE}/share-links/:shareLinkId`, async ({ ctx, params }) => {
    await deleteShareLink(ctx, await getShareLink(ctx, params.organizationId, params.siteId, params.shareLinkId));
    return { status: 204 };
  });

  r.post(`${SITE}/site-spaces/:siteSpaceId/move`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentMoved(ctx, await moveStructureItem(ctx, await siteOfPath(ctx, params), { type: 'site-space', id: params.siteSpaceId }, body)),
  }));

  r.get(`${SITE}/structure`, async ({ ctx, params }) => ({ status: 200, body: await presentStructure(ctx, await siteStructure(ctx, await siteOfPath(ctx, params))) }));

  r.patch(`${SITE}/structure/sort`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentMoved(ctx, await sortStructure(ctx, await siteOfPath(ctx, params), bodyAs<StructureSortInput>(body))),
  }));

  r.get(`${SITE}/sections`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await renderList(ctx, await listSections(ctx, params.organizationId, params.siteId, pageArgs(query), REST_MAX, optionalParam(query, 'shareKey')), presentSection),
  }));

  r.post(`${SITE}/sections`, async ({ ctx, params, body }) => ({
    status: 201,
    body: await presentSection(ctx, await addSection(ctx, await siteOfPath(ctx, params), bodyAs<SectionCreateInput>(body))),
  }));

  r.patch(`${SITE}/sections/:siteSectionId`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSection(ctx, await updateSection(ctx, await siteOfPath(ctx, params), params.siteSectionId, bodyAs<SectionUpdateInput>(body))),
  }));

  r.delete(`${SITE}/sections/:siteSectionId`, async ({ ctx, params }) => {
    await deleteSection(ctx, await siteOfPath(ctx, params), params.siteSectionId);
    return { status: 204 };
  });

  r.post(`${SITE}/sections/:siteSectionId/move`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentMoved(ctx, await moveStructureItem(ctx, await siteOfPath(ctx, params), { type: 'site-section', id: params.siteSectionId }, body)),
  }));

  r.get(`${SITE}/section-groups`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await renderList(ctx, await listSectionGroups(ctx, await siteOfPath(ctx, params), pageArgs(query), REST_MAX), presentSectionGroup),
  }));

  r.post(`${SITE}/section-groups`, async ({ ctx, params, body }) => ({
    status: 201,
    body: await presentSectionGroup(ctx, await addSectionGroup(ctx, await siteOfPath(ctx, params), bodyAs<SectionGroupCreateInput>(body))),
  }));

  r.patch(`${SITE}/section-groups/:siteSectionGroupId`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSectionGroup(ctx, await updateSectionGroup(ctx, await siteOfPath(ctx, params), params.siteSectionGroupId, bodyAs<SectionGroupUpdateInput>(body))),
  }));

  r.delete(`${SITE}/section-groups/:siteSectionGroupId`, async ({ ctx, params }) => {
    await deleteSectionGroup(ctx, await siteOfPath(ctx, params), params.siteSectionGroupId);
    return { status: 204 };
  });

  r.post(`${SITE}/section-groups/:siteSectionGroupId/sections`, async ({ ctx, params, body }) => ({
    status: 201,
    body: await presentSectionGroup(ctx, await addSectionToGroup(ctx, await siteOfPath(ctx, params), params.siteSectionGroupId, bodyAs<{ sectionId?: unknown }>(body))),
  }));

  r.delete(`${SITE}/section-groups/:siteSectionGroupId/sections/:siteSectionId`, async ({ ctx, params }) => {
    await removeSectionFromGroup(ctx, await siteOfPath(ctx, params), params.siteSectionGroupId, params.siteSectionId);
    return { status: 204 };
  });

  r.post(`${SITE}/section-groups/:siteSectionGroupId/move`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentMoved(ctx, await moveStructureItem(ctx, await siteOfPath(ctx, params), { type: 'site-section-group', id: params.siteSectionGroupId }, body)),
  }));

  r.get(`${SITE}/adaptive-schema`, async ({ ctx, params }) => ({ status: 200, body: presentAdaptiveSchema(await getAdaptiveSchema(ctx, await siteOfPath(ctx, params))) }));

  r.put(`${SITE}/adaptive-schema`, async ({ ctx, params, body }) => ({ status: 200, body: presentAdaptiveSchema(await setAdaptiveSchema(ctx, await siteOfPath(ctx, params), body)) }));

  r.get(`${SITE}/adaptive-schema/template-conditions`, async ({ ctx, params }) => ({ status: 200, body: { items: await listTemplateConditions(ctx, await siteOfPath(ctx, params)) } }));

  r.get(`${SITE}/published`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await presentPublishedSite(ctx, await publishedSiteContent(ctx, params.organizationId, params.siteId, optionalParam(query, 'shareKey'))),
  }));

  r.post(`${SITE}/search`, async ({ ctx, params, query, body }) => {
    const page = await searchSite(ctx, params.organizationId, params.siteId, bodyAs<SiteSearchInput>(body), pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentSiteSearchHit) };
  });

  siteRedirectRoutes(r);
}

/** The spec's site-redirects: managed by those who manage the site, read by source by its readers (the renderer's site token too). */
function siteRedirectRoutes(r: RestRouter): void {
  const redirectOfPath = (ctx: RequestContext, params: Record<string, string>) => getSiteRedirect(ctx, params.organizationId, params.siteId, params.siteRedirectId);

  r.get(`${SITE}/redirects`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await renderList(ctx, await listSiteRedirects(ctx, await siteOfPath(ctx, params), pageArgs(query), REST_MAX), presentSiteRedirect),
  }));

  r.post(`${SITE}/redirects`, async ({ ctx, params, body }) => ({
    status: 201,
    body: presentSiteRedirect(ctx, await createSiteRedirect(ctx, await siteOfPath(ctx, params), bodyAs<SiteRedirectCreateInput>(body))),
  }));

  r.patch(`${SITE}/redirects/:siteRedirectId`, async ({ ctx, params, body }) => ({
    status: 200,
    body: presentSiteRedirect(ctx, await updateSiteRedirect(ctx, await redirectOfPath(ctx, params), bodyAs<SiteRedirectUpdateInput>(body))),
  }));

  // 204 whether it was there or not (the API document's rule 5, which the spec's 205 "deleted" gives way to).
  r.delete(`${SITE}/redirects/:siteRedirectId`, async ({ ctx, params }) => {
    await deleteSiteRedirect(ctx, await redirectOfPath(ctx, params));
    return { status: 204 };
  });

  r.get(`${SITE}/redirect`, async ({ ctx, params, query }) => {
    const shareKey = optionalParam(query, 'shareKey');
    const found = await resolveSiteRedirect(ctx, params.organizationId, params.siteId, { source: query.get('source') ?? undefined, ...(shareKey ? { shareKey } : {}) } as SiteRedirectLookupInput);
    return { status: 200, body: { redirect: presentSiteRedirect(ctx, found), target: found.target } };
  });
}
