import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIntegrationRuntime, configureIntegrationRuntime, createIntegrationRuntime, deliverEvent, type IntegrationRuntime } from '../../../src/runtime/deliver';
import { validateContentKitTree } from '../../../src/runtime/render';
import { bundleFixture, environment, INSTALLATION_TOKEN, spaceContentUpdated, spaceEvent, startApiStandIn, startLocalServer, uiRender, type LocalServer } from './support';

describe('integration scripts in workerd', () => {
  let runtime: IntegrationRuntime;
  let api: LocalServer;
  let hello: string;

  beforeAll(async () => {
    hello = await bundleFixture('quire-hello');
    api = await startApiStandIn('Handbook of tests');
    runtime = createIntegrationRuntime({ deadlineMs: 15_000 });
  });
  afterAll(async () => {
    await runtime?.close();
    await api?.close();
  });

  const target = () => ({ kind: 'script' as const, integrationId: 'int_hello', version: 1, script: hello });

  it('runs a space_content_updated handler that reads the space through context.api and logs its title', async () => {
    const result = await runtime.deliver(target(), spaceContentUpdated('space_42'), environment('quire-hello', api.url));
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ ok: true, status: 200, coldStart: true });
    expect(result.logs).toContain('[log] space title: Handbook of tests');
    expect(result.logs.some((l) => l.includes('space_content_updated for space_42'))).toBe(true);

    const call = await api.waitFor((r) => r.url.startsWith('/v1/spaces/space_42'));
    expect(call.method).toBe('GET');
    expect(call.headers.authorization).toBe(`Bearer ${INSTALLATION_TOKEN}`);
    expect(call.headers['user-agent']).toContain('integration-quire-hello/1');
  });

  it('keeps the runtime warm for the next event of the same version', async () => {
    const result = await runtime.deliver(target(), spaceContentUpdated('space_43'), environment('quire-hello', api.url));
    expect(result).toMatchObject({ ok: true, coldStart: false });
    expect(result.logs).toContain('[log] space title: Handbook of tests');
    // Each trace holds its own delivery's lines only.
    expect(result.logs.some((l) => l.includes('space_42'))).toBe(false);
  });

  it('renders a component for ui_render into a valid ContentKit tree', async () => {
    const result = await runtime.deliver(target(), uiRender('greeting', { name: 'Ada' }), environment('quire-hello', api.url));
    expect(result).toMatchObject({ ok: true, status: 200 });
    const check = validateContentKitTree(result.response!.body);
    expect(check).toMatchObject({ valid: true });
    expect(JSON.parse(result.response!.body.toString())).toMatchObject({
      type: 'element',
      element: { type: 'block', children: [{ type: 'markdown', content: 'Hello, Ada, from quire-hello' }, { type: 'text' }] },
      state: { clicks: 0 },
    });
  });

  it('passes the fetch-body of a fetch event to the integration', async () => {
    const event = { eventId: 'evt_fetch', type: 'fetch', installationId: 'inst_1', request: { url: 'https://quire.test/v1/integrations/quire-hello/hook', method: 'POST', headers: { 'content-type': 'text/plain' } } };
    const result = await runtime.deliver(target(), event, environment('quire-hello', api.url), { fetchBody: 'payload from a webhook' });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(JSON.parse(result.response!.body.toString())).toEqual({ method: 'POST', url: 'https://quire.test/v1/integrations/quire-hello/hook', body: 'payload from a webhook' });
  });

  it('answers a failed status for an event the integration does not handle', async () => {
    const result = await runtime.deliver(target(), { eventId: 'evt_x', type: 'installation_setup', installationId: 'inst_1', status: 'active' }, environment('quire-hello', api.url));
    expect(result).toMatchObject({ ok: false, status: 406, failure: 'status' });
  });

  it('refuses an outbound fetch to a loopback address that is not allowed, and logs why', async () => {
    const probe = await startLocalServer(() => ({ status: 200, body: 'secret inside' }));
    try {
      const result = await runtime.deliver(target(), spaceEvent('space_visibility_updated'), environment('quire-hello', api.url, { PROBE_URL: `${probe.url}/internal` }));
      expect(result.ok).toBe(true);
      expect(result.logs.some((l) => l.includes('[quire] outbound GET') && l.includes('is a loopback address'))).toBe(true);
      expect(result.logs.some((l) => l.includes('probe') && l.includes(': 403'))).toBe(true);
      expect(result.logs.join('\n')).not.toContain('secret inside');
      expect(probe.requests).toHaveLength(0);

      // The same fetch, with the host allowed by the setting, goes through.
      const allowed = await runtime.deliver(target(), spaceEvent('space_visibility_updated'), environment('quire-hello', api.url, { PROBE_URL: `${probe.url}/internal` }), { allowHosts: [`127.0.0.1:${probe.port}`] });
      expect(allowed.logs).toContain(`[log] probe ${probe.url}/internal: 200 secret inside`);
      expect(probe.requests).toHaveLength(1);
    } finally {
      await probe.close();
    }
  });

  it('checks every redirect hop of an outbound fetch against the guard', async () => {
    const inside = await startLocalServer(() => ({ status: 200, body: 'secret inside' }));
    const outside = await startLocalServer(() => ({ status: 302, headers: { location: `${inside.url}/admin` } }));
    try {
      // Only the first host is allowed: its redirect to another loopback port must be refused.
      const result = await runtime.deliver(target(), spaceEvent('space_visibility_updated'), environment('quire-hello', api.url, { PROBE_URL: `${outside.url}/start` }), { allowHosts: [`127.0.0.1:${outside.port}`] });
      expect(outside.requests).toHaveLength(1);
      expect(inside.requests).toHaveLength(0);
      expect(result.logs.some((l) => l.includes(`[quire] outbound GET ${inside.url}/admin refused`))).toBe(true);
      expect(result.logs.join('\n')).not.toContain('secret inside');
    } finally {
      await Promise.all([inside.close(), outside.close()]);
    }
  });

  it('gives raw sockets no way around the guard', async () => {
    const probe = await startLocalServer(() => ({ status: 200, body: 'secret inside' }));
    const script = `import { connect } from 'cloudflare:sockets';
export default { async fetch() {
  try {
    const socket = connect({ hostname: '127.0.0.1', port: ${probe.port} });
    await socket.writable.getWriter().write(new TextEncoder().encode('GET / HTTP/1.0\\r\\n\\r\\n'));
    const { value } = await socket.readable.getReader().read();
    console.log('read ' + new TextDecoder().decode(value));
  } catch (error) {
    console.log('connect failed: ' + error.message);
  }
  return new Response('done');
} };`;
    try {
      const result = await runtime.deliver({ kind: 'script', integrationId: 'int_socket', version: 1, script }, spaceContentUpdated(), environment('socket', api.url));
      expect(result).toMatchObject({ ok: true, status: 200 });
      expect(result.logs.some((l) => l.startsWith('[log] connect failed'))).toBe(true);
      expect(probe.requests).toHaveLength(0);
    } finally {
      await probe.close();
    }
  });

  it('reports a bundle that does not load as crashed, with the reason', async () => {
    const result = await runtime.deliver({ kind: 'script', integrationId: 'int_broken', version: 1, script: 'export default {' }, spaceContentUpdated(), environment('broken', api.url));
    expect(result).toMatchObject({ ok: false, status: 0, failure: 'crashed' });
    expect(result.error).toContain('could not be started');
  });

  it('delivers through the process-wide runtime, configured once and closed at shutdown', async () => {
    await configureIntegrationRuntime({ deadlineMs: 15_000, warmRuntimes: 1 });
    try {
      const result = await deliverEvent(target(), spaceContentUpdated('space_shared'), environment('quire-hello', api.url));
      expect(result).toMatchObject({ ok: true, coldStart: true });
      expect(result.logs).toContain('[log] space title: Handbook of tests');
    } finally {
      await closeIntegrationRuntime();
    }
  });
});
