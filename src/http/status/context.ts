/**
 * What the status routes (specification: capability fabric, compute bridge, corrections,
 * regulation, ... "read documents named by the rails and invariants") read from. Everything is
 * passed in: the served release, a clock, the ledger and the operator's configured sources.
 * Nothing here is taken from a request: no route fetches a URL a caller supplied.
 */
import type { ServedState } from '../served-state.js';
import type { Ledger } from '../../store/ledger.js';
import type { RailConfig } from '../../payments/rail-config.js';

/** Operator-configured sources of the status documents (docs/operations.md). */
export interface StatusSources {
  /** XRPL JSON-RPC endpoint and account read by /api/xrpl (GSPC_XRPL_URL, GSPC_XRPL_ACCOUNT); null: the recorded snapshot. */
  xrpl: { url: string; account: string; timeoutMs: number } | null;
  /** The provider canary adapter (GSPC_PROVIDER_CANARY_FILE); null: unconfigured. */
  providerCanaryFile: string | null;
  /** Peer boards whose signed-card indexes /api/hub-cards aggregates (GSPC_HUB_PEERS). */
  hubPeers: { name: string; url: string }[];
}

export interface StatusContext {
  state: ServedState;
  now: () => Date;
  /** The service's ledger (settlements, action-job receipts, heartbeats); absent in read-only setups. */
  ledger?: Ledger;
  rail?: RailConfig;
  /** The public origin (GSPC_BASE_URL): the only origin the capability fabric probes. */
  baseUrl: string;
  sources: StatusSources;
}

export const NO_SOURCES: StatusSources = { xrpl: null, providerCanaryFile: null, hubPeers: [] };
