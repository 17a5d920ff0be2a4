import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'vitest';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';

const NODE = `query ($id: ID!) { node(id: $id) { ... on Translation { status failure restId stats { runs latestPages latestWords totalPages totalWords latestRunDurationMs } resultSpace { id } resultRevision } } }`;

/** The translation as GraphQL shows it (with the status REST cannot show, FAILED, and its reason). */
export async function translationNode(t: TestApp, token: string, id: string) {
  const res = await t.graphql(NODE, { id: gid('Translation', id) }, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.node;
}

/** Waits until the translation's queued run has ended, and answers the translation then. */
export async function waitForRun(t: TestApp, token: string, id: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const node = await translationNode(t, token, id);
    if (node.status === 'COMPLETED' || node.status === 'FAILED') return node;
    if (Date.now() > deadline) throw new Error(`translation ${id} still ${node.status} after ${timeoutMs} ms`);
    await delay(50);
  }
}
