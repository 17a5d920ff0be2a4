import { GitBookAPI, type GitBookAPIError, type PublishedSiteContent, type PublishedSiteContentLookup } from '@gitbook/api';
import { seedDemoIfEmpty, type DemoData } from '../../src/app/seed';
import { startTestApp, TEST_ORIGIN, type TestApp, type TestAppOptions } from './clients';
import { validateResponse } from './openapi';

/**
 * The app served over real HTTP for the official client, as the platform's renderer reads it.
 * Shared by the client tests of the renderer's calls (URL lookup, revision pages, the whole walk).
 */
export interface Served {
  url: string;
  /** The official client on the served app, with `token` or anonymous. */
  client(token?: string): GitBookAPI;
  stop(): Promise<void>;
}

export async function served(t: TestApp): Promise<Served> {
  const server = await t.serve();
  return { url: server.url, client: (token) => new GitBookAPI({ endpoint: server.url, ...(token ? { authToken: token } : {}) }), stop: server.stop };
}

/** The demo a first start seeds (two published sites), served, with its admin and an anonymous client. */
export interface ServedDemo extends Served {
  t: TestApp;
  demo: DemoData;
  /** The public site's URL ("Demo documentation", two sections). */
  docs: string;
  /** The demo's spaces by title. */
  spaces: Record<string, string>;
  anonymous: GitBookAPI;
  admin: GitBookAPI;
  /** Stops the server and closes the app. */
  close(): Promise<void>;
}

export async function servedDemo(options: TestAppOptions = {}): Promise<ServedDemo> {
  const t = await startTestApp({}, options);
  try {
    const demo = (await seedDemoIfEmpty(t.db))!;
    const server = await served(t);
    const listed = (await t.rest('GET', `/v1/orgs/${demo.organizationId}/spaces`, { token: demo.token })).body.items as { id: string; title: string }[];
    return {
      ...server,
      t,
      demo,
      docs: `${TEST_ORIGIN}${demo.sites[0].path}`,
      spaces: Object.fromEntries(listed.map((s) => [s.title, s.id])),
      anonymous: server.client(),
      admin: server.client(demo.token),
      close: async () => {
        await server.stop();
        await t.close();
      },
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** The renderer's URL lookup, as it makes it (a human visitor, no redirect on error); the answer is held to the spec. */
export async function lookupAs(api: GitBookAPI, url: string, visitor: Record<string, unknown> = {}, redirectOnError = false): Promise<PublishedSiteContentLookup> {
  const { data } = await api.urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: {}, type: 'human', ...visitor }, redirectOnError } as never);
  validateResponse('POST', '/v1/urls/published', 200, data);
  return data;
}

/** The content a lookup answered; a redirect fails the test. */
export const content = (answer: PublishedSiteContentLookup): PublishedSiteContent => {
  if ('redirect' in answer) throw new Error(`expected content, got a redirect to ${answer.redirect}`);
  return answer;
};

/** The status and message a call was refused with, or null if it succeeded. */
export const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: GitBookAPIError) => ({ code: e.code, message: e.message }));

/** RevisionPageMetaLinks of @gitbook/api 0.202.0 (the renderer's listRevisionPageMetaLinks); 0.137.0 does not list the route. */
export const META_LINKS = {
  type: 'object',
  properties: {
    canonical: { oneOf: [{ $ref: '#/components/schemas/ContentRefPage' }, { $ref: '#/components/schemas/ContentRefURL' }] },
    alternates: { type: 'array', items: { oneOf: [{ $ref: '#/components/schemas/ContentRefPage' }, { $ref: '#/components/schemas/ContentRefURL' }] } },
  },
};
