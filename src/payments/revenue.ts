/**
 * The revenue ledger read, `GET /api/revenue` (specification: the x402-settlement rail "counts
 * only non-self payers and non-zero settlements as demand; self-funded and zero-value
 * settlements stay as audit records"). The body is not shown by the specification; this one
 * lets every counted figure be checked on chain: totals over the whole ledger plus the most
 * recent settlements, each with its transaction and how it was counted. Pure: records in,
 * document out. Invoice amounts are never published (the amount appears only on the invoice).
 */
import type { InvoiceRecord, SettlementRecord, SettlementState } from '../store/ledger.js';
import { queryParameters } from './product-queries.js';
import { PRODUCTS } from '../core/pricing/products.js';

export const REVENUE_SCHEMA = 'svc.revenue/0.1';
/** How many settlements the document lists, most recent first. */
export const REVENUE_LISTED = 100;

export type CountedAs = 'demand' | 'self-funded' | 'zero-value';

/** The record fields this read uses (artefact bytes are never needed, nor published). */
export type RevenueRecord = Pick<
  SettlementRecord,
  | 'payer'
  | 'nonce'
  | 'product_id'
  | 'resource'
  | 'amount_atomic'
  | 'asset'
  | 'network'
  | 'pay_to'
  | 'self_funded'
  | 'state'
  | 'transaction'
  | 'updated_at'
>;

export interface RevenueInputs {
  now: Date;
  ledger: { backend: string; schema_version: number };
  records: readonly RevenueRecord[];
  invoices: readonly Pick<InvoiceRecord, 'state'>[];
  /** The operator's own addresses (rail `selfPayers`: GSPC_SELF_PAYERS and pay_to). */
  selfPayers: readonly string[];
  /** When each listed payment became SETTLED, by `paymentId`; `updated_at` when absent. */
  settledAt?: ReadonlyMap<string, string>;
  limit?: number;
}

export const paymentId = (r: Pick<RevenueRecord, 'payer' | 'nonce'>): string =>
  `${r.payer.toLowerCase()}/${r.nonce.toLowerCase()}`;

/**
 * How a SETTLED payment counts. Self-funded wins over zero-value (both are audit records), and a
 * record reserved as self-funded stays so even if its payer later leaves the list: a payment is
 * never promoted to demand by a configuration change.
 */
export function countedAs(
  r: Pick<RevenueRecord, 'payer' | 'self_funded' | 'amount_atomic'>,
  selfPayers: ReadonlySet<string>,
): CountedAs {
  if (r.self_funded || selfPayers.has(r.payer.toLowerCase())) return 'self-funded';
  return BigInt(r.amount_atomic) > 0n ? 'demand' : 'zero-value';
}

/** The SETTLED records the document lists, most recent first (by last update; the order is stable). */
export function listedSettlements<R extends RevenueRecord>(records: readonly R[], limit = REVENUE_LISTED): R[] {
  return records
    .filter((r) => r.state === 'SETTLED')
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.updated_at < b.r.updated_at ? 1 : a.r.updated_at > b.r.updated_at ? -1 : b.i - a.i))
    .slice(0, limit)
    .map((x) => x.r);
}

interface Total {
  network: string;
  asset: string;
  count: number;
  amount_atomic: string;
}
interface ProductTotal extends Total {
  product_id: string;
}

/** Sums per (network, asset), and per product when asked; amounts as exact integer strings. */
function totals(records: readonly RevenueRecord[]): Total[];
function totals(records: readonly RevenueRecord[], byProduct: true): ProductTotal[];
function totals(records: readonly RevenueRecord[], byProduct = false): Total[] {
  const sums = new Map<string, { product_id?: string; network: string; asset: string; count: number; sum: bigint }>();
  for (const r of records) {
    const k = `${byProduct ? r.product_id : ''}\n${r.network}\n${r.asset.toLowerCase()}`;
    const s = sums.get(k) ?? {
      ...(byProduct && { product_id: r.product_id }),
      network: r.network,
      asset: r.asset,
      count: 0,
      sum: 0n,
    };
    s.count += 1;
    s.sum += BigInt(r.amount_atomic);
    sums.set(k, s);
  }
  return [...sums.values()].map(({ sum, ...s }) => ({ ...s, amount_atomic: sum.toString() }));
}

