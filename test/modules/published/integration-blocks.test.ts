import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import LZString from 'lz-string';
import type { Browser } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../../support/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIntegrationRuntime } from '../../../src/runtime/deliver';
import { FIXTURES, gitbookCli, type Cli } from '../integrations/support';
import { startTestApp, type TestApp } from '../../support/clients';
import { StatementLog } from '../../support/db';
import { gid } from '../../support/doors';
import { buildOrganization, type OrgFixture } from '../../support/factories';
import { validateSchema } from '../../support/openapi';

/**
 * Integration blocks in content, as the catalogue's mermaid diagrams are written: a fence in the
 * language of an installed integration's block (or GitBook's explicit `{% @integration/block %}`
 * tag) is an integration block in the page's document, and on the published page it is rendered
 * through the integration (`ui_render`), cached, with its web frame speaking the frame protocol.
 */
const available = existsSync(CHROMIUM);
if (!available && process.env.QUIRE_REQUIRE_BROWSER) throw new Error(`Chromium is required here (${CHROMIUM}): apt-get install chromium`);
const NAME = 'quire-diagram';

const statements = new StatementLog();
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let cli: Cli;
let acme: OrgFixture;
let spaceId: string;
let installationId: string;
let siteRoot: string;

const api = (method: string, path: string, body?: unknown) => t.rest(method, path, { token: acme.admin.token, body });
const page = (path: string, headers: Record<string, string> = {}) => fetch(`${siteRoot}/${path}`, { headers });

type EventItem = { id: string; status: string; payload: Record<string, any> };
async function renders(): Promise<EventItem[]> {
  const list = await api('GET', `/v1/integrations/${NAME}/events?limit=100`);
  return (list.body.items as EventItem[]).filter((e) => e.payload.type === 'ui_render');
}

const PAGES: Record<string, string> = {
  Diagram: 'Before the diagram.\n\n```quire-diagram\ngraph TD\n  A --> B\n```\n\nAfter it.\n\n```js\nconst plain = true;\n```',
  Tagged: 'An explicit block:\n\n{% @quire-diagram/diagram content="from a tag" %}\n\n{% @nobody/block x=1 %}',
  Failing: '```quire-diagram\nfail now\n```',
  Hostile: '```quire-diagram\nhostile\n```',
  Stalled: '```quire-diagram\nstall\n```',
  Many: Array.from({ length: 22 }, (_, i) => `\`\`\`quire-diagram\nmany ${i}\n\`\`\``).join('\n\n'),
};

beforeAll(async () => {
  t = await startTestApp({}, { statements });
  acme = await buildOrganization(t.db, 'Acme');
  server = await t.serve();
  t.config.publicUrl = server.url;
  cli = await gitbookCli();
  await cli.run(['auth', '--endpoint', server.url, '--token', acme.admin.token]);
  await cli.run(['publish', '--organization', acme.organizationId], { cwd: resolve(FIXTURES, NAME) });
  spaceId = (await api('POST', `/v1/orgs/${acme.organizationId}/spaces`, { title: 'Guides' })).body.id;
  for (const [title, markdown] of Object.entries(PAGES)) {
    const edit = await t.graphql('mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } } }', { input: { spaceId: gid('Space', spaceId), title, markdown } }, acme.admin.token);
    expect(edit.body.data.pageCreate.userErrors).toEqual([]);
  }
  const installed = await api('POST', `/v1/integrations/${NAME}/installations`, { organization: acme.organizationId });
  expect(installed.status).toBe(201);
  installationId = installed.body.id;
  expect((await api('POST', `/v1/integrations/${NAME}/installations/${installationId}/spaces`, { space: spaceId })).status).toBe(201);
  const sites = `/v1/orgs/${acme.organizationId}/sites`;
  const siteId = (await api('POST', sites, { title: 'Docs', visibility: 'public', spaces: [spaceId] })).body.id;
  expect((await api('POST', `${sites}/${siteId}/publish`)).status).toBe(200);
  siteRoot = new URL(new URL((await api('GET', `${sites}/${siteId}`)).body.urls.published).pathname, server.url).toString();
}, 120_000);
afterAll(async () => {
  await cli?.dispose();
  await server?.stop();
  await t?.close();
  await closeIntegrationRuntime();
});

const diagramBlock = { object: 'block', type: 'integration', isVoid: true, data: { integration: NAME, block: 'diagram', props: { content: 'graph TD\n  A --> B' } } };

