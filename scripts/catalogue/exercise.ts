/**
 * One catalogue integration through Quire, as a person would try it: publish it unchanged with the
 * official CLI, install it on the demo organization and on a space and/or a site as its manifest's
 * `target` says (filling its configuration forms with sample values where a form asks for text),
 * edit a page, open a published page with cookies, render each of its blocks, and read what
 * became of the events through the API.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeGlobalID } from '@pothos/plugin-relay';
import LZString from 'lz-string';
import YAML from 'yaml';
import type { Quire } from './quire';

interface Property {
  type?: string;
  enum?: unknown[];
  default?: unknown;
}
interface Form {
  properties?: Record<string, Property>;
  required?: string[];
  componentId?: string;
}
interface Manifest {
  name: string;
  target?: 'all' | 'space' | 'site' | 'organization';
  scopes?: string[];
  blocks?: { id: string; markdown?: { codeblock: string; body: string }; urlUnfurl?: string[] }[];
  configurations?: { account?: Form; space?: Form; site?: Form };
  secrets?: Record<string, string>;
}

export interface EventCounts {
  delivered: number;
  notHandled: number;
  failed: number;
  pending: number;
  /** type: first error line, for each failed type. */
  failures: Record<string, string>;
  /** type: outcomes of its events, e.g. `site_view 3 ok`. */
  byType: Record<string, Record<string, number>>;
}

export interface Outcome {
  name: string;
  target: string;
  published: string;
  installed: string;
  events: EventCounts | null;
  renders: { block: string; result: string }[];
  siteScript: string;
  /** Why something did not work, in the runner's words; the class is judged in docs/catalogue.md. */
  notes: string[];
}

const SAMPLES: Record<string, string> = {
  mermaid: 'graph TD\n  A[Write] --> B[Publish]',
  plantuml: '@startuml\nAlice -> Bob: Hello\n@enduml',
};
const VISITOR_COOKIES = 'OptanonConsent=groups%3DC0001%3A1%2CC0002%3A1; _ga=GA1.1.1234.5678; cookie_consent=accepted';

const firstLine = (text: unknown) => String(text ?? '').split('\n').find((l) => l.trim()) ?? '';
const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a person types into a configuration form: text and choices, never an OAuth button. */
function sampleConfiguration(form: Form | undefined, notes: string[], level: string): Record<string, unknown> | null {
  if (!form?.properties) {
    if (form?.componentId) notes.push(`${level} configuration is a custom form (${form.componentId}): left empty`);
    return null;
  }
  const values: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(form.properties)) {
    if (property.type === 'button') {
      if (form.required?.includes(key)) notes.push(`${level} configuration needs an OAuth connection (${key}): left unset`);
      continue;
    }
    if (property.enum?.length) values[key] = property.enum[0];
    else if (property.default !== undefined) values[key] = property.default;
    else if (property.type === 'boolean') values[key] = true;
    else if (property.type === 'number') values[key] = 1;
    else if (property.type === 'string') values[key] = `catalogue-${key}`;
  }
  return Object.keys(values).length ? values : null;
}

function blockProps(block: NonNullable<Manifest['blocks']>[number]): Record<string, unknown> {
  if (block.markdown) return { [block.markdown.body]: SAMPLES[block.markdown.codeblock] ?? 'print("hello")' };
  const unfurl = block.urlUnfurl?.[0];
  if (unfurl) return { url: unfurl.replace('**', 'main/README.md').replaceAll('*', 'gitbook') };
  return {};
}

async function editPage(quire: Quire, spaceId: string, title: string): Promise<string | null> {
  const res = await quire.graphql('mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } } }', {
    input: { spaceId: encodeGlobalID('Space', spaceId), title, markdown: `Edited while trying ${title}` },
  });
  const errors = res.body?.errors ?? res.body?.data?.pageCreate?.userErrors;
  return errors?.length ? JSON.stringify(errors) : null;
}

/** The page's inline scripts whose hash the page's policy allows: what Quire injected. */
function injectedScripts(html: string, policy: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1]!)
    .filter((code) => policy.includes(`'sha256-${createHash('sha256').update(code).digest('base64')}'`));
}

type EventItem = { id: string; status: string; payload: { type: string } };

