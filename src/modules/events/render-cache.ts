import { createHash } from 'node:crypto';
import { UpstreamError } from '../../domain/errors';
import type { InstallationRow } from '../../db/schema/installations';
import type { IntegrationRow } from '../../db/schema/integrations';
import type { DeliveryContext } from './deliver';
import { renderForReaders, type Rendered } from './inline';

/*
 * Renders of integration blocks in documents, for readers: a published page asks the integration
 * once, and every view after it, until the integration's `max-age` runs out, is served from here
 * without a new `ui_render` event. Kept in this process, bounded by count and by bytes, least
 * recently used dropped first.
 *
 * The key is everything the render depends on: the integration's version (and its update time,
 * for a republish of the same version), the installation and its configuration, the space, the
 * block, its props and the theme. Only renders made for no one in particular are stored, so
 * whatever is served from here was never tailored to a signed-in user.
 */

export interface DocumentBlock {
  integration: IntegrationRow;
  installation: InstallationRow;
  spaceId: string;
  block: string;
  props: Record<string, unknown>;
  theme: 'light' | 'dark';
}

export type BlockOutcome = { ok: true; output: Record<string, unknown>; expiresAt: number } | { ok: false; reason: string; expiresAt: number };

/** When the integration says nothing: long enough that a busy page is not a storm of events. */
const DEFAULT_MAX_AGE_S = 60;
const MAX_MAX_AGE_S = 86_400;
/** A failure is asked again after this, not on every view. */
const FAILED_S = 30;
const MAX_ENTRIES = 1_000;
const MAX_BYTES = 16 * 1024 * 1024;

interface Entry {
  outcome: BlockOutcome;
  bytes: number;
}

const entries = new Map<string, Entry>();
const inFlight = new Map<string, Promise<BlockOutcome>>();
let totalBytes = 0;

/** The cache key of a document block's render. */
export function documentRenderKey(b: Omit<DocumentBlock, 'integration' | 'installation'> & { integration: Pick<IntegrationRow, 'id' | 'version' | 'updatedAt'>; installation: Pick<InstallationRow, 'id' | 'configuration'> }): string {
  const parts = [b.integration.id, b.integration.version, b.integration.updatedAt, b.installation.id, b.installation.configuration, b.spaceId, b.block, b.props, b.theme];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

function drop(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  totalBytes -= entry.bytes;
}

function store(key: string, outcome: BlockOutcome) {
  const bytes = outcome.ok ? Buffer.byteLength(JSON.stringify(outcome.output)) : 64;
  if (bytes > MAX_BYTES / 8) return;
  drop(key);
  while (entries.size && (entries.size >= MAX_ENTRIES || totalBytes + bytes > MAX_BYTES)) drop(entries.keys().next().value!);
  entries.set(key, { outcome, bytes });
  totalBytes += bytes;
}

/** A kept outcome still within its age, marked as just used. */
export function cachedDocumentRender(key: string, now: number): BlockOutcome | null {
  const entry = entries.get(key);
  if (!entry) return null;
  if (entry.outcome.expiresAt <= now) {
    drop(key);
    return null;
  }
  entries.delete(key);
  entries.set(key, entry);
  return entry.outcome;
}

/** What the cache holds, for tests and the operator's view. */
export function documentRenderCacheSize(): { entries: number; bytes: number } {
  return { entries: entries.size, bytes: totalBytes };
}

const ageOf = (rendered: Rendered) => Math.min(MAX_MAX_AGE_S, rendered.maxAge ?? DEFAULT_MAX_AGE_S);

/**
 * A block's render for readers: from the cache, or from the integration within `deadlineMs`.
 * Views of the same block at the same moment share one event. Never throws for what the
 * integration does: a failure is an outcome with its reason.
 */
export async function renderDocumentBlock(ctx: DeliveryContext, b: DocumentBlock, deadlineMs: number): Promise<BlockOutcome> {
  const key = documentRenderKey(b);
  const now = ctx.now().getTime();
  const kept = cachedDocumentRender(key, now);
  if (kept) return kept;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const request = { componentId: b.block, props: b.props, context: { type: 'document', spaceId: b.spaceId, editable: false, theme: b.theme } };
  const render = renderForReaders(ctx, b.integration, request, { installation: b.installation, spaceId: b.spaceId }, deadlineMs).then(
    (rendered): BlockOutcome => {
      const maxAge = ageOf(rendered);
      const outcome: BlockOutcome = { ok: true, output: rendered.output, expiresAt: ctx.now().getTime() + maxAge * 1000 };
      if (maxAge > 0) store(key, outcome);
      return outcome;
    },
    (error: unknown): BlockOutcome => {
      const outcome: BlockOutcome = { ok: false, reason: error instanceof UpstreamError ? error.message : 'the render could not be started', expiresAt: ctx.now().getTime() + FAILED_S * 1000 };
      store(key, outcome);
      return outcome;
    },
  );
  inFlight.set(key, render);
  try {
    return await render;
  } finally {
    inFlight.delete(key);
  }
}
