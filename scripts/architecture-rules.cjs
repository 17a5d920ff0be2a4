/**
 * The folder-level rules of Quire's layout, read by scripts/architecture.ts (and by the README check
 * in test/architecture.test.ts). The file-level rules are in .dependency-cruiser.cjs.
 */
/** Modules from the bottom up: a module may use the front doors of the modules before it only. */
exports.MODULE_ORDER = [
  'users',
  'organizations',
  'members',
  'teams',
  'invites',
  'revisions',
  'integrations',
  'events',
  'placement',
  'collections',
  'spaces',
  'permissions',
  'openapi',
  'content',
  'change-requests',
  'comments',
  'sites',
  'published',
  'saml',
  'translations',
  'installations',
];

/** The floors of src/, from the top down, as the README lists them. */
exports.LAYERS = ['app', 'cli', 'modules', 'jobs', 'graphql', 'rest', 'auth', 'access-control', 'context', 'db', 'db/schema', 'runtime', 'domain', 'config', 'lib'];


/**
 * Folder imports that break the module order or make two folders import each other, kept on
 * purpose until they can be mended; each says why. scripts/architecture.ts fails on any other,
 * and on an entry here that nothing needs any more: the list only shrinks.
 */
exports.ALLOWED = [
  {
    from: 'modules/content',
    to: 'modules/change-requests',
    why:
      'Change requests are versions of content, and content shows them: a merge revision names the change request it merged ' +
      '(REST `mergedFrom`), and page edits may target a change request (`changeRequestId`). Both go through the front doors.',
  },
  {
    from: 'modules/spaces',
    to: 'modules/sites',
    why:
      "The REST Space shows how sites publish it (its visibility and `urls.published`), and `GET /v1/spaces/{id}?shareKey=` " +
      "resolves a share link of a site. GraphQL adds these fields from the sites module; REST's one Space shape cannot.",
  },
];