describe('integration blocks in documents', () => {
  it('REST: a fence in the language of an installed block is an integration block, other fences stay code', async () => {
    const res = await api('GET', `/v1/spaces/${spaceId}/content/path/diagram?format=document`);
    expect(res.status).toBe(200);
    const nodes = res.body.document.nodes as Record<string, any>[];
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'integration', 'paragraph', 'code']);
    expect(nodes[1]).toEqual(diagramBlock);
    validateSchema('DocumentBlockIntegration', nodes[1]);
    validateSchema('JSONDocument', res.body.document);
  });

  it("GraphQL: Page.document carries the same block, and the explicit tag's props are its JSON values", async () => {
    const res = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Space { content { pages { title document } } } } }', { id: gid('Space', spaceId) }, acme.admin.token);
    const pages = res.body.data.node.content.pages as { title: string; document: Record<string, any> }[];
    const byTitle = Object.fromEntries(pages.map((p) => [p.title, p.document]));
    expect(byTitle.Diagram!.nodes[1]).toEqual(diagramBlock);
    expect(byTitle.Tagged!.nodes.slice(1)).toEqual([
      { object: 'block', type: 'integration', isVoid: true, data: { integration: NAME, block: 'diagram', props: { content: 'from a tag' } } },
      { object: 'block', type: 'integration', isVoid: true, data: { integration: 'nobody', block: 'block', props: { x: 1 } } },
    ]);
    for (const document of Object.values(byTitle)) validateSchema('JSONDocument', document);
  });

  it("looks up the space's block languages once per request, however many documents it answers", async () => {
    const before = statements.statements.length;
    const res = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Space { content { pages { document } } } } }', { id: gid('Space', spaceId) }, acme.admin.token);
    expect(res.body.data.node.content.pages).toHaveLength(Object.keys(PAGES).length);
    const lookups = statements.statements.slice(before).filter((s) => /from "integration_installations"/.test(s.sql));
    expect(lookups).toHaveLength(1);
  });
});

