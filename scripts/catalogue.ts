/**
 * `npm run catalogue -- <checkout> [names...]`: the platform's catalogue of integrations
 * (GitbookIO/integrations, extracted outside the project) tried against Quire as a person tries it.
 * Starts Quire on a free port with PGlite and the demo data, then for each integration: publish it
 * unchanged with the official CLI, install it, edit a page, open a published page with cookies,
 * render its blocks, and read its events. Prints one table (Markdown) and, with `--json <file>`,
 * writes the outcomes.
 *
 * Not part of CI: the catalogue is not in the project. See docs/catalogue.md for the results.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { exercise, type Outcome } from './catalogue/exercise';
import { integrationNames, prepareCheckout } from './catalogue/prepare';
import { startQuire } from './catalogue/quire';
import { encodeGlobalID } from '@pothos/plugin-relay';

/** The issue's twelve first, then the rest in name order. */
const FIRST = ['mermaid', 'plantuml', 'github-files', 'googleanalytics', 'plausible', 'segment', 'hotjar', 'posthog', 'onetrust', 'fathom', 'webhook', 'slack'];

function parseArgs(argv: string[]): { checkout: string; names: string[]; json: string | null } {
  const json = argv.indexOf('--json');
  const jsonFile = json >= 0 ? (argv[json + 1] ?? null) : null;
  const rest = json >= 0 ? [...argv.slice(0, json), ...argv.slice(json + 2)] : argv;
  const [checkout, ...names] = rest;
  if (!checkout) {
    console.error('usage: npm run catalogue -- <extracted GitbookIO/integrations checkout> [names...] [--json out.json]');
    process.exit(2);
  }
  return { checkout: resolve(checkout), names, json: jsonFile };
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function row(o: Outcome): string {
  const e = o.events;
  const events = e ? `${e.delivered}/${e.notHandled}/${e.failed}${e.pending ? ` (+${e.pending} pending)` : ''}` : '-';
  const renders = o.renders.length ? o.renders.map((r) => `${r.block}: ${r.result}`).join('; ') : '-';
  const failures = e ? Object.entries(e.failures).map(([type, error]) => `${type}: ${error}`) : [];
  return `| ${[o.name, o.target, o.published, o.installed, events, renders, o.siteScript, [...o.notes, ...failures].join('; ') || '-'].map(cell).join(' | ')} |`;
}

async function main(): Promise<void> {
  const { checkout, names: asked, json } = parseArgs(process.argv.slice(2));
  const all = integrationNames(checkout);
  const names = asked.length ? asked : [...FIRST.filter((n) => all.includes(n)), ...all.filter((n) => !FIRST.includes(n))];
  const unknown = names.filter((n) => !all.includes(n));
  if (unknown.length) throw new Error(`not in the checkout: ${unknown.join(', ')}`);

  console.error(`[catalogue] installing dependencies of ${names.length} integrations (npm registry)`);
  const installFailures = await prepareCheckout(checkout, names);
  const quire = await startQuire();
  console.error(`[catalogue] Quire at ${quire.url}, organization ${quire.organizationId}`);
  const outcomes: Outcome[] = [];
  try {
    const space = await quire.rest('POST', `/v1/orgs/${quire.organizationId}/spaces`, { title: 'Catalogue' });
    const spaceId = space.body.id as string;
    await quire.graphql('mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } } }', {
      input: { spaceId: encodeGlobalID('Space', spaceId), title: 'Welcome', markdown: 'A page for the catalogue.' },
    });
    for (const name of names) {
      const started = Date.now();
      let outcome: Outcome;
      try {
        outcome = await exercise(quire, checkout, name, spaceId);
      } catch (error) {
        outcome = { name, target: '?', published: '?', installed: '?', events: null, renders: [], siteScript: '-', notes: [`runner error: ${(error as Error).message}`] };
      }
      const failure = installFailures.get(name);
      if (failure) outcome.notes.unshift(failure);
      outcomes.push(outcome);
      console.error(`[catalogue] ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      console.error(row(outcome));
    }
  } finally {
    await quire.stop();
  }
  console.log('| integration | target | published | installed | events delivered/not handled/failed | block renders | site script | causes |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const o of outcomes) console.log(row(o));
  if (json) writeFileSync(json, JSON.stringify(outcomes, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
