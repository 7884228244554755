/**
 * The invoice path (specification, evidence-bundle `invoice=gbp&commissioned_by=`): for a buyer
 * who cannot pay in the token. The request issues a reference and records the invoice with the
 * artefact already produced; the amount appears only on the invoice the operator sends, never in
 * a response. The artefact is released at the collect URL once the operator marks the invoice
 * paid (`gspc invoice settle <ref>`). The reference is 128 random bits: knowing it is what lets a
 * buyer collect, so it is never listed publicly.
 *
 * The same request repeated (the same client address, release, product and parsed query) while its invoice is
 * open gets that invoice back, so it never stores its artefact twice (issue 37); a request from
 * another address gets its own reference, so a repeated URL never hands one buyer another's.
 * Invoice requests have their own rate budget (`invoice`, src/web/rate-limits.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GspcError } from '../core/errors.js';
import type { Product } from '../core/pricing/products.js';
import { priceAt } from '../core/pricing/price.js';
import type { Ledger } from '../store/ledger.js';
import type { RailConfig } from '../payments/rail-config.js';
import { BASE_HEADERS } from '../serve/headers.js';

export const INVOICE_SCHEMA = 'svc.invoice/0.1';
const REF = /^inv_[0-9a-z]{26}$/;

/** `inv_` + 26 base-32 characters (130 bits, the top 2 of which are zero). */
export function randomInvoiceRef(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const bytes = randomBytes(17);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let s = '';
  for (let i = 0; i < 26; i++) {
    s = alphabet[Number(n & 31n)]! + s;
    n >>= 5n;
  }
  return `inv_${s}`;
}

export interface InvoiceRequest {
  product: Product;
  /** Path and query of the request. */
  url: string;
  /** The client's address (as the rate limits see it) and the served release: with `url`, what makes a request the same. */
  client: string;
  release: string;
  query: Record<string, string | undefined>;
  baseUrl: string;
  ledger: Ledger;
  rail?: RailConfig;
  now(): Date;
  ref: () => string;
  /** The artefact the invoice will release, produced now from the live release. */
  produce(ref: string): { body: Buffer; sha256: string };
}

/**
 * What makes two invoice requests the same: the client address, the release, the product and
 * its parsed query, parameter by parameter in name order (issue 37 review, finding 6): a trailing
 * `&`, reordered parameters or another escaping of the same value is the same request, and gets
 * the same open invoice instead of storing a new artefact.
 */
export function invoiceRequestHash(r: Pick<InvoiceRequest, 'client' | 'release' | 'product' | 'query'>): string {
  const query = Object.entries(r.query)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify(['gspc-invoice-request/2', r.client, r.release, r.product.product_id, query]))
    .digest('hex');
}

export async function issueInvoice(reply: FastifyReply, r: InvoiceRequest): Promise<FastifyReply> {
  if (r.query.invoice !== 'gbp') throw new GspcError('bad_query', "invoice must be 'gbp'");
  const request_sha256 = invoiceRequestHash(r);
  // Found before anything is produced; createInvoice decides again, atomically, for a duplicate
  // that raced this one.
  const open = await r.ledger.findOpenInvoice(request_sha256);
  if (open) return sendInvoice(reply, open, r.baseUrl);
  const ref = r.ref();
  const at = r.now();
  const artefact = r.produce(ref);
  const pricing = priceAt(r.product, at, r.rail?.promo ?? null);
  const record = await r.ledger.createInvoice({
    ref,
    request_sha256,
    product_id: r.product.product_id,
    sku_id: r.product.sku_id,
    resource: r.url,
    commissioned_by: r.query.commissioned_by!,
    // The list price in the token's atomic units, as the record's currency says; the buyer's
    // invoice is in GBP (the request's `invoice=gbp`, kept in `resource`), converted by the operator.
    amount_atomic: pricing.offered_amount_atomic,
    currency: 'USDC',
    at: at.toISOString(),
    artefact: { artefact: artefact.body, artefact_sha256: artefact.sha256, receipt: null },
  });
  return sendInvoice(reply, record, r.baseUrl);
}

function sendInvoice(reply: FastifyReply, record: Parameters<typeof invoiceView>[0], baseUrl: string) {
  return reply
    .code(202)
    .headers({ ...BASE_HEADERS, 'cache-control': 'no-store' })
    .send(invoiceView(record, baseUrl));
}

function invoiceView(
  i: {
    ref: string;
    state: string;
    product_id: string;
    resource: string;
    commissioned_by: string;
    at: string;
    paid_at: string | null;
    artefact_sha256: string | null;
  },
  baseUrl: string,
) {
  return {
    schema: INVOICE_SCHEMA,
    ref: i.ref,
    state: i.state,
    product_id: i.product_id,
    resource: i.resource,
    commissioned_by: i.commissioned_by,
    invoice_currency: 'GBP',
    issued_at: i.at,
    paid_at: i.paid_at,
    artefact_sha256: i.artefact_sha256,
    collect: `${baseUrl}/api/invoices/${i.ref}`,
    note: 'The amount appears only on the invoice the operator sends. The artefact (already produced; its SHA-256 is above) is released at the collect URL once the operator marks the invoice paid. Keep the reference private: it is what lets you collect.',
  };
}

export function registerInvoiceRoutes(
  app: FastifyInstance,
  opts: { ledger?: Ledger | undefined; baseUrl: string },
): void {
  app.get<{ Params: { ref: string } }>('/api/invoices/:ref', async (req, reply) => {
    if (!REF.test(req.params.ref)) throw new GspcError('not_found', 'no invoice with this reference');
    const invoice = opts.ledger ? await opts.ledger.getInvoice(req.params.ref) : undefined;
    if (!invoice) throw new GspcError('not_found', 'no invoice with this reference');
    if (invoice.state !== 'PAID' || invoice.artefact === null) {
      return reply
        .code(202)
        .headers({ ...BASE_HEADERS, 'cache-control': 'no-store', 'retry-after': '3600' })
        .send(invoiceView(invoice, opts.baseUrl));
    }
    return reply
      .code(200)
      .headers({
        ...BASE_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'private, no-store',
        'x-gspc-invoice': invoice.ref,
      })
      .send(invoice.artefact);
  });
}
