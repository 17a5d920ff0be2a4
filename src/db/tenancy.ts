/**
 * Which organization each table's rows belong to: the map a move to a database sharded by
 * organization starts from (README, "Scaling out"). Every table of the schema is listed, the
 * tables of hand-written migrations too; test/db/tenancy.test.ts fails on a table left out, and
 * test/app/tenant-scoping.test.ts checks every statement the server runs against it.
 *
 * - `global`: shared by every organization (or by none), with the reason.
 * - `organization`: the row names its organization in `organization_id` (`organizations`: its `id`).
 * - `parent`: no organization column; the row belongs to the organization of the row it hangs off,
 *   through a foreign key to one of `parents` (themselves per organization). `keys` names columns
 *   that hold a parent's id without a foreign key.
 */
export type Tenancy = { scope: 'global'; reason: string } | { scope: 'organization' } | { scope: 'parent'; parents: readonly string[]; keys?: readonly string[] };

const global = (reason: string): Tenancy => ({ scope: 'global', reason });
const organization: Tenancy = { scope: 'organization' };
const parent = (...parents: string[]): Tenancy => ({ scope: 'parent', parents });
const parentBy = (parents: string[], keys: string[]): Tenancy => ({ scope: 'parent', parents, keys });

export const TABLE_TENANCY: Readonly<Record<string, Tenancy>> = {
  users: global('a person can belong to several organizations'),
  // scope_organization_id limits a single sign-on token to one organization; the row is still the user's.
  api_tokens: global("a user's tokens, read before any organization is known"),
  server_secrets: global('signing keys of the whole server'),
  rate_limit_windows: global('counts per token or IP address, before any organization is known'),
  write_positions: global("each user's last WAL position, read before any organization is known"),
  content_objects: global('content-addressed: one row serves every space, of any organization, holding the same object'),
  blobs: global('content-addressed file bytes, shared like content_objects'),
  integrations: global('published once and installed by any organization (public ones are listed to all)'),
  integration_tokens: global("an integration's tokens, read before any organization is known"),
  integration_events: global('the log of an integration, read by its publisher across the organizations it is installed in'),

  organizations: organization,
  organization_members: organization,
  organization_link_invites: organization,
  teams: organization,
  team_members: organization,
  collections: organization,
  spaces: organization,
  content_grants: organization,
  sites: organization,
  translations: organization,
  openapi_specs: organization,
  saml_providers: organization,
  integration_installations: organization,

  revisions: parent('spaces'),
  change_requests: parent('spaces'),
  change_request_contributors: parent('change_requests'),
  comments: parent('spaces', 'change_requests'),
  comment_replies: parent('comments'),
  // subject_id is the id of the comment, or of the reply, reacted to.
  comment_reactions: parentBy(['comments'], ['subject_id']),
  search_spaces: parent('spaces'),
  search_sections: parent('spaces'),
  site_spaces: parent('sites', 'spaces'),
  site_sections: parent('sites'),
  site_section_groups: parent('sites'),
  share_links: parent('sites'),
  site_redirects: organization,
  site_customizations: parent('sites'),
  site_publishing_auth: parent('sites'),
  translation_pages: parent('translations'),
  openapi_spec_versions: parent('openapi_specs'),
  saml_requests: parent('saml_providers'),
  saml_assertions: parent('saml_providers'),
  integration_space_installations: parent('integration_installations', 'spaces'),
  integration_site_installations: parent('integration_installations', 'sites'),
};

/** The tables whose rows belong to one organization, directly or through a parent. */
export const perOrganizationTables = (): string[] => Object.keys(TABLE_TENANCY).filter((name) => TABLE_TENANCY[name].scope !== 'global');
