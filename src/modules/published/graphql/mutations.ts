import { defineMutation } from '../../../graphql/mutation';
import { SiteRef } from '../../sites/graphql/refs';
import { getSiteById } from '../../sites/service';
import { CUSTOMIZATION_URLS, regeneratePublishingAuth, updateCustomization, updatePublishingAuth } from '../service';
import { PublishingAuthBackendEnum, SiteCustomizationRef, SitePublishingAuthRef, type Customization } from './refs';

const MANAGE = 'Organization admins and members with the create role.';
// The service names a bad URL by its path in the document, which sits under `settings` here.
const IN_SETTINGS = Object.fromEntries([...CUSTOMIZATION_URLS.keys()].map((path) => path.split('.')[0]).map((key) => [key, `settings.${key}`]));
const authPayload = (description: string) => ({ publishingAuth: { type: SitePublishingAuthRef, description } });

defineMutation('siteCustomizationSet', {
  description:
    'Replaces the whole customization of a site, as `PUT .../customization` does: `settings` must be a complete SiteCustomizationSettings document ' +
    '(read `customization.settings`, change it, send it back). Links must be http(s), mailto or a path; images and fonts http(s). ' +
    `A document that does not match the platform's schema is refused and nothing is saved. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    settings: t.field({ type: 'JSON', required: true, description: 'The complete SiteCustomizationSettings document.' }),
  }),
  fields: IN_SETTINGS,
  payload: { customization: { type: SiteCustomizationRef, description: 'The customization saved.' }, site: { type: SiteRef, description: 'The site.' } },
  resolve: async ({ siteId, settings }, ctx) => {
    const site = await getSiteById(ctx, siteId.id);
    return { customization: (await updateCustomization(ctx, site.organizationId, site.id, settings)) as Customization, site };
  },
});

defineMutation('sitePublishingAuthUpdate', {
  inputDescription: 'Input of sitePublishingAuthUpdate. Absent fields stay as they are; a null fallbackUrl removes it.',
  description: `Changes how visitors of a site sign in: the backend and the URL visitors without a token are sent to. The key stays. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    backend: t.field({ type: PublishingAuthBackendEnum, description: 'What signs visitors in.' }),
    fallbackUrl: t.string({ description: 'An http(s) URL where visitors sign in; null removes it.' }),
  }),
  fields: { fallbackURL: 'fallbackUrl' },
  payload: authPayload('The settings after the change.'),
  resolve: async ({ siteId, backend, fallbackUrl }, ctx) => {
    const site = await getSiteById(ctx, siteId.id);
    const input = { ...(backend != null ? { backend } : {}), ...(fallbackUrl !== undefined ? { fallbackURL: fallbackUrl } : {}) };
    return { publishingAuth: await updatePublishingAuth(ctx, site.organizationId, site.id, input) };
  },
});

defineMutation('sitePublishingAuthRegenerate', {
  description: `Rotates the key visitor tokens of a site are signed with: every token signed with the old key stops opening the site at once. ${MANAGE}`,
  input: (t) => ({ siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }) }),
  payload: authPayload('The settings with the new key.'),
  resolve: async ({ siteId }, ctx) => {
    const site = await getSiteById(ctx, siteId.id);
    return { publishingAuth: await regeneratePublishingAuth(ctx, site.organizationId, site.id) };
  },
});
