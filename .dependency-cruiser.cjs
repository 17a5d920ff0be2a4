/**
 * The import rules of Quire, checked on every import of src/ (type-only, side-effect and
 * re-exports included) by `npm run lint:deps` and by test/architecture.test.ts. The rules that
 * look at folders rather than files (no cycle between folders, the module order) are in
 * scripts/architecture.ts, which runs this configuration; the module order, the floors and the
 * allow-list are in scripts/architecture-rules.cjs.
 *
 * Floors, each importing only from the floors after it (the README's "Layout" lists the same):
 *   app -> cli -> modules -> jobs -> graphql, rest -> auth -> access-control -> context
 *       -> db -> db/schema -> runtime -> domain, config -> lib
 * Inside a module: adapters (rest.ts, present.ts, graphql/) -> service.ts -> its other files.
 * Outside its folder a module is reached through its front door: service.ts, and for adapters
 * also graphql/refs.ts (its GraphQL types) and present.ts (its REST shapes).
 */
const M = '[^/]+';
const L = {
  lib: '^src/lib/',
  config: '^src/config/',
  domain: '^src/domain/',
  runtime: '^src/runtime/',
  schema: '^src/db/schema/',
  db: '^src/db/(?!schema/)',
  context: '^src/context/',
  accessControl: '^src/access-control/',
  auth: '^src/auth/',
  graphql: '^src/graphql/',
  rest: '^src/rest/',
  jobs: '^src/jobs/',
  /** Everything of a module but its adapters: the service and the files it keeps private. */
  core: `^src/modules/${M}/(?!rest\\.ts$|present\\.ts$|graphql/)`,
  adapter: `^src/modules/${M}/(rest\\.ts$|present\\.ts$|graphql/)`,
  cli: '^src/cli/',
  app: '^src/(app/|main\\.ts$)',
};

const npm = { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'core'] };
const any = (...layers) => ({ path: layers.map((l) => L[l]) });
const allow = (from, ...to) => ({ from: { path: L[from] }, to: any(...to) });

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import cycles between files, type-only ones included.', from: {}, to: { circular: true } },
    // src/db/tenancy.ts is the schema's tenancy map: data the tests check every statement against.
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A file nothing imports is dead code.',
      from: { orphan: true, pathNot: ['^src/main\\.ts$', '^src/cli/main\\.ts$', '^src/app/print-schema\\.ts$', '^src/db/tenancy\\.ts$', '\\.d\\.ts$'] },
      to: {},
    },
    {
      name: 'front-door-only',
      severity: 'error',
      comment: "Another module is reached through its service.ts; adapters may also use its graphql/refs.ts and present.ts.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', `^src/modules/${M}/(service\\.ts|graphql/refs\\.ts|present\\.ts)$`] },
    },
    {
      name: 'adapter-doors-for-adapters',
      severity: 'error',
      comment: "Another module's GraphQL types and REST shapes are for adapters; a service works with rows.",
      from: { path: L.core },
      to: { path: `^src/modules/${M}/(graphql/|present\\.ts$|rest\\.ts$)` },
    },
    {
      name: 'no-sql-in-adapters',
      severity: 'error',
      comment: 'Adapters call services; SQL and access rules stay below them.',
      from: { path: L.adapter },
      to: { path: ['node_modules/drizzle-orm', L.db, L.accessControl, L.auth] },
    },
    {
      name: 'tables-in-adapters-only-as-types',
      severity: 'error',
      comment: 'Adapters may name row types, never query tables.',
      from: { path: L.adapter },
      to: { path: L.schema, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-stay-home',
      severity: 'error',
      comment: "A module's adapters use its own service, not its private files (queries, loaders, helpers).",
      from: { path: '^src/modules/([^/]+)/(rest\\.ts$|present\\.ts$|graphql/)' },
      to: { path: '^src/modules/$1/', pathNot: ['^src/modules/$1/(service|input)\\.ts$', '^src/modules/$1/(rest\\.ts$|present\\.ts$|graphql/)'] },
    },
  ],
  allowedSeverity: 'error',
  allowed: [
    { from: { path: '^src/' }, to: npm },
    allow('lib', 'lib'),
    allow('config', 'config', 'lib'),
    allow('domain', 'domain', 'lib'),
    allow('runtime', 'runtime', 'domain', 'lib'),
    allow('schema', 'schema', 'domain'),
    allow('db', 'db', 'schema', 'config', 'domain', 'lib'),
    allow('context', 'context', 'config', 'db', 'schema', 'domain', 'lib'),
    allow('accessControl', 'accessControl', 'context', 'db', 'schema', 'domain', 'lib'),
    allow('auth', 'auth', 'accessControl', 'context', 'config', 'db', 'schema', 'domain', 'lib'),
    allow('graphql', 'graphql', 'auth', 'context', 'config', 'domain', 'lib'),
    allow('rest', 'rest', 'auth', 'context', 'config', 'domain', 'lib'),
    // Tasks act for the user who asked for them: the queue builds their request context.
    allow('jobs', 'jobs', 'auth', 'context', 'config', 'db', 'schema', 'domain', 'lib'),
    // A module's own files and other modules' front doors; which of those is checked above and by the module order.
    allow('core', 'core', 'runtime', 'accessControl', 'context', 'config', 'db', 'schema', 'domain', 'lib'),
    { from: { path: L.core }, to: { path: '^src/jobs/job\\.ts$', dependencyTypes: ['type-only'] } },
    allow('adapter', 'adapter', 'core', 'graphql', 'rest', 'context', 'config', 'schema', 'domain', 'lib'),
    allow('cli', 'cli', 'core', 'config', 'db', 'schema', 'domain', 'lib'),
    { from: { path: L.app }, to: { path: '^src/' } },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/|node_modules',
    exclude: { path: 'node_modules/.*/node_modules' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], mainFields: ['module', 'main', 'types', 'typings'] },
  },
};
