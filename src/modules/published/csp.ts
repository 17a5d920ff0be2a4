/** A Content-Security-Policy as directives and their sources. */
export type Directives = Record<string, string[]>;

/**
 * A published page's own policy: no script of its own, its styles inline, images from the site's
 * files or the web. Integrations' site scripts widen it (below).
 */
const PAGE: Directives = {
  'default-src': ["'none'"],
  'style-src': ["'unsafe-inline'"],
  'img-src': ["'self'", 'https:', 'data:'],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/*
 * What an integration's manifest (`contentSecurityPolicy`) may add for its script: where it loads
 * more code from, sends its beacons, shows images, frames and fonts. Only host or scheme sources:
 * a keyword such as 'unsafe-eval' or 'unsafe-inline', or `*`, would open the page to any script,
 * not just the one the site installed, and directives such as frame-ancestors or form-action are
 * the page's own business.
 */
const WIDENED = new Set(['script-src', 'script-src-elem', 'connect-src', 'img-src', 'frame-src', 'font-src', 'media-src', 'style-src', 'worker-src']);
const HOST_SOURCE = /^(https?:\/\/)?(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[^\s;,'"]*)?$/i;
const SCHEME_SOURCE = /^(https|wss|data|blob):$/i;

/** An integration's `contentSecurityPolicy` (a policy string or an object of directives) as directives, keeping only what it may add. */
export function integrationDirectives(policy: string | Record<string, string> | undefined): Directives {
  const entries: [string, string][] = typeof policy === 'string'
    ? policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...sources]) => [name!, sources.join(' ')])
    : Object.entries(policy ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  const out: Directives = {};
  for (const [name, value] of entries) {
    const directive = name.toLowerCase();
    if (!WIDENED.has(directive)) continue;
    const sources = value.split(/[\s,;]+/).filter((s) => s && s !== '*' && (HOST_SOURCE.test(s) || SCHEME_SOURCE.test(s)));
    if (sources.length) out[directive] = [...(out[directive] ?? []), ...sources];
  }
  return out;
}

/** The page's policy with the inline scripts' hashes and what their integrations may add, and `extra` (its blocks' frames and their host script). */
export function pagePolicy(scripts: { hash: string; directives: Directives }[] = [], extra: Directives = {}): string {
  const policy: Directives = Object.fromEntries(Object.entries(PAGE).map(([k, v]) => [k, [...v]]));
  const add = (directive: string, sources: string[]) => {
    const list = (policy[directive] ??= []);
    for (const s of sources) if (!list.includes(s)) list.push(s);
  };
  for (const script of scripts) {
    add('script-src', [script.hash]);
    for (const [directive, sources] of Object.entries(script.directives)) add(directive === 'script-src-elem' ? 'script-src' : directive, sources);
  }
  for (const [directive, sources] of Object.entries(extra)) add(directive, sources);
  return Object.entries(policy)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}
