/**
 * What the /pricing page reads from the product catalogue (`GET /api/x402`, `svc.x402-catalogue/0.1`,
 * docs/formats.md §6): the fields it shows, typed, and the exact decimal form of an atomic amount.
 */

export interface CataloguePromo {
  campaign_id: string;
  starts_at: string;
  ends_at: string;
  amount_atomic: string;
  amount: string;
  active: boolean;
}

export interface CatalogueProduct {
  product_id: string;
  sku_id: string;
  method: string;
  path: string;
  url: string;
  per: string;
  schema: string;
  description: string;
  deliverable: string;
  never: string[];
  pricing: {
    pricing_basis: string;
    campaign_id: string | null;
    offered_amount_atomic: string;
    normal_amount_atomic: string;
    offered: string;
    normal: string;
    fresh_compute_excluded: boolean;
    promo: CataloguePromo | null;
  };
  query: {
    properties?: Record<string, { description?: string; const?: string; pattern?: string; type?: string }>;
    required?: string[];
  };
  example_request: string | null;
  example_requests: string[];
  example_skipped: string | null;
  without_payment: string;
  free_preview: string;
  free_equivalents: string[];
  invoice?: { how: string; available: boolean; collect: string; note: string };
}

export interface Catalogue {
  schema: string;
  as_of: string;
  x402Version: number;
  release: { id: string; as_of: string };
  rail: {
    mode: string;
    scheme: string;
    network: string;
    asset: string;
    asset_name: string;
    decimals: number;
    symbol: string;
    max_timeout_seconds: number;
    pay_to: string | null;
    pay_to_configured: boolean;
    facilitator_configured: boolean;
    payment_headers: string[];
    note: string;
  };
  signer: {
    did: string;
    kid: string;
    key_present: boolean;
    unsigned_reason: string | null;
    offers_signed: boolean;
    did_document: string;
  };
  products: CatalogueProduct[];
  verify: {
    offers_and_receipts: { method: string; url: string; body: string };
    cards: { method: string; url: string; body: string };
    offline: string;
    note: string;
  };
  quotes: string;
  revenue: string;
  never: string[];
}

/** "0.010000" from "10000" at 6 decimals: exact (bigint), every decimal kept. */
export function decimalOf(atomic: string, decimals: number): string {
  if (!/^\d+$/.test(atomic) || !Number.isInteger(decimals) || decimals < 0)
    throw new RangeError(`not an atomic amount: ${atomic}`);
  const v = BigInt(atomic);
  if (decimals === 0) return v.toString();
  const scale = 10n ** BigInt(decimals);
  return `${v / scale}.${(v % scale).toString().padStart(decimals, '0')}`;
}

/** Whether an instant is before, inside (start inclusive, end exclusive) or after a window. */
export function windowPhase(at: string, w: { starts_at: string; ends_at: string }): 'before' | 'inside' | 'after' {
  const t = Date.parse(at);
  if (t < Date.parse(w.starts_at)) return 'before';
  return t < Date.parse(w.ends_at) ? 'inside' : 'after';
}
