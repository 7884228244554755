/**
 * Configuration, read from the environment once at start and validated (docs/operations.md
 * lists every variable). Command-line flags override the environment.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { GspcError } from './core/errors.js';
import { didForHost } from './core/evidence/did.js';
import { SPEC_PROMO_WINDOW, type PromoWindow } from './core/pricing/price.js';
import { BASE_USDC, type RailConfig } from './payments/rail-config.js';
import type { OpenLedgerOptions } from './store/open-ledger.js';
import type { TokenConfig } from './keys/pkcs11-keys.js';
import type { StatusSources } from './serve/context.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './web/connections.js';
import { isClassicAddress } from './core/status/xrpl-address.js';

/** The package's version (from src/ and from dist/, package.json is one folder up): `gspc --version`, /openapi.json. */
export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** GSPC_SIGNER=pkcs11: the token and its PIN file must both be named. */
function tokenConfig(e: {
  GSPC_PKCS11_MODULE: string;
  GSPC_PKCS11_TOKEN?: string | undefined;
  GSPC_PKCS11_PIN_FILE?: string | undefined;
}): TokenConfig {
  if (e.GSPC_PKCS11_TOKEN === undefined || e.GSPC_PKCS11_PIN_FILE === undefined)
    throw new GspcError(
      'config_invalid',
      'invalid configuration: GSPC_SIGNER=pkcs11 needs GSPC_PKCS11_TOKEN (the token label) and GSPC_PKCS11_PIN_FILE (a file holding the user PIN)',
    );
  return { module: e.GSPC_PKCS11_MODULE, token: e.GSPC_PKCS11_TOKEN, pinFile: resolve(e.GSPC_PKCS11_PIN_FILE) };
}

/** Requests per minute per client address, by class, when GSPC_RATE_LIMITS does not say. */
const DEFAULT_RATE_BUDGETS = { free: 3000, verify: 120, challenge: 600, paid: 600, invoice: 10, invoice_hour: 60 };

/**
 * The defaults, decided once: the environment schema below and the composition root (src/app.ts,
 * for options a test or embedder leaves out) both read them from here.
 */
export const DEFAULTS = {
  port: 8080,
  baseUrl: 'http://localhost:8080',
  facilitatorTimeoutMs: 15_000,
  fabricRefreshMs: 60_000,
  /** How long close (SIGTERM) waits for requests in flight before cutting their connections. */
  drainTimeoutMs: 2_000,
} as const;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A blank variable is an unset one (an operator's `GSPC_PAY_TO=` must not be a malformed address). */
const trimmed = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v), schema);

/** `GSPC_PROMO`: unset = the specification's window; `none`; or `<campaign>,<starts_at>,<ends_at>`. */
const promoSchema = trimmed(z.string().optional()).transform((v, ctx): PromoWindow | null => {
  if (v === undefined) return SPEC_PROMO_WINDOW;
  if (v === 'none') return null;
  const [campaign_id, starts_at, ends_at, ...rest] = v.split(',').map((x) => x.trim());
  const iso = (t: string | undefined): t is string =>
    t !== undefined && ISO_UTC.test(t) && !Number.isNaN(Date.parse(t));
  if (
    rest.length > 0 ||
    !campaign_id ||
    !iso(starts_at) ||
    !iso(ends_at) ||
    Date.parse(starts_at) >= Date.parse(ends_at)
  ) {
    ctx.addIssue({
      code: 'custom',
      message: "'none' or '<campaign id>,<starts_at>,<ends_at>' with ISO 8601 UTC times, start before end",
    });
    return z.NEVER;
  }
  return { campaign_id, starts_at, ends_at };
});

const selfPayersSchema = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const list = (v ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    for (const a of list)
      if (!ADDRESS.test(a)) ctx.addIssue({ code: 'custom', message: `'${a}' is not an EVM address` });
    return list;
  });

