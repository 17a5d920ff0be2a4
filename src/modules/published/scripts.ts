import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { deliverPublishedScript, installationGiven } from '../events/service';
import { integrationInstallations, integrationSiteInstallations, type InstallationRow, type SiteInstallationRow } from '../../db/schema/installations';
import { integrations, type IntegrationRow } from '../../db/schema/integrations';
import type { SiteRow } from '../../db/schema/sites';
import { integrationDirectives, type Directives } from './csp';

/*
 * Site scripts: each installation of an integration that may inject one (`site:script:inject`, or
 * the older `space:script:inject`) is asked for it with a `fetch_published_script` event, and its
 * answer goes inline into every page of the site, allowed by its hash in the page's policy.
 *
 * A page never waits long for them: answers are kept per installation and site, under a key made
 * of everything that can change the script (the integration's version, its manifest's policy, the
 * installation's and the site installation's configuration), so a new version or configuration asks
 * again. A page waits WAIT_MS at most for an answer not yet known, and is served without it if it
 * is late; the answer, when it comes, is kept for the pages after. A failure is kept too, for a
 * minute, so a broken integration is not asked on every page view.
 */

/** A script as it goes into the page, with what the page's policy needs to let it run. */
export interface SiteScript {
  integration: string;
  /** The script's text, safe inside `<script>`. */
  inline: string;
  /** Its CSP hash source, `'sha256-...'`. */
  hash: string;
  directives: Directives;
}

const WAIT_MS = 1_000;
/** The runtime's deadline for one script: a stuck integration is stopped by then. */
const DEADLINE_MS = 5_000;
const KEPT_MS = 3_600_000;
const FAILED_MS = 60_000;
const MAX_SCRIPT_BYTES = 256 * 1024;
const CACHE_SIZE = 1_000;
const INJECT_SCOPES = ['site:script:inject', 'space:script:inject'];

interface Entry {
  key: string;
  pending: Promise<void>;
  /** Set once the integration answered or failed; null when there is no script to inject. */
  script?: SiteScript | null;
  expiresAt: number;
}

const cache = new Map<string, Entry>();

interface Installed {
  installation: InstallationRow;
  integration: IntegrationRow;
  siteInstallation: SiteInstallationRow | null;
}

/*
 * `</script` would end the element early and `<!--` can make the parser swallow the rest of the
 * page: both only appear in string literals of real scripts, where `<\/` and `<\!` read the same.
 */
const inlineText = (code: string) => code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

function toScript(integration: IntegrationRow, code: string): SiteScript {
  const inline = inlineText(code);
  return { integration: integration.name, inline, hash: `'sha256-${createHash('sha256').update(inline).digest('base64')}'`, directives: integrationDirectives(integration.manifest.contentSecurityPolicy) };
}

function keyOf({ installation, integration, siteInstallation }: Installed): string {
  const parts = [integration.id, integration.version, integration.updatedAt, integration.devTunnelUrl, integration.manifest.contentSecurityPolicy ?? null, installation.configuration, siteInstallation?.configuration ?? null];
  return createHash('sha1').update(JSON.stringify(parts)).digest('base64url');
}

/** Asks the integration; the entry holds its script, or null, and how long that stands. */
async function ask(ctx: RequestContext, row: Installed, siteId: string, entry: Entry): Promise<void> {
  let script: SiteScript | null = null;
  let definitive = false;
  try {
    const { result } = await deliverPublishedScript(ctx, row.integration, row.installation, siteId, DEADLINE_MS);
    const body = result.response?.body;
    if (result.ok && body && body.length <= MAX_SCRIPT_BYTES) script = toScript(row.integration, body.toString('utf8'));
    // A 4xx (the integration does not handle the event, or says the site is not set up) stands until something changes.
    definitive = script !== null || (result.status >= 400 && result.status < 500);
  } catch {
    // The event could not even be recorded: tried again after FAILED_MS like any failure.
  }
  entry.script = script;
  entry.expiresAt = ctx.now().getTime() + (definitive ? KEPT_MS : FAILED_MS);
}

async function installedOn(ctx: RequestContext, site: SiteRow): Promise<Installed[]> {
  const i = integrationInstallations;
  const s = integrationSiteInstallations;
  const rows = await ctx.db
    .select({ installation: i, integration: integrations, siteInstallation: s })
    .from(i)
    .innerJoin(integrations, eq(integrations.id, i.integrationId))
    .leftJoin(s, and(eq(s.installationId, i.id), eq(s.siteId, site.id)))
    .where(and(eq(i.organizationId, site.organizationId), eq(i.status, 'active'), installationGiven({ siteId: site.id })));
  return rows.filter((r) => r.integration.scopes.some((scope) => INJECT_SCOPES.includes(scope)) && (r.siteInstallation?.status ?? 'active') === 'active');
}

/** The scripts the site's installations inject, those known within WAIT_MS, in a stable order. */
export async function siteScripts(ctx: RequestContext, site: SiteRow): Promise<SiteScript[]> {
  const installed = await installedOn(ctx, site);
  if (!installed.length) return [];
  const now = ctx.now().getTime();
  const entries = installed.map((row) => {
    const id = `${row.installation.id}:${site.id}`;
    const key = keyOf(row);
    const known = cache.get(id);
    if (known && known.key === key && (known.script === undefined || known.expiresAt > now)) return known;
    const entry: Entry = { key, pending: Promise.resolve(), expiresAt: Infinity };
    entry.pending = ask(ctx, row, site.id, entry);
    cache.delete(id);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(id, entry);
    return entry;
  });
  const waiting = entries.filter((e) => e.script === undefined);
  if (waiting.length) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(waiting.map((e) => e.pending)), new Promise<void>((resolve) => (timer = setTimeout(resolve, WAIT_MS)))]);
    clearTimeout(timer);
  }
  return entries.flatMap((e) => (e.script ? [e.script] : [])).sort((a, b) => a.integration.localeCompare(b.integration));
}
