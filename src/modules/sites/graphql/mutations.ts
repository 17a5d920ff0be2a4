import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import {
  addSection,
  addSectionGroup,
  addSectionToGroup,
  addSiteSpace,
  createShareLink,
  createSite,
  deleteSection,
  deleteSectionGroup,
  deleteShareLink,
  deleteSite,
  deleteSiteSpace,
  getSectionById,
  getSectionGroupById,
  getShareLinkById,
  getSiteById,
  getSiteSpaceById,
  removeSectionFromGroup,
  setAdaptiveSchema,
  setPublished,
  sortStructure,
  updateSection,
  updateSectionGroup,
  updateShareLink,
  updateSite,
  updateSiteSpace,
} from '../service';
import { AgentsContextEnum, ShareLinkRef, SiteRef, SiteSectionGroupRef, SiteSectionRef, SiteSpaceRef, SiteTypeEnum, SiteVisibilityEnum } from './refs';

const MANAGE = 'Organization admins and members with the create role.';
const defined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as { [K in keyof T]?: NonNullable<T[K]> };
const sitePayload = (description: string) => ({ site: { type: SiteRef, description } });

defineMutation('siteCreate', {
  description: `Creates a site, from existing spaces or with a new empty or sample space. ${MANAGE}`,
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization.' }),
    title: t.string({ required: true, description: 'Title, 2 to 128 characters.' }),
    type: t.field({ type: SiteTypeEnum, description: 'Its plan; BASIC when absent.' }),
    visibility: t.field({ type: SiteVisibilityEnum, description: 'Who can read it; PUBLIC when absent.' }),
    spaceIds: t.globalIDList({ for: SpaceRef, description: 'Spaces to publish, in order.' }),
    newSpace: t.string({ description: '"empty" or "sample": create a new space for the site instead.' }),
  }),
  payload: sitePayload('The new site.'),
  resolve: async ({ organizationId, title, type, visibility, spaceIds, newSpace }, ctx) => ({
    site: await createSite(ctx, organizationId.id, { title, ...defined({ type, visibility }), ...(spaceIds ? { spaces: spaceIds.map((s) => s.id) } : newSpace ? { spaces: newSpace as 'empty' } : {}) }),
  }),
});

defineMutation('siteUpdate', {
  inputDescription: 'Input of siteUpdate. Absent fields stay as they are.',
  description: `Changes a site's settings. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    title: t.string({ description: 'Title, 2 to 128 characters.' }),
    visibility: t.field({ type: SiteVisibilityEnum, description: 'Who can read it.' }),
    basename: t.string({ description: 'Where it is published, unique in the organization.' }),
    proxy: t.string({ description: 'A host and path (company.com/docs) a proxy serves it at.' }),
    adaptiveContent: t.boolean({ description: 'Whether it adapts to visitor claims.' }),
    agentsContext: t.field({ type: AgentsContextEnum, description: 'Whether agents may read it.' }),
    defaultSiteSpaceId: t.globalID({ for: SiteSpaceRef, description: 'The default site space (of the default section, when it has sections).' }),
    defaultSiteSectionId: t.globalID({ for: SiteSectionRef, description: 'The default section.' }),
  }),
  payload: sitePayload('The site after the change.'),
  resolve: async ({ siteId, adaptiveContent, defaultSiteSpaceId, defaultSiteSectionId, ...rest }, ctx) => {
    const site = await getSiteById(ctx, siteId.id);
    const input = {
      ...defined(rest),
      ...(adaptiveContent != null ? { adaptiveContent: { enabled: adaptiveContent } } : {}),
      ...(defaultSiteSpaceId ? { defaultSiteSpace: defaultSiteSpaceId.id } : {}),
      ...(defaultSiteSectionId ? { defaultSiteSection: defaultSiteSectionId.id } : {}),
    };
    return { site: await updateSite(ctx, site, input) };
  },
});

defineMutation('siteDelete', {
  description: `Deletes a site; its spaces stay. ${MANAGE}`,
  input: (t) => ({ siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }) }),
  payload: { deletedSiteId: { type: 'ID', description: 'The global ID the site had.' } },
  gone: ({ siteId }) => ({ deletedSiteId: encodeGlobalID('Site', siteId.id) }),
  resolve: async ({ siteId }, ctx) => {
    const site = await getSiteById(ctx, siteId.id);
    await deleteSite(ctx, site);
    return { deletedSiteId: encodeGlobalID('Site', site.id) };
  },
});

defineMutation('sitePublish', {
  description: `Publishes a site, or takes it offline. A site needs a space to be published. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    published: t.boolean({ required: true, description: 'true to publish, false to take it offline.' }),
  }),
  payload: sitePayload('The site after the change.'),
  resolve: async ({ siteId, published }, ctx) => ({ site: await setPublished(ctx, await getSiteById(ctx, siteId.id), published) }),
});

