/**
 * Speed of the integration runtime (src/modules/integrations/runtime), in process, one delivery at
 * a time: an event delivered to a fixture integration whose handler reads the space through
 * `context.api` (a local stand-in for the API) and logs its title, with the runtime warm and cold;
 * render (decode the LZ request, deliver `ui_render`, check the ContentKit answer); the same event
 * to a dev tunnel. Run: `npm run bench:integrations` (optional argument: rounds, default 200).
 */
import LZString from 'lz-string';
import { createIntegrationRuntime } from '../../src/runtime/deliver';
import { childPids, residentBytes } from '../../src/runtime/proc';
import { decodeRenderRequest, validateContentKitTree } from '../../src/runtime/render';
import { bundleFixture, environment, spaceContentUpdated, startApiStandIn, startLocalServer, uiRender } from '../modules/integrations-runtime/support';

const ROUNDS = Number(process.argv[2] ?? 200);
const COLD_ROUNDS = Math.max(5, Math.round(ROUNDS / 10));

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return `p50 ${at(50).toFixed(1)} ms, p99 ${at(99).toFixed(1)} ms (n=${sorted.length})`;
}

async function time(n: number, run: (i: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

function must(condition: boolean, what: string) {
  if (!condition) throw new Error(`bench check failed: ${what}`);
}

const script = await bundleFixture('quire-hello');
const api = await startApiStandIn('Bench space');
const env = environment('quire-hello', api.url);
const runtime = createIntegrationRuntime({ warmRuntimes: 2 });
const target = (version: number) => ({ kind: 'script' as const, integrationId: 'int_bench', version, script });

const deliverOnce = async (version: number) => {
  const result = await runtime.deliver(target(version), spaceContentUpdated(), env);
  must(result.ok && result.logs.includes('[log] space title: Bench space'), `delivery: ${result.error}`);
};

await deliverOnce(1);
const warm = await time(ROUNDS, () => deliverOnce(1));
const idle = [...childPids('workerd')].map((pid) => residentBytes(pid) ?? 0);
const cold = await time(COLD_ROUNDS, (i) => deliverOnce(100 + i));

const encoded = LZString.compressToEncodedURIComponent(JSON.stringify({ componentId: 'greeting', props: { name: 'bench' }, context: { type: 'document', spaceId: 'space_1', editable: true, theme: 'light' } }));
const render = await time(ROUNDS, async () => {
  const request = decodeRenderRequest(encoded);
  const result = await runtime.deliver(target(1), uiRender(request.componentId, request.props), env);
  must(result.ok && validateContentKitTree(result.response!.body).valid, 'render');
});

// A receiver that answers at once: the cost measured is Quire's side (encode, sign, guard, send).
const receiver = await startLocalServer(() => ({ status: 200, body: 'OK' }));
const tunnel = await time(ROUNDS, async () => {
  const result = await runtime.deliver({ kind: 'tunnel', url: receiver.url, signingSecret: 's' }, spaceContentUpdated(), env, { allowHosts: [`127.0.0.1:${receiver.port}`] });
  must(result.ok, `tunnel: ${result.error}`);
});

console.log('\nIntegration runtime (workerd via Miniflare), one delivery at a time:');
console.log(`  event delivery, warm runtime:     ${percentiles(warm)}`);
console.log(`  event delivery, cold start:       ${percentiles(cold)}`);
console.log(`  render (decode, deliver, check):  ${percentiles(render)}`);
console.log(`  dev tunnel delivery (local):      ${percentiles(tunnel)}`);
console.log(`  resident memory of a warm runtime: ${idle.map((b) => `${Math.round(b / 1048576)} MB`).join(', ')}`);

await runtime.close();
await Promise.all([api.close(), receiver.close()]);
