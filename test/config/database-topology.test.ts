import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

const primary = 'postgres://quire@127.0.0.1:5432/quire';
const bouncer = 'postgres://quire@127.0.0.1:6432/quire';

describe('pooler and replica settings', () => {
  it('infers a pooled DATABASE_URL from a direct URL that differs, unless DATABASE_POOLED says otherwise', () => {
    expect(loadConfig({ DATABASE_URL: bouncer, DATABASE_DIRECT_URL: primary })).toMatchObject({ databaseDirectUrl: primary, databasePooled: true });
    expect(loadConfig({ DATABASE_URL: bouncer, DATABASE_DIRECT_URL: primary, DATABASE_POOLED: 'false' }).databasePooled).toBe(false);
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_DIRECT_URL: primary })).toMatchObject({ databaseDirectUrl: undefined, databasePooled: false });
    expect(loadConfig({ DATABASE_URL: bouncer, DATABASE_POOLED: 'true' })).toMatchObject({ databaseDirectUrl: undefined, databasePooled: true });
  });

  it('reads the replica settings', () => {
    const config = loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://quire@127.0.0.1:5433/quire', DATABASE_REPLICA_MAX_LAG_BYTES: '1024' });
    expect(config).toMatchObject({ databaseReadUrl: 'postgres://quire@127.0.0.1:5433/quire', replicaMaxLagBytes: 1024 });
  });

  it('refuses malformed values and settings that need DATABASE_URL, in one line naming the variable', () => {
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'http://replica' })).toThrow(/DATABASE_READ_URL must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_POOLED: 'yes' })).toThrow(/DATABASE_POOLED must be true or false/);
    expect(() => loadConfig({ DATABASE_READ_URL: primary })).toThrow(/DATABASE_READ_URL needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_MAX_LAG_BYTES: '0' })).toThrow(/DATABASE_REPLICA_MAX_LAG_BYTES/);
  });
});