defineMutation('siteAdaptiveSchemaSet', {
  description: `Sets the JSON Schema of the site's visitor claims: an object of claims a JSON Schema validator compiles. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    jsonSchema: t.field({ type: 'JSON', required: true, description: 'The schema.' }),
  }),
  payload: sitePayload('The site after the change.'),
  resolve: async ({ siteId, jsonSchema }, ctx) => ({ site: (await setAdaptiveSchema(ctx, await getSiteById(ctx, siteId.id), { jsonSchema })).site }),
});

defineMutation('siteSpaceAdd', {
  description: `Adds a space to a site: into a section, else the default section, else the root. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
    sectionId: t.globalID({ for: SiteSectionRef, description: 'The section to add it to.' }),
  }),
  payload: { siteSpace: { type: SiteSpaceRef, description: 'The new site space.' } },
  resolve: async ({ siteId, spaceId, sectionId }, ctx) => ({
    siteSpace: await addSiteSpace(ctx, await getSiteById(ctx, siteId.id), { spaceId: spaceId.id, ...(sectionId ? { sectionId: sectionId.id } : {}) }),
  }),
});

defineMutation('siteSpaceUpdate', {
  inputDescription: 'Input of siteSpaceUpdate. Absent fields stay as they are; an empty condition removes it.',
  description: `Changes a site space's path, condition or space. ${MANAGE}`,
  input: (t) => ({
    siteSpaceId: t.globalID({ for: SiteSpaceRef, required: true, description: 'The site space.' }),
    path: t.string({ description: 'Its path, unique among its siblings.' }),
    condition: t.string({ description: 'Who sees it: an expression over visitor claims; "" removes it.' }),
    spaceId: t.globalID({ for: SpaceRef, description: 'Another space to publish there.' }),
  }),
  payload: { siteSpace: { type: SiteSpaceRef, description: 'The site space after the change.' } },
  resolve: async ({ siteSpaceId, path, condition, spaceId }, ctx) => {
    const { site } = await getSiteSpaceById(ctx, siteSpaceId.id);
    const input = { ...defined({ path }), ...(condition != null ? { condition: condition === '' ? null : condition } : {}), ...(spaceId ? { spaceId: spaceId.id } : {}) };
    return { siteSpace: await updateSiteSpace(ctx, site, siteSpaceId.id, input) };
  },
});

defineMutation('siteSpaceRemove', {
  description: `Takes a space out of a site; the space stays. ${MANAGE}`,
  input: (t) => ({ siteSpaceId: t.globalID({ for: SiteSpaceRef, required: true, description: 'The site space.' }) }),
  payload: { removedSiteSpaceId: { type: 'ID', description: 'The global ID it had.' } },
  gone: ({ siteSpaceId }) => ({ removedSiteSpaceId: encodeGlobalID('SiteSpace', siteSpaceId.id) }),
  resolve: async ({ siteSpaceId }, ctx) => {
    const { site } = await getSiteSpaceById(ctx, siteSpaceId.id);
    await deleteSiteSpace(ctx, site, siteSpaceId.id);
    return { removedSiteSpaceId: encodeGlobalID('SiteSpace', siteSpaceId.id) };
  },
});

