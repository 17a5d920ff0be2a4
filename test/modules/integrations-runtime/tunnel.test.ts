import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegrationRuntime, SIGNATURE_HEADER, signBody, verifySignature, type IntegrationRuntime } from '../../../src/runtime/deliver';
import { protocolUrl } from '../../../src/runtime/protocol';
import { validateContentKitTree } from '../../../src/runtime/render';
import { bundleFixture, environment, INSTALLATION_TOKEN, spaceContentUpdated, startApiStandIn, startLocalServer, uiRender, type LocalServer, type RecordedRequest } from './support';

type IntegrationModule = { default: { fetch(request: Request, env: unknown, ctx: unknown): Promise<Response> } };

const SECRET = 'integration-signing-secret';

/*
 * Dev mode: a receiver started here stands where `gitbook dev` would, behind its tunnel. It checks
 * the signature and hands each request to the official runtime's `createIntegration().fetch`
 * (the fixture's bundle, imported in Node), so the handler runs as on a developer's machine.
 */
describe('delivery to a dev tunnel', () => {
  let runtime: IntegrationRuntime;
  let api: LocalServer;
  let receiver: LocalServer;
  let dir: string;
  const verified: boolean[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-tunnel-'));
    const file = join(dir, 'integration.mjs');
    writeFileSync(file, await bundleFixture('quire-hello'));
    const integration = ((await import(pathToFileURL(file).href)) as IntegrationModule).default;
    api = await startApiStandIn('Seen through the tunnel');
    receiver = await startLocalServer(async (r: RecordedRequest) => {
      verified.push(verifySignature(r.headers[SIGNATURE_HEADER] as string, r.body, SECRET));
      const request = new Request(`http://127.0.0.1${r.url}`, { method: r.method, headers: r.headers as Record<string, string>, body: new Uint8Array(r.body) });
      const answer = await integration.fetch(request, {}, { waitUntil: () => undefined, passThroughOnException: () => undefined });
      return { status: answer.status, headers: Object.fromEntries(answer.headers), body: Buffer.from(await answer.arrayBuffer()) };
    });
    runtime = createIntegrationRuntime({ deadlineMs: 10_000 });
  });
  afterAll(async () => {
    await runtime?.close();
    await receiver?.close();
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const tunnel = () => ({ kind: 'tunnel' as const, url: receiver.url, signingSecret: SECRET });
  const allowHosts = () => [`127.0.0.1:${receiver.port}`];

  it('posts the event to <tunnelUrl>/v1, signed, and the official runtime runs the handler', async () => {
    const result = await runtime.deliver(tunnel(), spaceContentUpdated('space_dev'), environment('quire-hello', api.url), { allowHosts: allowHosts() });
    expect(result).toMatchObject({ ok: true, status: 200 });

    const arrived = receiver.requests.at(-1)!;
    expect(arrived.method).toBe('POST');
    expect(arrived.url).toBe('/v1');
    expect(arrived.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(verified.at(-1)).toBe(true);

    const call = await api.waitFor((r) => r.url.startsWith('/v1/spaces/space_dev'));
    expect(call.headers.authorization).toBe(`Bearer ${INSTALLATION_TOKEN}`);
  });

  it('returns the rendered element tree of a ui_render', async () => {
    const result = await runtime.deliver(tunnel(), uiRender('greeting', { name: 'tunnel' }), environment('quire-hello', api.url), { allowHosts: allowHosts() });
    expect(result.ok).toBe(true);
    expect(validateContentKitTree(result.response!.body)).toMatchObject({ valid: true, output: { element: { type: 'block' } } });
  });

  it('reports a failed status when the receiver answers with an error', async () => {
    const result = await runtime.deliver(tunnel(), uiRender('no-such-component', {}), environment('quire-hello', api.url), { allowHosts: allowHosts() });
    expect(result).toMatchObject({ ok: false, status: 404, failure: 'status' });
  });

  it('refuses a tunnel URL on a private or loopback address without the allow setting', async () => {
    const before = receiver.requests.length;
    const loopback = await runtime.deliver(tunnel(), spaceContentUpdated(), environment('quire-hello', api.url));
    expect(loopback).toMatchObject({ ok: false, status: 0, failure: 'refused' });
    expect(loopback.error).toContain('is a loopback address');
    expect(receiver.requests.length).toBe(before);

    const privateNet = await runtime.deliver({ ...tunnel(), url: 'http://10.1.2.3:8080/' }, spaceContentUpdated(), environment('quire-hello', api.url));
    expect(privateNet).toMatchObject({ ok: false, failure: 'refused' });
    expect(privateNet.error).toContain('is a private address');

    const scheme = await runtime.deliver({ ...tunnel(), url: 'file:///etc/passwd' }, spaceContentUpdated(), environment('quire-hello', api.url));
    expect(scheme).toMatchObject({ ok: false, failure: 'refused' });
  });

  it('reports an unreachable tunnel', async () => {
    const closed = await startLocalServer(() => ({ status: 200 }));
    await closed.close();
    const result = await runtime.deliver({ ...tunnel(), url: closed.url }, spaceContentUpdated(), environment('quire-hello', api.url), { allowHosts: [`127.0.0.1:${closed.port}`] });
    expect(result).toMatchObject({ ok: false, status: 0, failure: 'unreachable' });
  });

  it('appends /v1 to the tunnel path', () => {
    expect(protocolUrl('https://abc.example.com')).toBe('https://abc.example.com/v1');
    expect(protocolUrl('https://abc.example.com/dev/')).toBe('https://abc.example.com/dev/v1');
  });
});

describe('delivery signatures', () => {
  const body = new TextEncoder().encode('--boundary\r\nevent body\r\n--boundary--');
  const now = 1_800_000_000;

  it('verifies a signature made with the secret within the tolerance', () => {
    const header = signBody(SECRET, body, now);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(header, body, SECRET, { now })).toBe(true);
    expect(verifySignature(header, body, SECRET, { now: now + 299 })).toBe(true);
  });

  it('refuses another secret, a changed body, a replay past the tolerance and malformed headers', () => {
    const header = signBody(SECRET, body, now);
    expect(verifySignature(header, body, 'another-secret', { now })).toBe(false);
    expect(verifySignature(header, new TextEncoder().encode('--boundary\r\nevent bodY\r\n--boundary--'), SECRET, { now })).toBe(false);
    expect(verifySignature(header, body, SECRET, { now: now + 301 })).toBe(false);
    // The timestamp is inside the MAC: moving it forward breaks the signature.
    expect(verifySignature(header.replace('t=1800000000', 't=1800000300'), body, SECRET, { now: now + 300 })).toBe(false);
    for (const bad of [undefined, '', 'v1=abc', `t=${now}`, `t=x,v1=${'0'.repeat(64)}`]) expect(verifySignature(bad, body, SECRET, { now })).toBe(false);
  });
});