export function revenueDocument(i: RevenueInputs): Record<string, unknown> {
  const self = new Set(i.selfPayers.map((a) => a.toLowerCase()));
  const settled = i.records.filter((r) => r.state === 'SETTLED');
  const by = (c: CountedAs) => settled.filter((r) => countedAs(r, self) === c);
  const demand = by('demand');
  const selfFunded = by('self-funded');
  const zero = by('zero-value');
  const count = (s: SettlementState) => i.records.filter((r) => r.state === s).length;
  const listed = listedSettlements(i.records, i.limit ?? REVENUE_LISTED);
  return {
    ...head(i.now, i.ledger, [...self]),
    unread: [],
    demand: { count: demand.length, totals: totals(demand), by_product: totals(demand, true) },
    audit: {
      self_funded: { count: selfFunded.length, totals: totals(selfFunded) },
      zero_value: { count: zero.length },
      note: 'self-funded and zero-value settlements are kept as audit records and never counted as demand',
    },
    open: {
      RESERVED: count('RESERVED'),
      UNKNOWN: count('UNKNOWN'),
      FAILED: count('FAILED'),
      note: 'RESERVED: a settlement in flight; UNKNOWN: the facilitator did not answer mid-settle, so money may have moved: it awaits `gspc reconcile` against the chain; FAILED: refused, nothing moved. None is counted.',
    },
    invoices: {
      ISSUED: i.invoices.filter((v) => v.state === 'ISSUED').length,
      PAID: i.invoices.filter((v) => v.state === 'PAID').length,
      note: 'counts only: the amount appears only on the invoice',
    },
    settlements_total: settled.length,
    settlements_listed: listed.length,
    settlements: listed.map((r) => ({
      product_id: r.product_id,
      resource: publicResource(r.resource),
      amount_atomic: r.amount_atomic,
      asset: r.asset,
      network: r.network,
      payer: r.payer,
      pay_to: r.pay_to,
      transaction: r.transaction,
      settled_at: i.settledAt?.get(paymentId(r)) ?? r.updated_at,
      counted_as: countedAs(r, self),
    })),
  };
}

/** The document when the ledger cannot be read: 200 with null figures and the reason (specification, "Errors"). */
export function unreadRevenue(
  now: Date,
  ledger: { backend: string; schema_version: number } | null,
  selfPayers: readonly string[],
  reason: string,
): Record<string, unknown> {
  return {
    ...head(
      now,
      ledger,
      selfPayers.map((a) => a.toLowerCase()),
    ),
    unread: [{ source: 'ledger', reason }],
    demand: null,
    audit: null,
    open: null,
    invoices: null,
    settlements_total: null,
    settlements_listed: null,
    settlements: null,
  };
}

function head(now: Date, ledger: { backend: string; schema_version: number } | null, selfPayers: string[]) {
  return {
    schema: REVENUE_SCHEMA,
    as_of: now.toISOString(),
    ledger,
    rule: 'demand = SETTLED payments whose payer is not one of self_payers (and was not self-funded when reserved) and whose amount_atomic is above 0',
    self_payers: selfPayers,
    how_to_check:
      'Totals cover every SETTLED payment in the ledger; settlements lists the most recent (settlements_listed of settlements_total). ' +
      'For each, look up `transaction` on `network` (for eip155:8453 a Base block explorer) and check a transfer of `amount_atomic` of `asset` from `payer` to `pay_to`. ' +
      'counted_as says how it entered the figures: demand only when the payer is not among self_payers and the amount is above 0. ' +
      "Amounts are integers in the asset's smallest unit (6 decimals for USDC).",
  };
}

// Query parameters a settlement's resource may show: those of the products, minus who
// commissioned it (a legal entity's name is the buyer's business, not the public's).
const PUBLIC_PARAMS = new Set(PRODUCTS.flatMap((p) => queryParameters(p.key)).filter((n) => n !== 'commissioned_by'));

/** The paid request's path with only the product's own parameters; nothing else that was sent. */
export function publicResource(resource: string): string {
  let u: URL;
  try {
    u = new URL(resource, 'http://resource.invalid');
  } catch {
    return '';
  }
  const kept = [...u.searchParams].filter(([k]) => PUBLIC_PARAMS.has(k));
  const q = new URLSearchParams(kept).toString();
  return `${u.pathname}${q ? `?${q}` : ''}`;
}
