import { builder } from '../../../graphql/builder';
import { costExtensions, WEIGHTS } from '../../../graphql/cost';
import { connectionArgs, GRAPHQL_MAX, pageToConnection } from '../../../graphql/relay';
import { SearchSpaceHitConnection, SearchSpaceHitRef } from '../../content/graphql/refs';
import { orNull } from '../../../graphql/errors';
import { searchSiteById, type SiteSearchInput } from '../service';
import { SiteRef, SiteSpaceRef } from './refs';

/* `Query.siteSearch`: the twin of `POST /v1/orgs/{organizationId}/sites/{siteId}/search`. */

const SiteSearchModeEnum = builder.enumType('SiteSearchMode', {
  description: 'Which spaces of a site a search reads.',
  values: {
    DEFAULT: { value: 'default', description: 'The default site space of each section, and those named in `siteSpaceIds`.' },
    SPECIFIC: { value: 'specific', description: 'Only the site spaces named in `siteSpaceIds`.' },
    ALL: { value: 'all', description: 'Every site space of every section.' },
  },
});

builder.queryFields((t) => ({
  siteSearch: t.connection(
    {
      type: SearchSpaceHitRef,
      description:
        'Spaces a site publishes whose current content matches a query, best first, each with its best pages (at most twenty). Whoever reads the site as published may search it: its members, and anyone for a public or unlisted site. Null when the site is missing or not readable, like REST\'s 404. Forward pagination only.',
      args: {
        siteId: t.arg.globalID({ for: SiteRef, required: true, description: 'The site.' }),
        query: t.arg.string({ required: true, description: 'Words to find, as `Space.search` reads them; at most 512 characters.' }),
        mode: t.arg({ type: SiteSearchModeEnum, defaultValue: 'default', description: 'Which site spaces to read.' }),
        siteSpaceIds: t.arg.globalIDList({ for: SiteSpaceRef, description: 'With `SPECIFIC`: the site spaces to read; with `DEFAULT`: site spaces to read besides the defaults.' }),
      },
      nullable: true,
      extensions: costExtensions({ weight: WEIGHTS.search }),
      resolve: async (_, { siteId, query, mode, siteSpaceIds, ...args }, ctx) => {
        const ids = siteSpaceIds?.map((g) => g.id);
        const scope: SiteSearchInput['scope'] = mode === 'specific' ? { mode, siteSpaceIds: ids } : mode === 'all' ? { mode: 'all' } : { mode: 'default', includedSiteSpaces: ids };
        const page = await orNull(searchSiteById(ctx, siteId.id, { query, scope }, connectionArgs(args), GRAPHQL_MAX));
        return page && pageToConnection(page);
      },
    },
    SearchSpaceHitConnection,
  ),
}));
