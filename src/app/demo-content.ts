import type { RequestContext } from '../context/request-context';
import { changeRequestEditTarget, createChangeRequest, updateChangeRequest } from '../modules/change-requests/service';
import { createPage, updatePage, uploadFile } from '../modules/content/service';
import { demoPng } from './demo-image';

const WELCOME = `Welcome to **Quire**. These pages show what a space holds: headings, tables, code, images and links.

![The Quire logo](logo.png)

## Where to go next

- [Install Quire](install) on your machine.
- Read the [configuration reference](configuration).
- The [old FAQ](faq) has moved (this link is broken on purpose, to show up in the broken links).
`;

const INSTALL = `Quire runs on Node.js 20 and PostgreSQL 15; without a database it keeps its data in an embedded one.

## Requirements

| What | Version | Needed |
|---|---|---|
| Node.js | 20 | always |
| PostgreSQL | 15 | in production |
| Redis | 7 | for sessions across servers |

## Start the server

\`\`\`bash
npm ci
npm start
\`\`\`

Then open the [welcome page](welcome) again, or tune the [settings](configuration#settings).
`;

const CONFIGURATION = `Every setting comes from an environment variable; the defaults suit a laptop.

## Settings

\`\`\`bash
DATABASE_URL=postgres://localhost/quire
PORT=8080
\`\`\`

## Search

Search covers the current content of every space you may see, titles first. Back to [installing](install).
`;

const ENDPOINTS = `The API has two doors: GraphQL at \`/graphql\` and REST under \`/v1\`.

## Authentication

Send a token in the \`Authorization\` header:

\`\`\`bash
curl -H "Authorization: Bearer $TOKEN" https://quire.example/v1/user
\`\`\`

## Search

\`GET /v1/spaces/{spaceId}/search?query=...\` finds pages; the *Getting started* space explains how to run a server to try it on.
`;

/**
 * Pages worth looking at in the demo spaces (so search, links and backlinks show something), and
 * one open change request with an edit waiting for review.
 */
export async function seedPages(ctx: RequestContext, gettingStartedId: string, apiId: string): Promise<void> {
  await uploadFile(ctx, gettingStartedId, { name: 'logo.png', contentType: 'image/png', bytes: demoPng() });
  await createPage(ctx, gettingStartedId, { title: 'Welcome', emoji: '👋', markdown: WELCOME });
  const install = await createPage(ctx, gettingStartedId, { title: 'Install', markdown: INSTALL });
  await createPage(ctx, gettingStartedId, { title: 'Configuration', markdown: CONFIGURATION });
  await createPage(ctx, apiId, { title: 'Endpoints', markdown: ENDPOINTS });

  const proposal = await createChangeRequest(ctx, gettingStartedId, { subject: 'Mention Docker in the install guide' });
  const target = await changeRequestEditTarget(ctx, gettingStartedId, proposal.row.id);
  const docker = `${INSTALL}\n## With Docker\n\n\`\`\`bash\ndocker run -p 8080:8080 quire\n\`\`\`\n`;
  await updatePage(ctx, target.spaceId, install.entry.page.data.id, { markdown: docker }, target.pointer);
  await updateChangeRequest(ctx, gettingStartedId, proposal.row.id, { status: 'open' });
}