describe('the render API', () => {
  const request = { componentId: 'diagram', props: { content: 'posted' }, context: { type: 'document', spaceId: '', editable: true, theme: 'light' } };

  it('POST answers like GET, and refuses a bad request with a 400', async () => {
    const body = { ...request, context: { ...request.context, spaceId } };
    const posted = await api('POST', `/v1/integrations/${NAME}/render`, body);
    expect(posted.status).toBe(200);
    const got = await api('GET', `/v1/integrations/${NAME}/render?request=${LZString.compressToEncodedURIComponent(JSON.stringify(body))}`);
    expect(got.status).toBe(200);
    expect(posted.body).toEqual(got.body);
    expect(posted.body.element.children[1]).toEqual({ type: 'markdown', content: '**Diagram** of 1 line' });
    expect(posted.headers.get('cache-control')).toBe('private, max-age=3600');
    const bad = await api('POST', `/v1/integrations/${NAME}/render`, { props: {} });
    expect(bad.status).toBe(400);
    expect((await t.rest('POST', `/v1/integrations/${NAME}/render`, { body })).status).toBe(401);
  });

  it("renders with the site token a URL lookup gives (the renderer's call), in the site's spaces only", async () => {
    const lookup = await t.rest('POST', '/v1/urls/published', { body: { url: siteRoot, visitor: { unsignedClaims: {} } } });
    const token = lookup.body.apiToken as string;
    const body = { ...request, context: { ...request.context, spaceId } };
    const posted = await t.rest('POST', `/v1/integrations/${NAME}/render`, { token, body });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.element.children[1]).toEqual({ type: 'markdown', content: '**Diagram** of 1 line' });
    const unpublished = (await api('POST', `/v1/orgs/${acme.organizationId}/spaces`, { title: 'Unpublished' })).body.id as string;
    const elsewhere = await t.rest('POST', `/v1/integrations/${NAME}/render`, { token, body: { ...body, context: { ...body.context, spaceId: unpublished } } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toMatch(/not installed on the space/);
  });
});

describe('integration blocks on published pages', () => {
  it('renders the block through the integration once; the next view sends no new ui_render event', async () => {
    const first = await page('diagram');
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('<iframe');
    expect(html).toContain('sandbox="allow-scripts"');
    expect(html).not.toContain('allow-same-origin');
    expect(html).toContain('<strong>Diagram</strong> of 2 lines');
    expect(html).toContain('plain = ');
    const csp = first.headers.get('content-security-policy')!;
    expect(csp).toContain(`frame-src ${server.url}/v1/integrations/${NAME}/integration`);
    expect(csp).toContain(`script-src ${siteRoot}/~quire/webframe.js`);
    const events = await renders();
    expect(events.filter((e) => e.payload.props.content === 'graph TD\n  A --> B')).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ context: { type: 'document', spaceId, editable: false } });
    expect(events[0]!.payload.auth).toBeUndefined();

    const second = await page('diagram');
    expect(await second.text()).toBe(html);
    expect(await renders()).toHaveLength(events.length);
    expect((await page('diagram', { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
  });

  it("the frame's page runs sandboxed, may be framed, and carries no X-Frame-Options to say otherwise", async () => {
    const frame = await fetch(`${server.url}/v1/integrations/${NAME}/integration`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-security-policy')).toContain('sandbox allow-scripts allow-popups allow-forms; frame-ancestors *');
    expect(frame.headers.get('x-frame-options')).toBeNull();
    // Quire's own pages and answers still may not be framed.
    expect((await page('diagram')).headers.get('x-frame-options')).toBe('DENY');
    expect((await fetch(`${server.url}/v1/user`)).headers.get('x-frame-options')).toBe('DENY');
  });

  it('the render API serves a read-only document render from the same cache, without a new event', async () => {
    const count = (await renders()).length;
    const body = { componentId: 'diagram', props: { content: 'graph TD\n  A --> B' }, context: { type: 'document', spaceId, editable: false, theme: 'light' } };
    const res = await api('POST', `/v1/integrations/${NAME}/render`, body);
    expect(res.status).toBe(200);
    expect(res.body.element.children[1].content).toBe('**Diagram** of 2 lines');
    expect(await renders()).toHaveLength(count);
    // An editable render is the user's own: it goes to the integration.
    expect((await api('POST', `/v1/integrations/${NAME}/render`, { ...body, context: { ...body.context, editable: true } })).status).toBe(200);
    expect(await renders()).toHaveLength(count + 1);
  });

  it('renders explicit tags; a block of an integration not installed shows a box', async () => {
    const res = await page('tagged');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<strong>Diagram</strong> of 1 line');
    expect(html).toContain('This nobody block could not be shown: the integration is not installed on this space.');
  });

  it('a failing integration shows a box, the page is a 200, and the failure is not asked again on every view', async () => {
    const res = await page('failing');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('This quire-diagram block could not be shown: the integration failed to render it.');
    const count = (await renders()).length;
    expect((await page('failing')).status).toBe(200);
    expect(await renders()).toHaveLength(count);
  });

  it('a hostile tree stays inert: no javascript: or data: URL, no script, no control, a bounded size', async () => {
    const res = await page('hostile');
    expect(res.status).toBe(200);
    const html = await res.text();
    const article = html.slice(html.indexOf('<article id="content" tabindex="-1">'), html.indexOf('</article>'));
    expect(article).not.toMatch(/javascript:|data:text|<script|onerror|<button|<input/i);
    expect(article).not.toContain('<iframe');
    expect(article).toContain('&#x3C;b>not bold&#x3C;/b>');
    expect(article).toContain('row 0');
    expect(article).not.toContain('row 600');
    expect(res.headers.get('content-security-policy')).not.toContain('frame-src');
  });

  it('renders at most 20 blocks on a page; the others say why', async () => {
    const html = await (await page('many')).text();
    expect(html.match(/class="integration-block/g)).toHaveLength(22);
    expect(html.match(/more than 20 integration blocks/g)).toHaveLength(2);
    expect(new Set((await renders()).filter((e) => String(e.payload.props.content).startsWith('many')).map((e) => e.payload.props.content)).size).toBe(20);
  }, 60_000);
  it("asks the integration again once the render's max-age has passed", async () => {
    const count = (await renders()).length;
    expect((await page('diagram')).status).toBe(200);
    expect(await renders()).toHaveLength(count);
    t.clock.now = new Date(Date.now() + 3_601_000);
    try {
      expect((await page('diagram')).status).toBe(200);
      expect(await renders()).toHaveLength(count + 1);
    } finally {
      t.clock.now = null;
    }
  });

  it('a stalled integration shows a box within the deadline', async () => {
    const started = Date.now();
    const res = await page('stalled');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('This quire-diagram block could not be shown: the integration took too long.');
    expect(Date.now() - started).toBeLessThan(4_500);
  }, 20_000);
});

describe.skipIf(!available)('web frames in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  for (const width of [390, 1280]) {
    it(`at ${width} px the frame shows what it was posted and takes the height it asked, with no CSP error`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const tab = await context.newPage();
      const console: string[] = [];
      tab.on('console', (m) => console.push(`${m.type()}: ${m.text()}`));
      await tab.addInitScript(() => {
        (window as any).violations = [];
        document.addEventListener('securitypolicyviolation', (e) => (window as any).violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      expect((await tab.goto(`${siteRoot}/diagram`))?.status()).toBe(200);
      const frame = tab.frameLocator('.ck-webframe iframe');
      await expect.poll(() => frame.locator('#content').textContent(), { timeout: 15_000 }).toBe('drawn: graph TD\n  A --> B');
      await expect.poll(() => tab.locator('.ck-webframe iframe').evaluate((f) => f.getBoundingClientRect().height), { timeout: 5_000 }).toBe(240);
      const box = await tab.locator('.ck-webframe iframe').boundingBox();
      expect(box!.width).toBeLessThanOrEqual(width);
      expect(await tab.evaluate(() => (window as any).violations)).toEqual([]);
      expect(console.filter((m) => /Content Security Policy|Refused/i.test(m))).toEqual([]);
      await context.close();
    });
  }
});

describe('once the integration is uninstalled from the space', () => {
  it('the fence is a code block again, in the document and on the page', async () => {
    expect((await api('DELETE', `/v1/integrations/${NAME}/installations/${installationId}/spaces/${spaceId}`)).status).toBe(204);
    const doc = await api('GET', `/v1/spaces/${spaceId}/content/path/diagram?format=document`);
    expect(doc.body.document.nodes[1]).toMatchObject({ type: 'code', data: { syntax: 'quire-diagram' } });
    const html = await (await page('diagram')).text();
    expect(html).not.toContain('<iframe');
    expect(html).toContain('graph TD');
  });
});
