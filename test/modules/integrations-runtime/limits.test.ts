import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIntegrationRuntime, type IntegrationRuntime } from '../../../src/runtime/deliver';
import { childPids } from '../../../src/runtime/proc';
import { bundleFixture, environment, spaceContentUpdated, spaceEvent, startApiStandIn, type LocalServer } from './support';

/*
 * Scripts that break the limits: each is stopped by its own limit, reported failed with a
 * trace, and the runtime goes on serving the other integrations (and the same one, restarted).
 * No timing is asserted here: the bench measures speed; these check who stopped what.
 */
describe('integration runtime limits', () => {
  let runtime: IntegrationRuntime;
  let api: LocalServer;
  let hello: string;
  let misbehaving: string;

  beforeAll(async () => {
    [hello, misbehaving] = await Promise.all([bundleFixture('quire-hello'), bundleFixture('quire-misbehaving')]);
    api = await startApiStandIn('Still standing');
    // The deadline is short for the loop; the bomb is stopped by memory well before it.
    runtime = createIntegrationRuntime({ deadlineMs: 2_000, memoryMb: 192, warmRuntimes: 4 });
  });
  afterAll(async () => {
    await runtime?.close();
    await api?.close();
  });

  const bad = { kind: 'script' as const, integrationId: 'int_bad', version: 3, script: '' };
  const good = { kind: 'script' as const, integrationId: 'int_good', version: 1, script: '' };

  it('stops a script stuck in an infinite loop at its deadline and reports it failed with a trace', async () => {
    const result = await runtime.deliver({ ...bad, script: misbehaving }, spaceContentUpdated('space_loop'), environment('quire-misbehaving', api.url));
    expect(result).toMatchObject({ ok: false, status: 0, failure: 'deadline' });
    expect(result.error).toMatch(/did not answer within \d+ ms; its runtime was stopped/);
    expect(result.logs.some((l) => l.includes('looping forever on space_loop'))).toBe(true);

    const next = await runtime.deliver({ ...good, script: hello }, spaceContentUpdated(), environment('quire-hello', api.url), { deadlineMs: 15_000 });
    expect(next).toMatchObject({ ok: true, status: 200 });
    expect(next.logs).toContain('[log] space title: Still standing');
  });

  it('stops a script that allocates without end at its memory cap and reports it failed with a trace', async () => {
    const result = await runtime.deliver({ ...bad, script: misbehaving }, spaceEvent('space_view'), environment('quire-misbehaving', api.url), { deadlineMs: 60_000 });
    expect(result).toMatchObject({ ok: false, status: 0, failure: 'memory' });
    expect(result.error).toMatch(/over its limit of 192 MB; its runtime was stopped/);
    expect(result.logs.some((l) => l.includes('allocating without end'))).toBe(true);

    const next = await runtime.deliver({ ...good, script: hello }, spaceContentUpdated(), environment('quire-hello', api.url), { deadlineMs: 15_000 });
    expect(next).toMatchObject({ ok: true, status: 200 });
  });

  it('restarts the stopped integration cold for its next event', async () => {
    const result = await runtime.deliver({ ...bad, script: misbehaving }, spaceEvent('space_visibility_updated'), environment('quire-misbehaving', api.url), { deadlineMs: 15_000 });
    expect(result).toMatchObject({ ok: true, status: 200, coldStart: true });
    expect(result.logs).toContain('[log] behaving this time');
  });

  it('lets an event queued behind a stuck one run on a fresh runtime', async () => {
    const stuck = runtime.deliver({ ...bad, script: misbehaving }, spaceContentUpdated('space_stuck'), environment('quire-misbehaving', api.url), { deadlineMs: 1_500 });
    const queued = runtime.deliver({ ...bad, script: misbehaving }, spaceEvent('space_visibility_updated'), environment('quire-misbehaving', api.url), { deadlineMs: 20_000 });
    expect(await stuck).toMatchObject({ ok: false, failure: 'deadline' });
    const after = await queued;
    expect(after).toMatchObject({ ok: true, status: 200 });
    expect(after.logs).toContain('[log] behaving this time');
  });

  it('stops an idle runtime whose background work goes past the memory cap', async () => {
    const before = childPids('workerd');
    const event = { eventId: 'evt_setup', type: 'space_installation_setup', spaceId: 'space_1', installationId: 'inst_1', status: 'active' };
    const result = await runtime.deliver({ ...bad, version: 4, script: misbehaving }, event, environment('quire-misbehaving', api.url), { deadlineMs: 15_000 });
    expect(result).toMatchObject({ ok: true, status: 200 });
    const started = [...childPids('workerd')].filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    await vi.waitFor(() => expect(childPids('workerd').has(started[0]!)).toBe(false), { timeout: 30_000, interval: 100 });

    const next = await runtime.deliver({ ...bad, version: 4, script: misbehaving }, spaceEvent('space_visibility_updated'), environment('quire-misbehaving', api.url), { deadlineMs: 15_000 });
    expect(next).toMatchObject({ ok: true, coldStart: true });
  });

  it('keeps at most the configured number of warm runtimes', async () => {
    for (let version = 10; version < 16; version++) {
      const result = await runtime.deliver({ ...good, version, script: hello }, spaceEvent('space_visibility_updated'), environment('quire-hello', api.url, { PROBE_URL: 'http://127.0.0.1:1/' }), { deadlineMs: 15_000 });
      expect(result.ok).toBe(true);
    }
    expect(runtime.warmCount).toBeLessThanOrEqual(4);
  });
});
