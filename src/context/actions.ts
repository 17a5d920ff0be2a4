import type { SQL } from 'drizzle-orm';
import type { CollectionRow } from '../db/schema/collections';
import type { InstallationRow } from '../db/schema/installations';
import type { IntegrationRow } from '../db/schema/integrations';
import type { MemberRow } from '../db/schema/members';
import type { OrganizationRow } from '../db/schema/organizations';
import type { SiteRow } from '../db/schema/sites';
import type { SpaceRow } from '../db/schema/spaces';
import type { TeamRow } from '../db/schema/teams';
import type { TranslationRow } from '../db/schema/translations';

export interface MemberResource {
  organization: OrganizationRow;
  member: MemberRow;
}

/**
 * Every action a caller can attempt, with the loaded row it applies to. Each has exactly one
 * policy in src/access-control/policies.ts, and the compiler checks that none is missing.
 */
export interface ActionResources {
  /** See the organization at all: any enabled member, guests included. */
  'organization:view': OrganizationRow;
  /** Change settings, members, invites and teams. */
  'organization:admin': OrganizationRow;
  /** List members and teams: every member but guests. */
  'organization:listMembers': OrganizationRow;
  /** Create spaces and collections at the top level. */
  'organization:createContent': OrganizationRow;
  /** Manage at least one team: admins, and owners of a team. */
  'organization:ownTeam': OrganizationRow;
  /** See one member's record: anyone who may list members, and every member their own. */
  'member:view': MemberResource;
  /** Leave the organization yourself, or remove someone as an admin. */
  'member:remove': MemberResource;
  /** See a team and its members: members who may list teams, and the team's own members. */
  'team:view': TeamRow;
  /** Rename, delete and manage members: organization admins and the team's owners. */
  'team:admin': TeamRow;
  /** See the collection: any role on it. */
  'collection:view': CollectionRow;
  /** Create spaces and collections inside it: `create` or more on it. */
  'collection:create': CollectionRow;
  /** Rename, move, transfer, delete and set its default level: `admin` on it. */
  'collection:admin': CollectionRow;
  /** Read the space and its content: any role on it. */
  'space:view': SpaceRow;
  /** Read its pages, files and revisions: any role on it; an installation needs a content scope, not only metadata. */
  'space:readContent': SpaceRow;
  /** Take part in discussions: `comment` or more. */
  'space:comment': SpaceRow;
  /** Change the content through change requests: `edit` or more, while the space is not locked. */
  'space:edit': SpaceRow;
  /** Review change requests: `review` or more. */
  'space:review': SpaceRow;
  /** Merge change requests: `edit` or more, while the space is not locked. */
  'space:merge': SpaceRow;
  /** Rename, move, transfer, delete and restore, and manage who has access: `admin`. */
  'space:admin': SpaceRow;
  /** See a site, its structure and settings: members with a role (guests do not). */
  'site:view': SiteRow;
  /**
   * Read what a published site shows its visitors, whatever its visibility: its members, and the
   * API token its URL lookup gave (share keys and open visibilities are the service's to check).
   */
  'site:readPublished': SiteRow;
  /** Create, change, publish and delete sites, their spaces and share links: `create` or more. */
  'site:manage': SiteRow;
  /** See a translation and its runs: members with a role (guests do not). */
  'translation:view': TranslationRow;
  /**
   * Change, delete and run a translation: `create` or more in the organization, the role that may
   * create the space a run writes to (admins and creators; creating one needs the same role).
   */
  'translation:manage': TranslationRow;
  /** See an integration: anyone for public and unlisted ones, the owner's members for private ones, its own tokens. */
  'integration:view': IntegrationRow;
  /** Publish a new version, unpublish, turn dev mode on and off: the owner organization's admins. */
  'integration:publish': IntegrationRow;
  /** Read its installations and events across organizations: the owner's admins and the integration's own token. */
  'integration:operate': IntegrationRow;
  /** See an installation: members with a role in its organization, its integration's token, its own token. */
  'installation:view': InstallationRow;
  /** Configure, choose spaces and sites, uninstall: its organization's admins; configuration also by its integration's tokens. */
  'installation:manage': InstallationRow;
}

export type Action = keyof ActionResources;

/** Kinds of rows whose lists are filtered in SQL by what the viewer may see. */
export type ListedKind = 'space' | 'collection';

/**
 * The one way services ask whether the caller may do something. Answers are remembered for the
 * request; `forget` drops them after a write that changes who may do what.
 */
export interface Authorizer {
  can<A extends Action>(action: A, resource: ActionResources[A]): Promise<boolean>;
  /** Throws FORBIDDEN when refused: the caller sees the object but may not do this. */
  assert<A extends Action>(action: A, resource: ActionResources[A], message?: string): Promise<void>;
  /** Throws NOT_FOUND when refused: for reads, where refusing must not reveal that the object exists. */
  assertVisible<A extends Action>(action: A, resource: ActionResources[A], what: string): Promise<void>;
  /** The resources, among these, on which the action is allowed; in their order. */
  allowed<A extends Action>(action: A, resources: readonly ActionResources[A][]): Promise<ActionResources[A][]>;
  /**
   * The SQL condition that keeps, in a list of spaces or collections of these organizations, the
   * rows the caller may see; undefined when they may see every row there.
   */
  listFilter(kind: ListedKind, organizationIds: readonly string[]): Promise<SQL | undefined>;
  /**
   * Records an answer already known, for a row a list statement judged with the SQL twin of the
   * action's policy: asking again then costs nothing.
   */
  remember<A extends Action>(action: A, resource: ActionResources[A], answer: boolean): void;
  forget(): void;
}
