/** The platform's site types; new sites are `basic`. */
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

/** Who can read a published site. */
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export const AGENTS_CONTEXTS = ['included', 'excluded'] as const;
export type AgentsContext = (typeof AGENTS_CONTEXTS)[number];
