import { builder } from '../../../graphql/builder';
import type { SitePublishingAuthRow } from '../../../db/schema/published';

/** A site's SiteCustomizationSettings, as REST's `GET .../customization` answers them. */
export type Customization = Record<string, unknown>;

export const SiteCustomizationRef = builder.objectRef<Customization>('SiteCustomization');
export const SitePublishingAuthRef = builder.objectRef<SitePublishingAuthRow>('SitePublishingAuth');

export const PublishingAuthBackendEnum = builder.enumType('SitePublishingAuthBackend', {
  description: 'What signs the visitors of a `visitor-auth` site in.',
  values: {
    CUSTOM: { value: 'custom' as const, description: 'Your own backend, signing visitor tokens with the site key.' },
    INTEGRATION: { value: 'integration' as const, description: 'An installed visitor-authentication integration.' },
  },
});
