/**
 * The payment rail as the operator configures it (docs/operations.md): where the money goes,
 * which facilitator verifies and settles, on which network and asset. An unconfigured rail still
 * serves every challenge (with `pay_to_configured` / `facilitator_configured` false); a payment
 * sent to it is a 503 `rail_unconfigured` and nothing is charged.
 */
import { GspcError } from '../core/errors.js';
import { SPEC_PROMO_WINDOW, type PromoWindow } from '../core/pricing/price.js';

/** USDC on Base (eip155:8453); its EIP-712 domain name is "USD Coin", version "2". */
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

export interface RailConfig {
  payTo: string | null;
  facilitatorUrl: string | null;
  network: string;
  asset: string;
  /** EIP-712 domain of the asset: `extra.name` / `extra.version` of every accepts entry. */
  assetName: string;
  assetVersion: string;
  decimals: 6;
  symbol: 'USDC';
  maxTimeoutSeconds: 300;
  promo: PromoWindow | null;
  /** Payers whose settlements are the operator's own (never counted as demand). */
  selfPayers: string[];
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

export interface RailEnv {
  GSPC_PAY_TO?: string | undefined;
  GSPC_FACILITATOR_URL?: string | undefined;
  GSPC_NETWORK?: string | undefined;
  GSPC_ASSET?: string | undefined;
  GSPC_ASSET_NAME?: string | undefined;
  GSPC_PROMO?: string | undefined;
  GSPC_SELF_PAYERS?: string | undefined;
}

/** Reads and checks the rail variables; a bad value is `config_invalid` at start, never at the first payment. */
export function readRailConfig(env: RailEnv): RailConfig {
  const bad = (name: string, why: string): never => { throw new GspcError('config_invalid', `${name}: ${why}`); };
  const payTo = env.GSPC_PAY_TO?.trim() || null;
  if (payTo !== null && !ADDRESS.test(payTo)) bad('GSPC_PAY_TO', 'an EVM address (0x and 40 hex digits)');
  const facilitatorUrl = env.GSPC_FACILITATOR_URL?.trim().replace(/\/$/, '') || null;
  if (facilitatorUrl !== null) {
    let u: URL | undefined;
    try { u = new URL(facilitatorUrl); } catch { /* reported below */ }
    if (!u || !/^https?:$/.test(u.protocol)) bad('GSPC_FACILITATOR_URL', 'an http(s) URL of an x402 facilitator');
  }
  const network = env.GSPC_NETWORK?.trim() || 'eip155:8453';
  if (!CAIP2.test(network)) bad('GSPC_NETWORK', 'a CAIP-2 network id such as eip155:8453');
  const asset = env.GSPC_ASSET?.trim() || BASE_USDC;
  if (!ADDRESS.test(asset)) bad('GSPC_ASSET', 'the token contract address');
  const selfPayers = (env.GSPC_SELF_PAYERS ?? '').split(',').map((a) => a.trim()).filter((a) => a !== '');
  for (const a of selfPayers) if (!ADDRESS.test(a)) bad('GSPC_SELF_PAYERS', `'${a}' is not an EVM address`);
  return {
    payTo, facilitatorUrl, network, asset,
    assetName: env.GSPC_ASSET_NAME?.trim() || 'USD Coin', assetVersion: '2', decimals: 6, symbol: 'USDC', maxTimeoutSeconds: 300,
    promo: readPromo(env.GSPC_PROMO, bad),
    selfPayers: [...new Set([...selfPayers, ...(payTo ? [payTo] : [])].map((a) => a.toLowerCase()))],
  };
}

/** `GSPC_PROMO`: unset = the specification's window; `none`; or `<campaign>,<starts_at>,<ends_at>`. */
function readPromo(value: string | undefined, bad: (n: string, w: string) => never): PromoWindow | null {
  const v = value?.trim();
  if (!v) return SPEC_PROMO_WINDOW;
  if (v === 'none') return null;
  const [campaign_id, starts_at, ends_at, ...rest] = v.split(',').map((x) => x.trim());
  const iso = (s: string | undefined) => s !== undefined && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(s) && !Number.isNaN(Date.parse(s));
  if (rest.length > 0 || !campaign_id || !iso(starts_at) || !iso(ends_at) || Date.parse(starts_at!) >= Date.parse(ends_at!)) {
    return bad('GSPC_PROMO', "'none' or '<campaign id>,<starts_at>,<ends_at>' with ISO 8601 UTC times, start before end");
  }
  return { campaign_id, starts_at: starts_at!, ends_at: ends_at! };
}
