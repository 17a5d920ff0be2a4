import { describe, expect, it } from 'vitest';
import { loadObservabilityConfig } from '../../src/config/config';

describe('observability settings', () => {
  it('serves no metrics unless told, in development as in production', () => {
    expect(loadObservabilityConfig({}).metrics).toEqual({ mode: 'off' });
    expect(loadObservabilityConfig({ NODE_ENV: 'development' }).metrics).toEqual({ mode: 'off' });
    expect(loadObservabilityConfig({ NODE_ENV: 'production' }).metrics).toEqual({ mode: 'off' });
    expect(loadObservabilityConfig({ METRICS: 'on' }).metrics).toEqual({ mode: 'on' });
    expect(loadObservabilityConfig({ NODE_ENV: 'production', METRICS: 'token:0123456789abcdef' }).metrics).toEqual({ mode: 'token', token: '0123456789abcdef' });
  });

  it('refuses a bad value with a message that says what is allowed', () => {
    expect(() => loadObservabilityConfig({ METRICS: 'token:short' })).toThrow('METRICS must be off, on, or token:<secret of at least 16 characters>');
    expect(() => loadObservabilityConfig({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got verbose');
    expect(() => loadObservabilityConfig({ SHUTDOWN_TIMEOUT_MS: '-1' })).toThrow('SHUTDOWN_TIMEOUT_MS must be a positive number of milliseconds, got -1');
  });
});
