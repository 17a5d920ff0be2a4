import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import { AGENTS_CONTEXTS, SITE_TYPES, SITE_VISIBILITIES } from '../../../domain/sites';
import type { SectionGroupView, SectionView, ShareLinkInSite, SiteRedirectInSite, SiteSpaceInSite } from '../service';
import type { SiteRow } from '../../../db/schema/sites';

export const SiteRef = builder.objectRef<SiteRow>('Site');
export const SiteSpaceRef = builder.objectRef<SiteSpaceInSite>('SiteSpace');
export const SiteSectionRef = builder.objectRef<SectionView>('SiteSection');
export const SiteSectionGroupRef = builder.objectRef<SectionGroupView>('SiteSectionGroup');
export const ShareLinkRef = builder.objectRef<ShareLinkInSite>('ShareLink');
export const SiteRedirectRef = builder.objectRef<SiteRedirectInSite>('SiteRedirect');

export const SiteTypeEnum = builder.enumType('SiteType', {
  description: "The site's plan: what features it may use.",
  values: enumValues(SITE_TYPES, (type) => `A ${type} site.`),
});

export const SiteVisibilityEnum = builder.enumType('SiteVisibility', {
  description: 'Who can read the site once it is published.',
  values: enumValues(SITE_VISIBILITIES, (v) =>
    ({
      public: 'Anyone; search engines index it.',
      unlisted: 'Anyone with the URL; search engines do not index it.',
      'share-link': 'Anyone holding an active share link.',
      'visitor-auth': 'Visitors your own authentication lets in.',
    })[v],
  ),
});

export const AgentsContextEnum = builder.enumType('SiteAgentsContext', {
  description: "Whether AI agents may read the site's content.",
  values: enumValues(AGENTS_CONTEXTS, (v) => (v === 'included' ? 'Agents may read it.' : 'Agents may not read it.')),
});