/** Waits until no event is pending (at most `waitMs`), then counts them by outcome. */
async function countEvents(quire: Quire, name: string, waitMs: number): Promise<EventCounts> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const counts: EventCounts = { delivered: 0, notHandled: 0, failed: 0, pending: 0, failures: {}, byType: {} };
    const list = await quire.rest('GET', `/v1/integrations/${name}/events?limit=100`);
    for (const e of (list.body?.items ?? []) as EventItem[]) {
      const detail = await quire.rest('GET', `/v1/integrations/${name}/events/${e.id}`);
      const logs = (detail.body?.trace?.logs ?? []) as { message: string; level: string }[];
      // The detail is read after the list: its status is the newer one.
      e.status = (detail.body?.event?.status as string | undefined) ?? e.status;
      const tally = (counts.byType[e.payload.type] ??= {});
      const kind = e.status === 'success' ? (logs.some((l) => l.message.startsWith('not handled:')) ? 'not handled' : 'ok') : logs.length ? 'failed' : 'pending';
      tally[kind] = (tally[kind] ?? 0) + 1;
      if (kind === 'not handled') counts.notHandled++;
      else if (kind === 'ok') counts.delivered++;
      else if (kind === 'pending') counts.pending++;
      else {
        counts.failed++;
        // Quire's own outcome line comes last; the script's error before it says more.
        const outcome = logs[logs.length - 1]!.message;
        const script = [...logs].reverse().find((l, i) => i > 0 && l.level === 'error');
        counts.failures[e.payload.type] ??= clip(`${firstLine(outcome)}${script ? ` (script: ${firstLine(script.message)})` : ''}`, 240);
      }
    }
    if (!counts.pending || Date.now() > deadline) return counts;
    await sleep(250);
  }
}

