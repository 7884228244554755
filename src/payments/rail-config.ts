/**
 * The payment rail as the operator configures it (docs/operations.md): where the money goes,
 * which facilitator verifies and settles, on which network and asset. An unconfigured rail still
 * serves every challenge (with `pay_to_configured` / `facilitator_configured` false); a payment
 * sent to it is a 503 `rail_unconfigured` and nothing is charged. The variables are read and
 * checked with the rest of the configuration (src/config.ts).
 */
import type { PromoWindow } from '../core/pricing/price.js';

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
