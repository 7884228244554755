/**
 * Configuration, read from the environment once at start and validated (docs/operations.md
 * lists every variable). Command-line flags override the environment.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { GspcError } from './core/errors.js';
import { didForHost } from './core/evidence/did.js';
import { readRailConfig, type RailConfig } from './payments/rail-config.js';
import type { OpenLedgerOptions } from './store/open-ledger.js';
import type { StatusSources } from './http/status/context.js';
import { isClassicAddress } from './core/status/xrpl-address.js';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  GSPC_HOST: z.string().min(1).default('127.0.0.1'),
  GSPC_DATA_DIR: z.string().min(1).default('./data'),
  GSPC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  GSPC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GSPC_ACCESS_LOG: z.enum(['0', '1']).default('0'),
  GSPC_RELOAD_INTERVAL_MS: z.coerce.number().int().min(0).default(2000),
  GSPC_KEY_DIR: z.string().min(1).optional(),
  GSPC_DID_HOST: z.string().min(1).optional(),
  GSPC_TRUSTED_DID_HOSTS: z.string().optional(),
  GSPC_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// or postgresql:// URL').optional(),
  GSPC_LEDGER_PATH: z.string().min(1).optional(),
  GSPC_FACILITATOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  GSPC_RPC_URL: z.url({ protocol: /^https?$/ }).optional(),
  GSPC_FABRIC_REFRESH_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  GSPC_HUB_PEERS: z.string().optional(),
  GSPC_XRPL_URL: z.url({ protocol: /^https?$/ }).optional(),
  GSPC_XRPL_ACCOUNT: z.string().refine(isClassicAddress, 'a classic XRPL address (r..., with a valid checksum)').optional(),
  GSPC_XRPL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3500),
  GSPC_PROVIDER_CANARY_FILE: z.string().min(1).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  baseUrl: string;
  logLevel: string;
  accessLog: boolean;
  reloadIntervalMs: number;
  /** Where the Ed25519 key files live (default `<dataDir>/keys`). */
  keyDir: string;
  /** did:web host (default: the host and port of the base URL). */
  didHost: string;
  /** did:web hosts whose DID documents receipt verification may fetch (empty: own DID only). */
  trustedDidHosts: string[];
  /** The payment ledger: PostgreSQL when GSPC_DATABASE_URL is set, else SQLite in the data directory. */
  ledger: OpenLedgerOptions;
  /** The x402 rail (GSPC_PAY_TO, GSPC_FACILITATOR_URL, GSPC_NETWORK, GSPC_ASSET, ...). */
  rail: RailConfig;
  /** How long a facilitator call may take before the payment is recorded as unknown. */
  facilitatorTimeoutMs: number;
  /** JSON-RPC endpoint of the payment network, read by `gspc reconcile` only. */
  rpcUrl: string | null;
  /** How often the capability fabric probes its rails again. */
  fabricRefreshMs: number;
  /** The status documents' configured sources (hub peers, XRPL endpoint, provider canary file). */
  sources: StatusSources;
}

/** `name=https://peer.example,other=https://…`: peer boards whose card indexes /api/hub-cards reads. */
function hubPeers(v: string | undefined): { name: string; url: string }[] {
  const peers = (v ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '').map((p) => {
    const eq = p.indexOf('=');
    const name = eq > 0 ? p.slice(0, eq) : '';
    const url = p.slice(eq + 1);
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(name) || name === 'self') throw new GspcError('config_invalid', `invalid configuration: GSPC_HUB_PEERS entry '${p}' needs a name (lower-case slug, not 'self') = an http(s) origin`);
    let origin: URL;
    try { origin = new URL(url); } catch { throw new GspcError('config_invalid', `invalid configuration: GSPC_HUB_PEERS entry '${p}' has no valid URL`); }
    if (!/^https?:$/.test(origin.protocol)) throw new GspcError('config_invalid', `invalid configuration: GSPC_HUB_PEERS entry '${p}' must be http or https`);
    return { name, url: origin.origin };
  });
  if (new Set(peers.map((p) => p.name)).size !== peers.length) throw new GspcError('config_invalid', 'invalid configuration: GSPC_HUB_PEERS names must be unique');
  return peers;
}

export function readConfig(env: NodeJS.ProcessEnv, overrides: { port?: number; host?: string; dataDir?: string } = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new GspcError('config_invalid', `invalid configuration: ${issues.join('; ')}`, { issues });
  }
  const e = parsed.data;
  if (e.GSPC_DATABASE_URL !== undefined && e.GSPC_LEDGER_PATH !== undefined) {
    // Guessing which of two configured stores holds the money is worse than refusing to start.
    throw new GspcError('config_invalid', 'invalid configuration: set GSPC_DATABASE_URL (PostgreSQL) or GSPC_LEDGER_PATH (SQLite), not both');
  }
  const port = overrides.port ?? e.PORT;
  const dataDir = resolve(overrides.dataDir ?? e.GSPC_DATA_DIR);
  const baseUrl = (e.GSPC_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: overrides.host ?? e.GSPC_HOST,
    dataDir,
    baseUrl,
    logLevel: e.GSPC_LOG_LEVEL,
    accessLog: e.GSPC_ACCESS_LOG === '1',
    reloadIntervalMs: e.GSPC_RELOAD_INTERVAL_MS,
    keyDir: resolve(e.GSPC_KEY_DIR ?? `${dataDir}/keys`),
    didHost: e.GSPC_DID_HOST ?? new URL(baseUrl).host,
    // Each entry is checked now (didForHost throws config_invalid), not at the first receipt.
    ledger: e.GSPC_DATABASE_URL !== undefined ? { databaseUrl: e.GSPC_DATABASE_URL } : { sqlitePath: resolve(e.GSPC_LEDGER_PATH ?? `${dataDir}/ledger.sqlite`) },
    rail: readRailConfig(env),
    facilitatorTimeoutMs: e.GSPC_FACILITATOR_TIMEOUT_MS,
    rpcUrl: e.GSPC_RPC_URL ?? null,
    fabricRefreshMs: e.GSPC_FABRIC_REFRESH_SECONDS * 1000,
    sources: {
      hubPeers: hubPeers(e.GSPC_HUB_PEERS),
      xrpl: e.GSPC_XRPL_URL === undefined ? null : { url: e.GSPC_XRPL_URL, account: requireXrplAccount(e.GSPC_XRPL_ACCOUNT), timeoutMs: e.GSPC_XRPL_TIMEOUT_MS },
      providerCanaryFile: e.GSPC_PROVIDER_CANARY_FILE === undefined ? null : resolve(e.GSPC_PROVIDER_CANARY_FILE),
    },
    trustedDidHosts: (e.GSPC_TRUSTED_DID_HOSTS ?? '').split(',').map((h) => h.trim()).filter((h) => h !== '').map((h) => { didForHost(h); return h; }),
  };
}

function requireXrplAccount(account: string | undefined): string {
  if (account === undefined) throw new GspcError('config_invalid', 'invalid configuration: GSPC_XRPL_URL needs GSPC_XRPL_ACCOUNT (the account whose assets /api/xrpl reads)');
  return account;
}