export async function exercise(quire: Quire, checkout: string, name: string, spaceId: string): Promise<Outcome> {
  const folder = resolve(checkout, 'integrations', name);
  const manifest = YAML.parse(readFileSync(resolve(folder, 'gitbook-manifest.yaml'), 'utf8')) as Manifest;
  const target = manifest.target ?? 'all';
  const outcome: Outcome = { name, target, published: 'no', installed: 'no', events: null, renders: [], siteScript: '-', notes: [] };
  const notes = outcome.notes;

  // Secrets come from the publisher's environment (`${{ env.NAME }}`); the CLI refuses to publish
  // without them. The platform's own keys are not ours: placeholders stand in, and say so.
  const secretEnv = Object.fromEntries(Object.values(manifest.secrets ?? {}).flatMap((v) => [...String(v).matchAll(/\$\{\{\s*env\.(\w+)\s*\}\}/g)].map((m) => [m[1]!, `catalogue-placeholder-${m[1]!.toLowerCase()}`])));
  if (Object.keys(secretEnv).length) notes.push(`secrets set to placeholders: ${Object.keys(secretEnv).join(', ')}`);
  const published = await quire.cli(['publish', '--organization', quire.organizationId], folder, secretEnv);
  if (!published.ok) {
    outcome.published = 'failed';
    const refused = [...published.output.matchAll(/"received": "([^"]+)"[\s\S]*?"path": \[([^\]]*)\]/g)].map((m) => `${m[2]!.replace(/\s+/g, '')}: ${m[1]}`);
    notes.push(`publish: ${clip(published.output.split('\n').filter((l) => /error|fail|missing|not/i.test(l)).join(' | ') || firstLine(published.output), 300)}${refused.length ? ` refused values ${refused.join(', ')}` : ''}`);
    return outcome;
  }
  outcome.published = 'yes';
  const base = `/v1/integrations/${manifest.name}`;
  const installed = await quire.rest('POST', `${base}/installations`, { organization: quire.organizationId });
  if (installed.status !== 201) {
    outcome.installed = `failed ${installed.status}`;
    notes.push(`install: ${clip(JSON.stringify(installed.body))}`);
    return outcome;
  }
  const inst = `${base}/installations/${installed.body.id}`;
  const account = sampleConfiguration(manifest.configurations?.account, notes, 'account');
  if (account) {
    const res = await quire.rest('PATCH', inst, { configuration: account });
    if (res.status !== 200) notes.push(`account configuration refused: ${res.status} ${clip(JSON.stringify(res.body))}`);
  }
  const places: string[] = ['org'];

  const onSpaces = target === 'all' || target === 'space';
  const onSites = target === 'all' || target === 'site';
  if (onSpaces) {
    const given = await quire.rest('POST', `${inst}/spaces`, { space: spaceId });
    if (given.status === 201) {
      places.push('space');
      const configuration = sampleConfiguration(manifest.configurations?.space, notes, 'space');
      if (configuration) {
        const res = await quire.rest('PATCH', `${inst}/spaces/${spaceId}`, { configuration });
        if (res.status !== 200) notes.push(`space configuration refused: ${res.status} ${clip(JSON.stringify(res.body))}`);
      }
    } else notes.push(`space installation: ${given.status} ${clip(JSON.stringify(given.body))}`);
  }

  let siteId: string | null = null;
  if (onSites) {
    const sites = `/v1/orgs/${quire.organizationId}/sites`;
    const site = await quire.rest('POST', sites, { title: `Try ${name}`, visibility: 'public', spaces: [spaceId] });
    siteId = site.body?.id ?? null;
    const given = siteId ? await quire.rest('POST', `${inst}/sites`, { siteId }) : site;
    if (siteId && given.status === 201) {
      places.push('site');
      const configuration = sampleConfiguration(manifest.configurations?.site, notes, 'site');
      if (configuration) {
        const res = await quire.rest('PATCH', `${inst}/sites/${siteId}`, { configuration });
        if (res.status !== 200) notes.push(`site configuration refused: ${res.status} ${clip(JSON.stringify(res.body))}`);
      }
      const pub = await quire.rest('POST', `${sites}/${siteId}/publish`);
      if (pub.status !== 200) notes.push(`site publish: ${pub.status}`);
    } else {
      notes.push(`site installation: ${given.status} ${clip(JSON.stringify(given.body))}`);
      siteId = null;
    }
  }
  outcome.installed = places.join('+');

  // The space event: a page edit, a new revision.
  if (onSpaces) {
    const failed = await editPage(quire, spaceId, `Trying ${name}`);
    if (failed) notes.push(`page edit refused: ${clip(failed)}`);
  }

  // The site: a visitor opens a page with cookies; the first view asks for the script (a page waits
  // a second at most), so the page is read again once that answer is in.
  if (siteId) {
    const site = await quire.rest('GET', `/v1/orgs/${quire.organizationId}/sites/${siteId}`);
    const pageUrl = `${quire.url}${new URL(site.body.urls.published as string).pathname}`;
    const open = () => fetch(pageUrl, { headers: { cookie: VISITOR_COOKIES, 'user-agent': 'quire-catalogue', referer: 'https://example.com/' } });
    const injects = (manifest.scopes ?? []).some((s) => s === 'site:script:inject' || s === 'space:script:inject');
    let page = await open();
    let html = await page.text();
    let scripts = injectedScripts(html, page.headers.get('content-security-policy') ?? '');
    // The integration's answer takes its deadline (5 s) at most; the page is read until it is in.
    for (const deadline = Date.now() + 8_000; injects && !scripts.length && Date.now() < deadline; ) {
      await sleep(500);
      page = await open();
      html = await page.text();
      scripts = injectedScripts(html, page.headers.get('content-security-policy') ?? '');
    }
    if (!injects) outcome.siteScript = 'n/a (no inject scope)';
    else if (page.status !== 200) outcome.siteScript = `page ${page.status}`;
    else if (scripts.length) outcome.siteScript = `injected (${scripts.reduce((n, s) => n + s.length, 0)} B)`;
    else outcome.siteScript = 'not injected';
  }

  // Blocks: rendered in a document of the space, as the editor asks for them.
  for (const block of manifest.blocks ?? []) {
    const request = { componentId: block.id, props: blockProps(block), context: { type: 'document', spaceId, editable: true, theme: 'light' } };
    const res = await quire.rest('GET', `${base}/render?request=${LZString.compressToEncodedURIComponent(JSON.stringify(request))}`);
    outcome.renders.push({ block: block.id, result: res.status === 200 ? 'ok' : `${res.status} ${clip(firstLine(res.body?.error?.message ?? JSON.stringify(res.body)), 200)}` });
  }

  outcome.events = await countEvents(quire, manifest.name, 20_000);
  // Tried one at a time: uninstalled after, so its events and retries do not load the next ones.
  await quire.rest('DELETE', inst);
  if (outcome.siteScript === 'not injected') {
    const failure = outcome.events.failures.fetch_published_script;
    if (failure) outcome.siteScript = `not injected: ${failure}`;
  }
  return outcome;
}
