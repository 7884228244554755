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
    trustedDidHosts: (e.GSPC_TRUSTED_DID_HOSTS ?? '').split(',').map((h) => h.trim()).filter((h) => h !== '').map((h) => { didForHost(h); return h; }),
  };
}
