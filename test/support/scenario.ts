import type { Role } from '../../src/domain/roles';
import { startTestApp, type TestApp } from './clients';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from './factories';

/** A member of Acme to build: their organization role (null for a guest) and display name (generated if left out). */
export type Cast = [role: Role | null, name?: string];

export interface Scenario<K extends string> {
  t: TestApp;
  acme: OrgFixture;
  other: OrgFixture;
  /** The members of Acme, under the keys they were asked for. */
  people: Record<K, Actor>;
}

export interface ScenarioOptions {
  /** Awaited before each member is built, e.g. to space their creation times apart. */
  beforeEachMember?: () => Promise<unknown>;
}

/**
 * The fixture most REST and GraphQL test files start from: a fresh app, the organizations "Acme"
 * then "Other" (each with its admin), then the members of Acme in `cast`, built in the order listed:
 *
 *     ({ t, acme, other, people: { reader, guest } } = await scenario({ reader: ['read', 'Rita Reader'], guest: [null, 'Gus Guest'] }));
 *
 * The caller closes `t` (in `afterAll`); if building the rest fails, the app is closed here.
 */
export async function scenario<K extends string>(cast: Record<K, Cast>, options: ScenarioOptions = {}): Promise<Scenario<K>> {
  const t = await startTestApp();
  try {
    const acme = await buildOrganization(t.db, 'Acme');
    const other = await buildOrganization(t.db, 'Other');
    const people = {} as Record<K, Actor>;
    for (const [key, [role, name]] of Object.entries(cast) as [K, Cast][]) {
      await options.beforeEachMember?.();
      people[key] = await buildMember(t.db, acme.organizationId, role, name);
    }
    return { t, acme, other, people };
  } catch (error) {
    await t.close();
    throw error;
  }
}
