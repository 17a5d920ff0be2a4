import { parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/auth/authenticate';
import { createContext } from '../../../src/auth/context';
import { addContent } from '../../../src/modules/content/service';
import { siteCustomizations } from '../../../src/db/schema/published';
import { DEFAULT_CUSTOMIZATION } from '../../../src/modules/sites/service';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

/*
 * Rows written before URLs were checked on input (or brought in by an import, which takes content
 * as it finds it) may hold `javascript:` and `data:` URLs. A published page must not turn them
 * into links or images: whatever is stored, no href or src of the page carries such a scheme.
 */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
});
afterAll(() => t?.close());

const api = (method: string, path: string, body?: unknown) => t.rest(method, path, { token: acme.admin.token, body });
const UNSAFE = ['javascript:alert(1)', ' JaVaScRiPt:alert(2)', 'java\tscript:alert(3)', 'data:text/html,<script>alert(4)</script>', 'vbscript:msgbox(5)'];

/** Every URL-valued attribute of the page, as a browser reads it (entities decoded). */
function urlAttributes(html: string): { tag: string; name: string; value: string }[] {
  const found: { tag: string; name: string; value: string }[] = [];
  const stack: any[] = [parse(html)];
  while (stack.length) {
    const node = stack.pop();
    for (const attr of node.attrs ?? []) {
      if (['href', 'src', 'srcset', 'action', 'formaction', 'poster', 'xlink:href', 'background', 'data'].includes(attr.name)) found.push({ tag: node.tagName, name: attr.name, value: attr.value });
    }
    stack.push(...(node.childNodes ?? []), ...(node.content ? [node.content] : []));
  }
  return found;
}
/** A browser ignores whitespace and controls around and (tabs, newlines) inside a scheme. */
// eslint-disable-next-line no-control-regex -- controls are what a browser skips
const schemeOf = (url: string) => /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020]/g, ''))?.[1]?.toLowerCase() ?? null;

async function publish(pages: Parameters<typeof addContent>[2]['pages'], settings?: Record<string, unknown>): Promise<string> {
  const space = (await api('POST', `/v1/orgs/${acme.organizationId}/spaces`, { title: 'Old content' })).body;
  const ctx = createContext({ db: t.db, config: t.config }, await authenticate(t.db, `Bearer ${acme.admin.token}`));
  await addContent(ctx, space.id, { pages });
  const site = (await api('POST', `/v1/orgs/${acme.organizationId}/sites`, { title: 'Old site', spaces: [space.id] })).body;
  expect((await api('POST', `/v1/orgs/${acme.organizationId}/sites/${site.id}/publish`)).status).toBe(200);
  if (settings) {
    await t.db.insert(siteCustomizations).values({ siteId: site.id, settings, updatedAt: new Date() }).onConflictDoUpdate({ target: siteCustomizations.siteId, set: { settings, updatedAt: new Date() } });
  }
  const url = (await api('GET', `/v1/orgs/${acme.organizationId}/sites/${site.id}`)).body.urls.published as string;
  return url.startsWith('http') ? url : `${TEST_ORIGIN}${url}`;
}

async function page(url: string): Promise<string> {
  const res = await t.app.fetch(new Request(url));
  expect(res.status).toBe(200);
  return res.text();
}

const unsafeAttributes = (html: string) => urlAttributes(html).filter((a) => ['javascript', 'data', 'vbscript'].includes(schemeOf(a.value) ?? ''));

describe('a published page with unsafe URLs already stored', () => {
  it('renders no javascript:, data: or vbscript: link, logo or icon from the customization or from link pages', async () => {
    const links = UNSAFE.map((url, i) => ({ title: `Header ${i}`, to: { kind: 'url', url }, links: [] }));
    const url = await publish(
      [{ title: 'Welcome', markdown: 'Hello.' }, ...UNSAFE.map((href, i) => ({ type: 'link' as const, title: `Outside ${i}`, href })), { type: 'link' as const, title: 'Status', href: 'https://status.example.com/' }],
      {
        ...DEFAULT_CUSTOMIZATION,
        favicon: { icon: { light: 'data:image/svg+xml,<svg onload="alert(8)"/>', dark: 'javascript:alert(9)' } },
        header: { preset: 'default', logo: { light: 'javascript:alert(10)', dark: 'data:image/png;base64,AAAA' }, links: [...links, { title: 'Help', to: { kind: 'url', url: 'https://help.example.com/' }, links: [] }] },
        footer: { groups: [{ title: 'More', links: UNSAFE.map((to, i) => ({ title: `Footer ${i}`, to: { kind: 'url', url: to } })) }] },
      },
    );
    for (const theme of ['light', 'dark']) {
      const html = await page(`${url}?theme=${theme}`);
      // The page did render what was stored: the safe links, and the unsafe entries' titles.
      for (const text of ['https://status.example.com/', 'https://help.example.com/', 'Outside 0', 'Header 0', 'Footer 0']) expect(html).toContain(text);
      expect(unsafeAttributes(html)).toEqual([]);
    }
  });

  it('renders no such link or image from markdown bodies: the sanitizer drops them, whatever their disguise', async () => {
    const markdown = [...UNSAFE.map((to, i) => `[link ${i}](<${to}>) ![image ${i}](<${to}>)`), '<javascript:alert(6)>', '[ref]', '[ref]: javascript:alert(7)', '[entity](&#106;avascript:alert(8))', '[fine](https://example.com/fine)'].join('\n\n');
    const html = await page(await publish([{ title: 'Welcome', markdown }]));
    expect(html).toContain('href="https://example.com/fine"');
    expect(html).toContain('link 0');
    expect(unsafeAttributes(html)).toEqual([]);
  });
});