/** The payment rail's variables (docs/operations.md): checked at start, never at the first payment. */
const railSchema = {
  GSPC_PAY_TO: trimmed(z.string().regex(ADDRESS, 'an EVM address (0x and 40 hex digits)').optional()),
  GSPC_FACILITATOR_URL: trimmed(
    z.url({ protocol: /^https?$/, error: 'an http(s) URL of an x402 facilitator' }).optional(),
  ),
  GSPC_NETWORK: trimmed(z.string().regex(CAIP2, 'a CAIP-2 network id such as eip155:8453').default('eip155:8453')),
  GSPC_ASSET: trimmed(z.string().regex(ADDRESS, 'the token contract address').default(BASE_USDC)),
  GSPC_ASSET_NAME: trimmed(z.string().default('USD Coin')),
  GSPC_PROMO: promoSchema,
  GSPC_SELF_PAYERS: selfPayersSchema,
};

const envSchema = z.object({
  ...railSchema,
  PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULTS.port),
  GSPC_HOST: z.string().min(1).default('127.0.0.1'),
  GSPC_DATA_DIR: z.string().min(1).default('./data'),
  GSPC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  GSPC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GSPC_ACCESS_LOG: z.enum(['0', '1']).default('0'),
  GSPC_METRICS: z.enum(['0', '1']).default('1'),
  GSPC_FAST_PATH: z.enum(['0', '1']).default('1'),
  // Who may read /metrics (issue 38): a bearer token, client addresses; neither: anyone.
  GSPC_METRICS_TOKEN: trimmed(z.string().min(16, 'at least 16 characters').optional()),
  GSPC_METRICS_ALLOW: trimmed(z.string().optional()).transform((v, ctx) => {
    const list = (v ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    for (const a of list)
      if (isIP(a) === 0) {
        ctx.addIssue({ code: 'custom', message: `'${a}': give IP addresses, comma-separated` });
        return z.NEVER;
      }
    return list;
  }),
  GSPC_METRICS_VERSIONS: z.enum(['0', '1']).default('0'),
  // Requests per minute per client address, by class (docs/operations.md, "Limits"); 0: none.
  GSPC_RATE_LIMITS: trimmed(z.string().optional()).transform((v, ctx) => {
    const budgets = { ...DEFAULT_RATE_BUDGETS };
    if (v === undefined) return budgets;
    if (v === 'off') return { free: 0, verify: 0, challenge: 0, paid: 0, invoice: 0, invoice_hour: 0 };
    for (const part of v.split(',').map((x) => x.trim())) {
      const m = /^(free|verify|challenge|paid|invoice_hour|invoice)=(0|[1-9][0-9]{0,6})$/.exec(part);
      if (!m) {
        ctx.addIssue({
          code: 'custom',
          message: `'${part}': give class=requests-per-minute pairs (free, verify, challenge, paid, invoice), invoice_hour=invoices-per-hour, or off`,
        });
        return z.NEVER;
      }
      budgets[m[1] as keyof typeof budgets] = Number(m[2]);
    }
    return budgets;
  }),
  // Proxies whose X-Forwarded-For names the client (addresses or CIDRs, comma-separated).
  GSPC_TRUST_PROXY: trimmed(z.string().optional()).transform((v, ctx) => {
    const list = (v ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    for (const a of list) {
      const [ip = '', bits, ...rest] = a.split('/');
      const max = isIP(ip) === 4 ? 32 : isIP(ip) === 6 ? 128 : 0;
      if (max === 0 || rest.length > 0 || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) {
        ctx.addIssue({
          code: 'custom',
          message: `'${a}': give IP addresses or CIDR ranges (127.0.0.1, 10.0.0.0/8), comma-separated`,
        });
        return z.NEVER;
      }
    }
    return list;
  }),
  GSPC_RELOAD_INTERVAL_MS: z.coerce.number().int().min(0).default(2000),
  // Connections (docs/operations.md, "Limits"; src/web/connections.ts): 0 is no cap.
  GSPC_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).default(DEFAULT_CONNECTION_LIMITS.maxPerClient),
  GSPC_MAX_CONNECTIONS: z.coerce.number().int().min(0).default(DEFAULT_CONNECTION_LIMITS.max),
  GSPC_HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(600_000)
    .default(DEFAULT_CONNECTION_LIMITS.headersTimeoutMs),
  GSPC_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(600_000)
    .default(DEFAULT_CONNECTION_LIMITS.requestTimeoutMs),
  GSPC_KEEP_ALIVE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs),
  // On SIGTERM: a paid request may wait on the facilitator for GSPC_FACILITATOR_TIMEOUT_MS.
  GSPC_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  GSPC_KEY_DIR: z.string().min(1).optional(),
  GSPC_SIGNER: trimmed(z.enum(['files', 'pkcs11']).default('files')),
  GSPC_PKCS11_MODULE: trimmed(z.string().min(1).default('/usr/lib/softhsm/libsofthsm2.so')),
  GSPC_PKCS11_TOKEN: trimmed(z.string().min(1).optional()),
  GSPC_PKCS11_PIN_FILE: trimmed(z.string().min(1).optional()),
  GSPC_DID_HOST: z.string().min(1).optional(),
  GSPC_TRUSTED_DID_HOSTS: z.string().optional(),
  GSPC_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// or postgresql:// URL')
    .optional(),
  GSPC_LEDGER_PATH: z.string().min(1).optional(),
  GSPC_FACILITATOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(DEFAULTS.facilitatorTimeoutMs),
  GSPC_RPC_URL: z.url({ protocol: /^https?$/ }).optional(),
  GSPC_FABRIC_REFRESH_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .max(86_400)
    .default(DEFAULTS.fabricRefreshMs / 1000),
  GSPC_HUB_PEERS: z.string().optional(),
  GSPC_XRPL_URL: z.url({ protocol: /^https?$/ }).optional(),
  GSPC_XRPL_ACCOUNT: z
    .string()
    .refine(isClassicAddress, 'a classic XRPL address (r..., with a valid checksum)')
    .optional(),
  GSPC_XRPL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3500),
  GSPC_PROVIDER_CANARY_FILE: z.string().min(1).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Whether the data directory was chosen (GSPC_DATA_DIR or --data-dir), not the default ./data. */
  dataDirExplicit: boolean;
  /**
   * The public origin (scheme, host, port): what the release's did:web and every URL of its signed
   * documents name. GSPC_BASE_URL or --public-url; default http://localhost:<port>.
   */
  baseUrl: string;
  /** Whether the base URL was set (else it follows the port the service listens on). */
  baseUrlExplicit: boolean;
  logLevel: string;
  accessLog: boolean;
  /** Whether `GET /metrics` (Prometheus) is served and requests are counted. */
  metrics: boolean;
  /** Who may read /metrics and whether it shows the runtime's version (src/web/metrics.ts). */
  metricsAccess: { token?: string; allow: string[]; versions: boolean };
  /** Whether plain GETs of prepared documents are answered before Fastify (src/web/fast-path.ts). */
  fastPath: boolean;
  /** Requests per minute per client address, by class (0: unlimited). */
  rateLimits: { free: number; verify: number; challenge: number; paid: number; invoice: number; invoice_hour: number };
  /** Proxy addresses whose X-Forwarded-For is believed (Fastify's trustProxy); empty: none. */
  trustProxy: string[];
  reloadIntervalMs: number;
  /** Connection caps and timeouts (src/web/connections.ts). */
  connections: ConnectionLimits;
  /** On SIGTERM, how long requests in flight may take before their connections are cut. */
  drainTimeoutMs: number;
  /** Where the Ed25519 key files live (default `<dataDir>/keys`). */
  keyDir: string;
  /** GSPC_SIGNER=pkcs11: the token that holds the keys instead (src/keys/pkcs11-keys.ts). */
  token?: TokenConfig;
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
  const peers = (v ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const name = eq > 0 ? p.slice(0, eq) : '';
      const url = p.slice(eq + 1);
      if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(name) || name === 'self')
        throw new GspcError(
          'config_invalid',
          `invalid configuration: GSPC_HUB_PEERS entry '${p}' needs a name (lower-case slug, not 'self') = an http(s) origin`,
        );
      let origin: URL;
      try {
        origin = new URL(url);
      } catch {
        throw new GspcError('config_invalid', `invalid configuration: GSPC_HUB_PEERS entry '${p}' has no valid URL`);
      }
      if (!/^https?:$/.test(origin.protocol))
        throw new GspcError(
          'config_invalid',
          `invalid configuration: GSPC_HUB_PEERS entry '${p}' must be http or https`,
        );
      return { name, url: origin.origin };
    });
  if (new Set(peers.map((p) => p.name)).size !== peers.length)
    throw new GspcError('config_invalid', 'invalid configuration: GSPC_HUB_PEERS names must be unique');
  return peers;
}

