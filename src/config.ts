/**
 * Configuration, read from the environment once at start and validated (docs/operations.md
 * lists every variable). Command-line flags override the environment.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { GspcError } from './core/errors.js';
import { didForHost } from './core/evidence/did.js';

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
}

export function readConfig(env: NodeJS.ProcessEnv, overrides: { port?: number; host?: string; dataDir?: string } = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new GspcError('config_invalid', `invalid configuration: ${issues.join('; ')}`, { issues });
  }
  const e = parsed.data;
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
    trustedDidHosts: (e.GSPC_TRUSTED_DID_HOSTS ?? '').split(',').map((h) => h.trim()).filter((h) => h !== '').map((h) => { didForHost(h); return h; }),
  };
}