defineMutation('siteSectionAdd', {
  description: `Adds a section holding a space; a site's first section takes in its root spaces. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space it holds first.' }),
    title: t.string({ description: "Its title; the space's when absent." }),
    icon: t.string({ description: 'Its icon.' }),
  }),
  payload: { section: { type: SiteSectionRef, description: 'The new section.' } },
  resolve: async ({ siteId, spaceId, title, icon }, ctx) => ({ section: await addSection(ctx, await getSiteById(ctx, siteId.id), { spaceId: spaceId.id, ...defined({ title, icon }) }) }),
});

defineMutation('siteSectionUpdate', {
  inputDescription: 'Input of siteSectionUpdate. Absent fields stay as they are; an empty condition removes it.',
  description: `Changes a section. ${MANAGE}`,
  input: (t) => ({
    sectionId: t.globalID({ for: SiteSectionRef, required: true, description: 'The section.' }),
    title: t.string({ description: 'Title, 2 to 128 characters.' }),
    path: t.string({ description: 'Path, unique in the site.' }),
    description: t.string({ description: 'Description, at most 256 characters.' }),
    condition: t.string({ description: 'Who sees it; "" removes it.' }),
    icon: t.string({ description: 'Icon.' }),
    defaultSiteSpaceId: t.globalID({ for: SiteSpaceRef, description: 'Its default variant.' }),
  }),
  payload: { section: { type: SiteSectionRef, description: 'The section after the change.' } },
  resolve: async ({ sectionId, condition, defaultSiteSpaceId, ...rest }, ctx) => {
    const { site } = await getSectionById(ctx, sectionId.id);
    const input = { ...defined(rest), ...(condition != null ? { condition: condition === '' ? null : condition } : {}), ...(defaultSiteSpaceId ? { defaultSiteSpace: defaultSiteSpaceId.id } : {}) };
    return { section: await updateSection(ctx, site, sectionId.id, input) };
  },
});

defineMutation('siteSectionRemove', {
  description: `Deletes a section and its site spaces; the spaces stay. ${MANAGE}`,
  input: (t) => ({ sectionId: t.globalID({ for: SiteSectionRef, required: true, description: 'The section.' }) }),
  payload: { removedSectionId: { type: 'ID', description: 'The global ID it had.' } },
  gone: ({ sectionId }) => ({ removedSectionId: encodeGlobalID('SiteSection', sectionId.id) }),
  resolve: async ({ sectionId }, ctx) => {
    const { site } = await getSectionById(ctx, sectionId.id);
    await deleteSection(ctx, site, sectionId.id);
    return { removedSectionId: encodeGlobalID('SiteSection', sectionId.id) };
  },
});

defineMutation('siteSectionGroupAdd', {
  description: `Adds a group at the end of the site, with the sections named moved into it. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    title: t.string({ required: true, description: 'Title, 1 to 100 characters.' }),
    icon: t.string({ description: 'Icon.' }),
    sectionIds: t.globalIDList({ for: SiteSectionRef, description: 'Sections to move into it, in order.' }),
  }),
  payload: { group: { type: SiteSectionGroupRef, description: 'The new group.' } },
  resolve: async ({ siteId, title, icon, sectionIds }, ctx) => ({
    group: await addSectionGroup(ctx, await getSiteById(ctx, siteId.id), { title, ...defined({ icon }), ...(sectionIds ? { sections: sectionIds.map((s) => s.id) } : {}) }),
  }),
});

defineMutation('siteSectionGroupUpdate', {
  description: `Renames a group or changes its icon. ${MANAGE}`,
  input: (t) => ({
    groupId: t.globalID({ for: SiteSectionGroupRef, required: true, description: 'The group.' }),
    title: t.string({ description: 'Title, 1 to 100 characters.' }),
    icon: t.string({ description: 'Icon.' }),
  }),
  payload: { group: { type: SiteSectionGroupRef, description: 'The group after the change.' } },
  resolve: async ({ groupId, ...rest }, ctx) => {
    const { site } = await getSectionGroupById(ctx, groupId.id);
    return { group: await updateSectionGroup(ctx, site, groupId.id, defined(rest)) };
  },
});

defineMutation('siteSectionGroupRemove', {
  description: `Deletes a group; its sections stay where it was. ${MANAGE}`,
  input: (t) => ({ groupId: t.globalID({ for: SiteSectionGroupRef, required: true, description: 'The group.' }) }),
  payload: { removedGroupId: { type: 'ID', description: 'The global ID it had.' } },
  gone: ({ groupId }) => ({ removedGroupId: encodeGlobalID('SiteSectionGroup', groupId.id) }),
  resolve: async ({ groupId }, ctx) => {
    const { site } = await getSectionGroupById(ctx, groupId.id);
    await deleteSectionGroup(ctx, site, groupId.id);
    return { removedGroupId: encodeGlobalID('SiteSectionGroup', groupId.id) };
  },
});

