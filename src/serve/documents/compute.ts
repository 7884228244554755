/**
 * `GET /api/compute` (specification, "Compute bridge", `svc.compute-bridge/1`) and
 * `GET /api/provider-canary` (rails model-hub-provider-execution and pod-execution,
 * `svc.provider-canary/0.1`).
 *
 * The bridge is a function of the served release (its catalogued census), built once per
 * release and cached 300 s like the board. The canary reads the operator's observation file on
 * every request (it depends on the clock and on a file the runner rewrites): `no-store`.
 */
import { buildComputeBridge } from '../../core/status/compute-bridge.js';
import { buildProviderCanary } from '../../core/status/provider-canary.js';
import { readCanaryFile } from '../../status/provider-canary-reader.js';
import { CACHE_CONTROL } from '../prepared-bytes.js';
import { built, perRelease, type DocumentEntry } from './document.js';

const bridgeOf = perRelease((p) => built(buildComputeBridge(p.release.corpus.status.census), CACHE_CONTROL));

export const computeDocument: DocumentEntry<ReturnType<typeof buildComputeBridge>> = {
  id: 'compute',
  route: '/api/compute',
  query: [],
  schema: 'svc.compute-bridge/1',
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: () => ['/api/compute'],
  read: (ctx) => bridgeOf(ctx.state.current()),
};

export const providerCanaryDocument: DocumentEntry<ReturnType<typeof buildProviderCanary>> = {
  id: 'provider-canary',
  route: '/api/provider-canary',
  query: [],
  schema: 'svc.provider-canary/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/provider-canary'],
  read: async (ctx) =>
    built(buildProviderCanary(await readCanaryFile(ctx.sources.providerCanaryFile), ctx.now()), 'no-store'),
};
