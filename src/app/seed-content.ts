import type { RequestContext } from '../context/request-context';
import { createChangeRequest, changeRequestEditTarget, updateChangeRequest } from '../modules/change-requests/service';
import { addContent, createPage, updatePage } from '../modules/content/service';
import { addSection, createShareLink, createSite, setPublished, updateSite } from '../modules/sites/service';

const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" rx="8" fill="#346DDB"/><text x="60" y="26" font-family="sans-serif" font-size="18" fill="#fff" text-anchor="middle">Quire</text></svg>',
);

const WELCOME = `# Welcome to Quire

Quire keeps your documentation as **revisions**: every edit, merge and import is one, and nothing is lost.

![Quire logo](quire-logo.svg)

Start with [installing it](install), then read about [configuration](configuration).
The [old guide](old-guide) is gone: this link is broken on purpose, to show up in the link checks.
`;

const INSTALL = `# Install

You need Node.js and nothing else.

## Requirements

- Node.js 20 or later.
- PostgreSQL if you have one; without it, an embedded database is used.

## Start

1. Clone the repository.
2. Run the start command:

\`\`\`sh
npm install && npm start
\`\`\`

{% hint style="info" %}
The first start creates this demo. Its admin token is printed once.
{% endhint %}
`;

const CONFIGURATION = `# Configuration

| Setting | What it does | Default |
| --- | --- | --- |
| \`PORT\` | Where the server listens | \`4000\` |
| \`DATABASE_URL\` | PostgreSQL to use | embedded PGlite |

Back to the [welcome page](welcome).
`;

/** A published site of the demo: its title and where it is read, as a path on the server. */
export interface DemoSite {
  title: string;
  path: string;
}

/**
 * Pages in the demo spaces (headings, a table, code, an image, links between pages and one broken
 * link), an open change request with an edit, and two sites publishing them.
 */
export async function seedDemoContent(ctx: RequestContext, organizationId: string, spaces: { guide: string; api: string }): Promise<DemoSite[]> {
  await addContent(ctx, spaces.guide, {
    pages: [
      { title: 'Welcome', markdown: WELCOME },
      { title: 'Install', markdown: INSTALL },
      { title: 'Configuration', markdown: CONFIGURATION },
    ],
    files: [{ name: 'quire-logo.svg', bytes: LOGO, contentType: 'image/svg+xml' }],
  });
  await addContent(ctx, spaces.api, {
    pages: [
      { title: 'Overview', markdown: '# Overview\n\nTwo doors: GraphQL at `/graphql` and REST at `/v1`. See [authentication](authentication).' },
      { title: 'Authentication', markdown: '# Authentication\n\nSend a token:\n\n```sh\ncurl -H "Authorization: Bearer $TOKEN" http://localhost:4000/v1/user\n```\n' },
    ],
  });

  const cr = await createChangeRequest(ctx, spaces.guide, { subject: 'Explain upgrades' });
  const pointer = changeRequestEditTarget(ctx, cr);
  const upgrading = await createPage(ctx, spaces.guide, { title: 'Upgrading', markdown: '# Upgrading\n\nStop the server, pull, run `npm ci`, start it again: migrations run at start.' }, pointer);
  const install = [...upgrading.tree.byId.values()].find((e) => e.page.data.title === 'Install')!;
  await updatePage(ctx, spaces.guide, install.page.data.id, { markdown: `${INSTALL}\nTo upgrade later, see [Upgrading](upgrading).\n` }, pointer);
  await updateChangeRequest(ctx, cr, { status: 'open' });

  // Each change answers the site as it is after it: the next one starts from that row.
  let docs = await createSite(ctx, organizationId, { title: 'Demo documentation' });
  docs = (await addSection(ctx, docs, { spaceId: spaces.guide, title: 'Guides' })).site;
  docs = (await addSection(ctx, docs, { spaceId: spaces.api, title: 'API reference' })).site;
  docs = await updateSite(ctx, docs, { basename: 'docs' });
  await setPublished(ctx, docs, true);

  const preview = await setPublished(ctx, await createSite(ctx, organizationId, { title: 'Partner preview', visibility: 'share-link', spaces: [spaces.api] }), true);
  const { link } = await createShareLink(ctx, preview, { name: 'Partners' });
  return [
    { title: docs.title, path: `/sites/${organizationId}/${docs.basename}` },
    { title: `${preview.title} (share link)`, path: `/sites/${organizationId}/${preview.id}?shareKey=${link.key}` },
  ];
}