defineMutation('siteSectionGroupMembership', {
  description: `Puts a section into a group (at its end), or takes it out (right after the group). ${MANAGE}`,
  input: (t) => ({
    groupId: t.globalID({ for: SiteSectionGroupRef, required: true, description: 'The group.' }),
    sectionId: t.globalID({ for: SiteSectionRef, required: true, description: 'The section.' }),
    member: t.boolean({ required: true, description: 'true to put it in, false to take it out.' }),
  }),
  payload: { group: { type: SiteSectionGroupRef, description: 'The group after the change.' } },
  resolve: async ({ groupId, sectionId, member }, ctx) => {
    const { site } = await getSectionGroupById(ctx, groupId.id);
    if (member) return { group: await addSectionToGroup(ctx, site, groupId.id, { sectionId: sectionId.id }) };
    await removeSectionFromGroup(ctx, site, groupId.id, sectionId.id);
    // Taking a section out answers nothing (REST's 204): the group as it is now is read again.
    return { group: await getSectionGroupById(ctx, groupId.id) };
  },
});

const StructureItemKind = builder.enumType('SiteStructureItemKind', {
  description: 'What kind of structure item a pointer names.',
  values: {
    SITE_SPACE: { value: 'site-space' as const, description: 'A site space.' },
    SITE_SECTION: { value: 'site-section' as const, description: 'A section.' },
    SITE_SECTION_GROUP: { value: 'site-section-group' as const, description: 'A group of sections.' },
  },
});

const StructurePointerInput = builder.inputType('SiteStructurePointerInput', {
  description: 'An item of a site structure, by kind and REST id.',
  fields: (t) => ({
    kind: t.field({ type: StructureItemKind, required: true, description: 'Its kind.' }),
    id: t.string({ required: true, description: 'Its REST id.' }),
  }),
});

defineMutation('siteStructureSort', {
  description: `Moves a site space, section or group right before or after another item (at the end when neither is given); a section placed next to a section of a group joins that group. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    item: t.field({ type: StructurePointerInput, required: true, description: 'What to move.' }),
    before: t.field({ type: StructurePointerInput, description: 'Put it right before this item.' }),
    after: t.field({ type: StructurePointerInput, description: 'Put it right after this item.' }),
  }),
  payload: { site: { type: SiteRef, description: 'The site, whose structure shows the move.' } },
  resolve: async ({ siteId, item, before, after }, ctx) => {
    const site = await getSiteById(ctx, siteId.id);
    const pointer = (p: { kind: 'site-space' | 'site-section' | 'site-section-group'; id: string }) => ({ type: p.kind, id: p.id });
    const position = before || after ? { ...(before ? { before: pointer(before) } : {}), ...(after ? { after: pointer(after) } : {}) } : undefined;
    const moved = await sortStructure(ctx, site, { item: pointer(item), ...(position ? { position } : {}) });
    return { site: moved.view.site };
  },
});

defineMutation('shareLinkCreate', {
  description: `Creates a share link with a new secret key. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    name: t.string({ required: true, description: 'Its name, at most 50 characters.' }),
  }),
  payload: { shareLink: { type: ShareLinkRef, description: 'The new link.' } },
  resolve: async ({ siteId, name }, ctx) => ({ shareLink: await createShareLink(ctx, await getSiteById(ctx, siteId.id), { name }) }),
});

defineMutation('shareLinkUpdate', {
  description: `Renames a share link or turns it on or off. ${MANAGE}`,
  input: (t) => ({
    shareLinkId: t.globalID({ for: ShareLinkRef, required: true, description: 'The link.' }),
    name: t.string({ description: 'Its name.' }),
    active: t.boolean({ description: 'Whether it opens the site.' }),
  }),
  payload: { shareLink: { type: ShareLinkRef, description: 'The link after the change.' } },
  resolve: async ({ shareLinkId, ...rest }, ctx) => ({ shareLink: await updateShareLink(ctx, await getShareLinkById(ctx, shareLinkId.id), defined(rest)) }),
});

defineMutation('shareLinkDelete', {
  description: `Revokes a share link: its key no longer opens the site. ${MANAGE}`,
  input: (t) => ({ shareLinkId: t.globalID({ for: ShareLinkRef, required: true, description: 'The link.' }) }),
  payload: { deletedShareLinkId: { type: 'ID', description: 'The global ID it had.' } },
  gone: ({ shareLinkId }) => ({ deletedShareLinkId: encodeGlobalID('ShareLink', shareLinkId.id) }),
  resolve: async ({ shareLinkId }, ctx) => {
    await deleteShareLink(ctx, await getShareLinkById(ctx, shareLinkId.id));
    return { deletedShareLinkId: encodeGlobalID('ShareLink', shareLinkId.id) };
  },
});
