import { createRequire } from 'node:module';
import { describe, it, expect } from 'vitest';
import { validateResponse, validateSchema } from '../support/openapi';

const organization = {
  object: 'organization',
  id: 'org_1',
  title: 'Acme Docs',
  createdAt: '2024-05-01T12:00:00.000Z',
  emailDomains: [],
  type: 'business',
  inviteLinks: true,
  plan: 'free_2024',
  urls: {
    app: 'http://localhost:3000/o/org_1',
    location: 'http://localhost:3000/v1/orgs/org_1',
  },
  trial: { status: 'notapplicable' },
  permissions: {
    view: true,
    admin: true,
    ownTeam: false,
    createContent: true,
    createOpenAPISpec: false,
    ingestConversations: false,
    viewBilling: false,
    listMembers: true,
    listTeams: true,
    listIntegrations: false,
    listInstallations: false,
    installIntegration: false,
  },
};

const member = {
  object: 'member',
  id: 'user_1',
  role: null,
  user: {
    object: 'user',
    id: 'user_1',
    displayName: 'Ada',
    urls: { location: 'http://localhost:3000/v1/users/user_1' },
  },
  disabled: false,
  joinedAt: '2024-05-01T12:00:00.000Z',
  sso: false,
  spaces: 0,
  teams: 0,
};

describe('OpenAPI response validator', () => {
  it('accepts a valid list response, ignoring the query string', () => {
    expect(() => validateResponse('GET', '/v1/orgs?limit=2', 200, { items: [], count: 0 })).not.toThrow();
  });

  it('rejects a list whose count is a string', () => {
    expect(() => validateResponse('GET', '/v1/orgs', 200, { items: [], count: '0' })).toThrow(/listOrganizationsForAuthenticatedUser[\s\S]*\/count/);
  });

  it('accepts a valid organization', () => {
    expect(() => validateResponse('GET', '/v1/orgs/abc', 200, organization)).not.toThrow();
    expect(() => validateSchema('Organization', organization)).not.toThrow();
  });

  it('rejects an organization without permissions, naming the operation and the missing field', () => {
    const { permissions: _omitted, ...withoutPermissions } = organization;
    expect(() => validateResponse('GET', '/v1/orgs/abc', 200, withoutPermissions)).toThrow(/getOrganizationById[\s\S]*permissions/);
    expect(() => validateSchema('Organization', withoutPermissions)).toThrow(/permissions/);
  });

  it('rejects relative URLs where the spec requires format uri', () => {
    const relative = { ...organization, urls: { app: '/o/org_1', location: '/v1/orgs/org_1' } };
    expect(() => validateSchema('Organization', relative)).toThrow(/\/urls\/app/);
  });

  it('validates error bodies against the Error schema', () => {
    expect(() => validateResponse('GET', '/v1/orgs/abc', 404, { error: { code: 404, message: 'x' } })).not.toThrow();
    // 401 is not declared for this operation, but error bodies are still checked.
    expect(() => validateResponse('GET', '/v1/orgs/abc', 401, { error: { code: 401, message: 'x' } })).not.toThrow();
    expect(() => validateResponse('GET', '/v1/orgs/abc', 401, { message: 'x' })).toThrow(/Error|error/);
    expect(() => validateResponse('GET', '/v1/orgs/abc', 404, { error: { code: '404', message: 'x' } })).toThrow();
  });

  it('requires an empty body for responses declared without content', () => {
    expect(() => validateResponse('DELETE', '/v1/orgs/a/teams/b', 204, undefined)).not.toThrow();
    expect(() => validateResponse('DELETE', '/v1/orgs/a/teams/b', 204, { ok: true })).toThrow(/no content/);
  });

  it('rejects undeclared success statuses and unknown paths', () => {
    expect(() => validateResponse('DELETE', '/v1/orgs/a/teams/b', 200, {})).toThrow(/not declared/);
    expect(() => validateResponse('GET', '/v1/definitely/not/a/route', 200, {})).toThrow(/No OpenAPI path template/);
    expect(() => validateResponse('PUT', '/v1/orgs', 200, {})).toThrow(/No PUT operation/);
  });

  it('prefers literal segments over params when two templates match', () => {
    // `versions/latest` exists both as a literal template and as `versions/{versionId}`.
    expect(() => validateResponse('GET', '/v1/orgs/o/openapi/spec/versions/latest', 200, null)).toThrow(/getLatestOpenAPISpecVersion/);
    expect(() => validateResponse('GET', '/v1/orgs/o/openapi/spec/versions/v2', 200, null)).toThrow(/getOpenAPISpecVersionById/);
  });

  it('accepts null where the spec marks a schema nullable', () => {
    expect(() => validateSchema('OrganizationMember', member)).not.toThrow();
    expect(() => validateSchema('OrganizationMember', { ...member, role: 'superuser' })).toThrow(/\/role/);
  });

  it('compiles every component schema of the spec', () => {
    const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as {
      components: { schemas: Record<string, unknown> };
    };
    for (const name of Object.keys(spec.components.schemas)) {
      // Throws only if compilation fails; a mismatch is an expected, different error.
      try {
        validateSchema(name, Symbol('not json'));
      } catch (error) {
        expect(String(error)).toMatch(/does not match the OpenAPI spec/);
      }
    }
  });
});
