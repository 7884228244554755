/**
 * Everything the service reads from, resolved once by the composition root (src/app.ts) and
 * handed down: the served release, the clock, the public origin, the payment rail and ledger,
 * the operator's configured status sources and the long-lived readers. Nothing below the
 * composition root reads the environment or restates a default; nothing here is taken from a
 * request, so no document read fetches a URL a caller supplied.
 */
import type { DidHost, KeyResolver } from '../keys/did-resolver.js';
import type { Facilitator } from '../payments/facilitator.js';
import type { RailConfig } from '../payments/rail-config.js';
import type { FabricObserver } from '../status/fabric-observer.js';
import type { HubIndexReader } from '../status/hub-index.js';
import type { Ledger } from '../store/ledger.js';
import type { ServedState } from './served-state.js';

/** Operator-configured sources of the status documents (docs/operations.md). */
export interface StatusSources {
  /** XRPL JSON-RPC endpoint and account read by /api/xrpl (GSPC_XRPL_URL, GSPC_XRPL_ACCOUNT); null: the recorded snapshot. */
  xrpl: { url: string; account: string; timeoutMs: number } | null;
  /** The provider canary adapter (GSPC_PROVIDER_CANARY_FILE); null: unconfigured. */
  providerCanaryFile: string | null;
  /** Peer boards whose signed-card indexes /api/hub-cards aggregates (GSPC_HUB_PEERS). */
  hubPeers: { name: string; url: string }[];
}

export const NO_SOURCES: StatusSources = { xrpl: null, providerCanaryFile: null, hubPeers: [] };

/** The metered products as served: present when the service sells (its rail may still be unconfigured). */
export interface ProductsContext {
  rail: RailConfig;
  /** Settlements, reservations and invoices; required once the rail is configured. */
  ledger: Ledger | undefined;
  /** How long a facilitator call may take before the outcome is recorded as unknown. */
  facilitatorTimeoutMs: number;
  /** The facilitator; undefined when the rail is not configured. */
  facilitator: Facilitator | undefined;
  /** A new private invoice reference. */
  invoiceRef: () => string;
}

/** A logger the document readers may write to (Fastify's and pino's loggers are such). */
export interface ReadLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What the service reports besides its answers (the metrics count them; src/web/metrics.ts). */
export interface ServiceEvents {
  /** A paid request that carried a payment: settled now, replayed from the ledger, refused with a fresh 402, or its settlement failed. */
  settlement(outcome: 'settled' | 'replayed' | 'refused' | 'settle_failed'): void;
  /** A newly published release picked up while serving, or refused. */
  reload(result: 'loaded' | 'failed'): void;
}

export interface ServiceContext {
  state: ServedState;
  now: () => Date;
  /** The public origin (GSPC_BASE_URL): absolute links, challenges, and the only origin the capability fabric probes. */
  baseUrl: string;
  /** The service's ledger (settlements, action-job receipts, heartbeats); undefined in read-only set-ups. */
  ledger: Ledger | undefined;
  /** The payment rail when the service serves its metered products; undefined otherwise. */
  rail: RailConfig | undefined;
  /** The metered products; undefined when the service sells nothing (their routes are not registered). */
  products: ProductsContext | undefined;
  sources: StatusSources;
  /** Observes the capability fabric's rails (probes start with the first reader). */
  fabric: FabricObserver;
  /** Reads the peer hubs' card indexes. */
  hubs: HubIndexReader;
  /** Resolves receipt and offer keys: the own DID document (or, away from the DID's host, the host's), or allow-listed did:web hosts. */
  resolveKey: KeyResolver;
  /** This service's DID's host, when the service is not it (a replica): verification reads its keys there (issue 36). */
  didHost?: DidHost;
  /** Where outcomes are reported (metrics), when something listens. */
  events: ServiceEvents | undefined;
}
