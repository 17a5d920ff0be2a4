import { describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_SETTINGS, httpSettings, loadConfig } from '../../src/config/config';

describe('HTTP settings', () => {
  it('default to no cross-origin access, a 1 MB body, a 16 MB answer, GraphiQL and introspection on', () => {
    expect(httpSettings(loadConfig({}))).toEqual(DEFAULT_HTTP_SETTINGS);
    expect(DEFAULT_HTTP_SETTINGS).toMatchObject({ corsOrigins: [], bodyLimitBytes: 1_000_000, maxResponseBytes: 16_000_000, graphiql: true, anonymousIntrospection: true });
  });

  it('read the environment', () => {
    const config = loadConfig({
      QUIRE_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173/',
      QUIRE_BODY_LIMIT_BYTES: '2048',
      QUIRE_UPLOAD_LIMIT_BYTES: '4096',
      QUIRE_GRAPHIQL: 'false',
      QUIRE_ANONYMOUS_INTROSPECTION: '0',
      QUIRE_MAX_RESPONSE_BYTES: '5000000',
    });
    expect(httpSettings(config)).toEqual({
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      bodyLimitBytes: 2048,
      uploadLimitBytes: 4096,
      graphiql: false,
      anonymousIntrospection: false,
      maxResponseBytes: 5_000_000,
    });
  });

  it('refuse what they cannot mean', () => {
    expect(() => loadConfig({ QUIRE_CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/QUIRE_CORS_ORIGINS/);
    expect(() => loadConfig({ QUIRE_CORS_ORIGINS: '*' })).toThrow(/QUIRE_CORS_ORIGINS/);
    expect(() => loadConfig({ QUIRE_BODY_LIMIT_BYTES: '1mb' })).toThrow(/QUIRE_BODY_LIMIT_BYTES/);
    expect(() => loadConfig({ QUIRE_MAX_RESPONSE_BYTES: '0' })).toThrow(/QUIRE_MAX_RESPONSE_BYTES/);
    expect(() => loadConfig({ QUIRE_GRAPHIQL: 'yes' })).toThrow(/QUIRE_GRAPHIQL/);
  });
});
