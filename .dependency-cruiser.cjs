/**
 * The import rules of Quire, checked on every import of src/ (type-only, side-effect and
 * re-exports included) by `npm run lint:deps` and by test/architecture.test.ts.
 *
 * Layers, each importing only from the layers after it:
 *   app -> graphql/schema.ts, rest/routes.ts -> module adapters (present, rest, graphql/)
 *   jobs -> module services (modules name the task type of src/jobs/job.ts, type-only)
 *       -> module services -> module queries -> auth -> access-control -> context
 *       -> module inputs, loaders, tables -> db -> domain, config -> lib
 * Services and queries of one module call those of another only downward in MODULE_ORDER.
 */
const M = '[^/]+';
const L = {
  lib: '^src/lib/',
  config: '^src/config/',
  domain: '^src/domain/',
  db: '^src/db/',
  columns: '^src/db/columns\\.ts$',
  table: `^src/modules/${M}/table\\.ts$`,
  loaders: `^src/modules/${M}/loaders\\.ts$`,
  input: `^src/modules/${M}/input\\.ts$`,
  context: '^src/context/',
  accessControl: '^src/access-control/',
  auth: '^src/auth/',
  queries: `^src/modules/${M}/queries\\.ts$`,
  /** A module's other files (its tree codec, its markdown parser...): helpers of its own service. */
  internal: `^src/modules/${M}/(?!(table|loaders|input|queries|service|present|rest)\\.ts$)[^/]+\\.ts$`,
  service: `^src/modules/${M}/service\\.ts$`,
  adapter: `^src/modules/${M}/(present\\.ts$|rest\\.ts$|graphql/)`,
  graphqlKernel: '^src/graphql/(?!schema\\.ts$|print\\.ts$)',
  graphqlSchema: '^src/graphql/(schema|print)\\.ts$',
  restKernel: '^src/rest/(?!routes\\.ts$)',
  restRoutes: '^src/rest/routes\\.ts$',
  /** The integration runtime (sandbox, dev tunnels, render codec): below the services that call it. */
  integrationRuntime: '^src/modules/integrations/runtime/',
  jobs: '^src/jobs/',
  cli: '^src/cli/',
  app: '^src/(app/|main\\.ts$)',
};

/** Modules from the bottom up: a module's services may use those of the modules before it. */
const MODULE_ORDER = ['users', 'organizations', 'permissions', 'members', 'teams', 'invites', 'placement', 'revisions', 'integrations', 'collections', 'spaces', 'openapi', 'content', 'change-requests', 'comments', 'sites', 'published', 'saml', 'translations', 'installations'];

const npm = { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'core'] };
const any = (...layers) => ({ path: layers.map((l) => L[l]) });
const allow = (from, ...to) => ({ from: { path: L[from] }, to: any(...to) });

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import cycles, at any level, type-only ones included.', from: {}, to: { circular: true } },
    // src/db/tenancy.ts is the schema's tenancy map: data the tests check every statement against.
    { name: 'no-orphans', severity: 'error', comment: 'A file nothing imports is dead code.', from: { orphan: true, pathNot: ['^src/main\\.ts$', '^src/cli/main\\.ts$', '^src/graphql/print\\.ts$', '^src/db/tenancy\\.ts$', '\\.d\\.ts$'] }, to: {} },
    {
      name: 'no-sql-in-adapters',
      severity: 'error',
      comment: 'Adapters call services; SQL, loaders and access rules stay below them.',
      from: { path: L.adapter },
      to: { path: ['node_modules/drizzle-orm', L.db, L.loaders, L.queries, L.accessControl, L.auth] },
    },
    {
      name: 'tables-in-adapters-only-as-types',
      severity: 'error',
      comment: 'Adapters may name row types, never query tables.',
      from: { path: L.adapter },
      to: { path: L.table, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'module-internals-stay-home',
      severity: 'error',
      comment: "A module's helper files serve its own service and queries only.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: L.internal, pathNot: '^src/modules/$1/' },
    },
    ...MODULE_ORDER.map((module, index) => ({
      name: `module-order-internal-${module}`,
      severity: 'error',
      comment: `${module}'s helper files follow the same order as its services.`,
      from: { path: `^src/modules/${module}/(?!(table|loaders|input|present|rest)\\.ts$)[^/]+\\.ts$` },
      to: { path: `^src/modules/(${MODULE_ORDER.slice(index + 1).join('|') || '$^'})/(service|queries)\\.ts$` },
    })),
    ...MODULE_ORDER.map((module, index) => ({
      name: `module-order-${module}`,
      severity: 'error',
      comment: `${module} may use the services and queries of ${MODULE_ORDER.slice(0, index).join(', ') || 'no other module'} only.`,
      from: { path: `^src/modules/${module}/(service|queries)\\.ts$` },
      to: { path: `^src/modules/(${MODULE_ORDER.slice(index + 1).join('|') || '$^'})/(service|queries)\\.ts$` },
    })),
  ],
  allowedSeverity: 'error',
  allowed: [
    { from: { path: '^src/' }, to: npm },
    allow('lib', 'lib'),
    allow('config', 'config', 'lib'),
    allow('domain', 'domain', 'lib'),
    allow('db', 'db', 'domain', 'lib'),
    { from: { path: L.table }, to: { path: [L.columns, L.table, L.domain] } },
    allow('loaders', 'db', 'lib', 'domain', 'table'),
    allow('input', 'input', 'domain', 'lib', 'table'),
    allow('context', 'context', 'config', 'db', 'domain', 'lib', 'table'),
    allow('accessControl', 'accessControl', 'context', 'db', 'domain', 'lib', 'table'),
    allow('auth', 'auth', 'accessControl', 'context', 'config', 'db', 'domain', 'lib', 'table'),
    allow('queries', 'queries', 'accessControl', 'context', 'db', 'domain', 'lib', 'table', 'loaders', 'input'),
    // Helpers of a service may call the services of lower modules (module-order-internal-* keeps the order).
    allow('internal', 'internal', 'service', 'queries', 'accessControl', 'context', 'db', 'domain', 'lib', 'table', 'loaders', 'input', 'integrationRuntime'),
    allow('service', 'service', 'queries', 'internal', 'accessControl', 'context', 'db', 'domain', 'lib', 'table', 'loaders', 'input', 'integrationRuntime'),
    allow('integrationRuntime', 'integrationRuntime', 'domain', 'lib'),
    allow('adapter', 'adapter', 'service', 'input', 'table', 'context', 'domain', 'lib', 'graphqlKernel', 'restKernel'),
    allow('graphqlKernel', 'graphqlKernel', 'context', 'domain', 'lib'),
    allow('graphqlSchema', 'graphqlSchema', 'graphqlKernel', 'adapter'),
    allow('restKernel', 'restKernel', 'context', 'domain', 'lib'),
    allow('restRoutes', 'restKernel', 'adapter'),
    // Tasks act for the user who asked for them: the queue builds their request context.
    allow('jobs', 'jobs', 'service', 'auth', 'context', 'config', 'db', 'domain', 'lib', 'integrationRuntime'),
    // A module defines its own tasks (src/jobs/tasks.ts lists them) against the task's type.
    { from: { path: '^src/modules/[^/]+/' }, to: { path: '^src/jobs/job\\.ts$', dependencyTypes: ['type-only'] } },
    allow('cli', 'cli', 'service', 'config', 'db', 'domain', 'lib'),
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