/** Command-line flags that take precedence over the environment. */
export interface ConfigOverrides {
  port?: number;
  host?: string;
  dataDir?: string;
  /** `--public-url`: the public origin, over GSPC_BASE_URL. */
  publicUrl?: string;
  /** `--key-dir`: over GSPC_KEY_DIR. */
  keyDir?: string;
}

/** `--public-url`: an http(s) origin, checked as GSPC_BASE_URL is. */
function publicUrlFlag(v: string): string {
  const parsed = envSchema.shape.GSPC_BASE_URL.safeParse(v);
  if (!parsed.success || parsed.data === undefined)
    throw new GspcError('config_invalid', `invalid configuration: --public-url must be an http(s) URL, not '${v}'`);
  const u = new URL(parsed.data);
  if (u.pathname !== '/' || u.search !== '' || u.hash !== '')
    throw new GspcError(
      'config_invalid',
      `invalid configuration: --public-url must be an origin (scheme, host, port), without a path: '${v}'`,
    );
  return u.origin;
}

/** The configuration with a command's flags applied (what `gspc` hands each command). */
export type ConfigSource = (overrides?: ConfigOverrides) => Config;

export function readConfig(env: Readonly<Record<string, string | undefined>>, overrides: ConfigOverrides = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new GspcError('config_invalid', `invalid configuration: ${issues.join('; ')}`, { issues });
  }
  const e = parsed.data;
  if (e.GSPC_DATABASE_URL !== undefined && e.GSPC_LEDGER_PATH !== undefined) {
    // Guessing which of two configured stores holds the money is worse than refusing to start.
    throw new GspcError(
      'config_invalid',
      'invalid configuration: set GSPC_DATABASE_URL (PostgreSQL) or GSPC_LEDGER_PATH (SQLite), not both',
    );
  }
  const port = overrides.port ?? e.PORT;
  const payTo = e.GSPC_PAY_TO ?? null;
  const dataDir = resolve(overrides.dataDir ?? e.GSPC_DATA_DIR);
  const publicUrl = overrides.publicUrl === undefined ? e.GSPC_BASE_URL : publicUrlFlag(overrides.publicUrl);
  const baseUrl = (publicUrl ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: overrides.host ?? e.GSPC_HOST,
    dataDir,
    dataDirExplicit: overrides.dataDir !== undefined || env.GSPC_DATA_DIR !== undefined,
    baseUrl,
    baseUrlExplicit: publicUrl !== undefined,
    logLevel: e.GSPC_LOG_LEVEL,
    accessLog: e.GSPC_ACCESS_LOG === '1',
    metrics: e.GSPC_METRICS === '1',
    fastPath: e.GSPC_FAST_PATH === '1',
    metricsAccess: {
      ...(e.GSPC_METRICS_TOKEN !== undefined && { token: e.GSPC_METRICS_TOKEN }),
      allow: e.GSPC_METRICS_ALLOW,
      versions: e.GSPC_METRICS_VERSIONS === '1',
    },
    rateLimits: e.GSPC_RATE_LIMITS,
    trustProxy: e.GSPC_TRUST_PROXY,
    reloadIntervalMs: e.GSPC_RELOAD_INTERVAL_MS,
    connections: {
      maxPerClient: e.GSPC_MAX_CONNECTIONS_PER_CLIENT,
      max: e.GSPC_MAX_CONNECTIONS,
      headersTimeoutMs: e.GSPC_HEADERS_TIMEOUT_MS,
      // A request (headers and body) may not be given less time than its headers.
      requestTimeoutMs: Math.max(e.GSPC_REQUEST_TIMEOUT_MS, e.GSPC_HEADERS_TIMEOUT_MS),
      keepAliveTimeoutMs: e.GSPC_KEEP_ALIVE_TIMEOUT_MS,
    },
    drainTimeoutMs: e.GSPC_DRAIN_TIMEOUT_MS,
    keyDir: resolve(overrides.keyDir ?? e.GSPC_KEY_DIR ?? `${dataDir}/keys`),
    ...(e.GSPC_SIGNER === 'pkcs11' && { token: tokenConfig(e) }),
    didHost: e.GSPC_DID_HOST ?? new URL(baseUrl).host,
    // Each entry is checked now (didForHost throws config_invalid), not at the first receipt.
    ledger:
      e.GSPC_DATABASE_URL !== undefined
        ? { databaseUrl: e.GSPC_DATABASE_URL }
        : { sqlitePath: resolve(e.GSPC_LEDGER_PATH ?? `${dataDir}/ledger.sqlite`) },
    rail: {
      payTo,
      facilitatorUrl: e.GSPC_FACILITATOR_URL?.replace(/\/$/, '') ?? null,
      network: e.GSPC_NETWORK,
      asset: e.GSPC_ASSET,
      assetName: e.GSPC_ASSET_NAME,
      assetVersion: '2',
      decimals: 6,
      symbol: 'USDC',
      maxTimeoutSeconds: 300,
      promo: e.GSPC_PROMO,
      // The payee's own settlements are never demand.
      selfPayers: [...new Set([...e.GSPC_SELF_PAYERS, ...(payTo ? [payTo] : [])].map((a) => a.toLowerCase()))],
    },
    facilitatorTimeoutMs: e.GSPC_FACILITATOR_TIMEOUT_MS,
    rpcUrl: e.GSPC_RPC_URL ?? null,
    fabricRefreshMs: e.GSPC_FABRIC_REFRESH_SECONDS * 1000,
    sources: {
      hubPeers: hubPeers(e.GSPC_HUB_PEERS),
      xrpl:
        e.GSPC_XRPL_URL === undefined
          ? null
          : {
              url: e.GSPC_XRPL_URL,
              account: requireXrplAccount(e.GSPC_XRPL_ACCOUNT),
              timeoutMs: e.GSPC_XRPL_TIMEOUT_MS,
            },
      providerCanaryFile: e.GSPC_PROVIDER_CANARY_FILE === undefined ? null : resolve(e.GSPC_PROVIDER_CANARY_FILE),
    },
    trustedDidHosts: (e.GSPC_TRUSTED_DID_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '')
      .map((h) => {
        didForHost(h);
        return h;
      }),
  };
}

/** The payment rail alone, from the same schema (tests and tools that only need the rail). */
export function readRailConfig(env: Readonly<Record<string, string | undefined>>): RailConfig {
  return readConfig(env).rail;
}

function requireXrplAccount(account: string | undefined): string {
  if (account === undefined)
    throw new GspcError(
      'config_invalid',
      'invalid configuration: GSPC_XRPL_URL needs GSPC_XRPL_ACCOUNT (the account whose assets /api/xrpl reads)',
    );
  return account;
}
