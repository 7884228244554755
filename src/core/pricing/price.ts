/**
 * The price of a product at an instant: STANDARD, or PROMO_EXISTING_DATA inside the promo window
 * (start inclusive, end exclusive). The instant is an argument; core reads no clock.
 */
import type { Product } from './products.js';

export interface PromoWindow {
  campaign_id: string;
  starts_at: string;
  ends_at: string;
}

/** The specification's window for the three paid products. */
export const SPEC_PROMO_WINDOW: PromoWindow = {
  campaign_id: 'existing-data-2026-09',
  starts_at: '2026-09-11T00:00:00Z',
  ends_at: '2026-10-11T00:00:00Z',
};

export type PricingBasis = 'STANDARD' | 'PROMO_EXISTING_DATA';

/** `svc_pricing` of an accepts entry (specification, "accepts[] entry"). */
export interface SvcPricing {
  product_id: string;
  sku_id: string;
  pricing_basis: PricingBasis;
  campaign_id: string | null;
  normal_amount_atomic: string;
  offered_amount_atomic: string;
  starts_at?: string;
  ends_at?: string;
  fresh_compute_excluded: true;
}

export function inWindow(window: PromoWindow | null, at: Date): boolean {
  if (!window) return false;
  const t = at.getTime();
  return t >= Date.parse(window.starts_at) && t < Date.parse(window.ends_at);
}

export function priceAt(product: Product, at: Date, window: PromoWindow | null): SvcPricing {
  const promo = product.promoEligible && inWindow(window, at);
  return {
    product_id: product.product_id,
    sku_id: product.sku_id,
    pricing_basis: promo ? 'PROMO_EXISTING_DATA' : 'STANDARD',
    campaign_id: promo ? window!.campaign_id : null,
    normal_amount_atomic: product.normalAtomic.toString(),
    offered_amount_atomic: (promo ? product.promoAtomic : product.normalAtomic).toString(),
    ...(promo && { starts_at: window!.starts_at, ends_at: window!.ends_at }),
    fresh_compute_excluded: true,
  };
}

/** "0.010000 USDC" from atomic units (6 decimals), exact. */
export function formatUsdc(atomic: bigint | string): string {
  const v = BigInt(atomic);
  return `${v / 1_000_000n}.${(v % 1_000_000n).toString().padStart(6, '0')} USDC`;
}
