import { parse as parseYaml } from 'yaml';
import type { OpenApiSpecVersionRow, SpecOperation } from '../../db/schema/openapi';
import { specTextTooDeep } from './processing';

/** A page computed from a spec version: its key is stable across versions, so its id is too. */
export interface GeneratedPage {
  key: string;
  title: string;
  markdown: string;
}

/** What a computed page shows: an overview, then one page per tag (and the models when asked). */
export interface GeneratedPages {
  overview: string;
  pages: GeneratedPage[];
}

const UNTAGGED = 'Other operations';

/**
 * A table cell: one line, pipes escaped, so a description cannot break the table. Lines are
 * joined by splitting; the regular expression used before (spaces, a line break, spaces) went
 * back over every run of spaces without a line break: 200,000 spaces in a description took minutes.
 */
const cell = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\|/g, '\\|') || ' ';
/** Inline code that a backtick in the text cannot close early. */
const code = (text: string) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

function operationMarkdown(op: SpecOperation): string {
  const lines = [`## ${op.summary?.trim() || `${op.method} ${op.path}`}`, '', code(`${op.method} ${op.path}`), ''];
  if (op.operationId) lines.push(`Operation id: ${code(op.operationId)}`, '');
  if (op.description?.trim()) lines.push(op.description.trim(), '');
  if (op.parameters.length) {
    lines.push('### Parameters', '', '| Name | In | Required | Description |', '| --- | --- | --- | --- |');
    for (const p of op.parameters) lines.push(`| ${cell(code(p.name))} | ${cell(p.in)} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`);
    lines.push('');
  }
  if (op.responses.length) {
    lines.push('### Responses', '', '| Status | Description |', '| --- | --- |');
    for (const r of op.responses) lines.push(`| ${cell(r.status)} | ${cell(r.description)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The operations grouped by their first tag, in the order the tags first appear. */
function byTag(operations: readonly SpecOperation[]): Map<string, SpecOperation[]> {
  const groups = new Map<string, SpecOperation[]>();
  for (const op of operations) {
    const tag = op.tags[0]?.trim() || UNTAGGED;
    groups.set(tag, [...(groups.get(tag) ?? []), op]);
  }
  return groups;
}

const modelCache = new Map<string, string[]>();

/** The names of a version's schemas (OpenAPI 3 components or Swagger 2 definitions); versions never change, so kept. */
function modelNames(version: OpenApiSpecVersionRow): string[] {
  const cached = modelCache.get(version.id);
  if (cached) return cached;
  let names: string[] = [];
  try {
    // A version stored before nesting was checked is measured before it is parsed again.
    if (specTextTooDeep(version.text)) throw new Error('nested too deep');
    const doc = (version.text.trimStart().startsWith('{') ? JSON.parse(version.text) : parseYaml(version.text, { maxAliasCount: 100 })) as {
      components?: { schemas?: Record<string, unknown> };
      definitions?: Record<string, unknown>;
    };
    names = Object.keys(doc.components?.schemas ?? doc.definitions ?? {});
  } catch {
    // Stored versions were parsed once already; a failure here leaves the models page empty.
  }
  if (modelCache.size >= 100) modelCache.delete(modelCache.keys().next().value!);
  modelCache.set(version.id, names);
  return names;
}

/** The pages of a spec version, as an OpenAPI computed page shows them. */
export function specPages(slug: string, version: OpenApiSpecVersionRow, options: { models: boolean }): GeneratedPages {
  const groups = byTag(version.operations);
  const pages: GeneratedPage[] = [...groups].map(([tag, ops]) => ({
    key: `tag:${tag}`,
    title: tag,
    markdown: ops.map(operationMarkdown).join('\n'),
  }));
  if (options.models) {
    const names = modelNames(version);
    pages.push({ key: 'models', title: 'Models', markdown: names.length ? names.map((n) => `- ${code(n)}`).join('\n') : 'The specification defines no models.' });
  }
  const title = version.title || slug;
  const overview = [
    `Reference of ${title}${version.apiVersion ? ` (version ${code(version.apiVersion)})` : ''}, computed from the OpenAPI specification ${code(slug)}.`,
    '',
    `${version.operations.length} operation${version.operations.length === 1 ? '' : 's'}:`,
    '',
    ...[...groups].map(([tag, ops]) => `- ${tag}: ${ops.length}`),
  ].join('\n');
  return { overview, pages };
}

/** What a computed page says when its spec has nothing to show yet. */
export function specUnavailable(slug: string, reason: 'missing' | 'pending' | 'failed', error?: string | null): string {
  if (reason === 'missing') return `This page is computed from the OpenAPI specification ${code(slug)}, which does not exist in this organization.`;
  if (reason === 'pending') return `This page is computed from the OpenAPI specification ${code(slug)}, which has not been processed yet.`;
  return `This page is computed from the OpenAPI specification ${code(slug)}, whose processing failed${error ? `: ${error}` : ''}.`;
}
