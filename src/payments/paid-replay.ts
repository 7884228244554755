/**
 * A payment the ledger already holds (issue 37: bound to what it bought). Whatever route took it
 * to its state (settled directly, replayed, reconciled from the chain, reopened after a failure),
 * its record names the product, resource and amount it paid for, and it delivers that artefact on
 * that URL and nothing else: presented for another product or resource it is a 409
 * `payment_other_resource` naming both, with no artefact and no receipt. The same payload on its
 * own URL gets its outcome (the stored artefact, or `payment_pending`); another payload for the
 * same (payer, nonce) is a conflict. Also the receipt and the `PAYMENT-RESPONSE` body.
 */
import { GspcError } from '../core/errors.js';
import { signReceipt } from '../core/pricing/offer-receipt.js';
import type { SettlementRecord } from '../store/ledger.js';
import type { PaidDeps, PaidOutcome, PaidRequest, SettleResponseBody } from './paid-types.js';

/** The same payload gets its outcome; another is a conflict; another resource is refused. */
export async function settledElsewhere(
  record: SettlementRecord,
  digest: string,
  req: PaidRequest,
  deps: PaidDeps,
): Promise<PaidOutcome> {
  if (record.payment_sha256 !== digest) {
    throw new GspcError(
      'payment_conflict',
      'this authorization (payer and nonce) was already used with a different payment payload; it is refused and nothing is settled',
    );
  }
  boundTo(record, req);
  let r = record;
  // Another request holds the reservation: wait for it rather than settle twice.
  for (const until = Date.now() + deps.inFlightWaitMs; r.state === 'RESERVED' && Date.now() < until; ) {
    await new Promise((res) => setTimeout(res, 25));
    r = (await deps.ledger.get(r))!;
  }
  // Waited on: a FAILED record may have been reopened meanwhile for another resource.
  boundTo(r, req);
  switch (r.state) {
    case 'SETTLED': {
      if (r.artefact === null) {
        // Settled by reconcile: produce the artefact of what it bought (the binding above makes
        // this request that resource) and keep it for every later replay.
        const a = req.produce();
        const receipt = r.receipt ?? signedReceipt(req.resourceUrl, r, r.transaction!, deps);
        r = await deps.ledger.attachArtefact(r, {
          artefact: a.body,
          artefact_sha256: a.sha256,
          receipt,
          at: deps.now().toISOString(),
        });
      }
      return { kind: 'delivered', body: r.artefact!, settle: settleBody(r), replay: true, record: r };
    }
    case 'FAILED':
      return {
        kind: 'settle_failed',
        settle: {
          success: false,
          transaction: '',
          network: r.network,
          payer: r.payer,
          errorReason: 'settle_failed',
          errorMessage: r.error ?? 'settlement failed',
        },
      };
    case 'UNKNOWN':
      throw new GspcError(
        'payment_pending',
        `this payment's settlement outcome is unknown${r.transaction ? ` (the facilitator named transaction ${r.transaction})` : ''} and awaits reconciliation against the chain: not charged yet, or charged; retry later: it is never charged twice`,
        { payer: r.payer, nonce: r.nonce, ...(r.transaction && { transaction: r.transaction }) },
      );
    case 'RESERVED':
      throw new GspcError(
        'payment_pending',
        'this payment is being settled by another request; retry shortly: it is never charged twice',
        { payer: r.payer, nonce: r.nonce },
      );
  }
}

/**
 * Refuses a payment presented for another product or resource than its record's. Both are
 * compared as recorded: the product id and the request's path and query, byte for byte.
 */
function boundTo(r: SettlementRecord, req: PaidRequest): void {
  if (r.product_id === req.product_id && r.resource === req.resourcePath) return;
  throw new GspcError(
    'payment_other_resource',
    `this payment (payer ${r.payer}, nonce ${r.nonce}) paid for ${r.product_id} at ${r.resource} (${r.amount_atomic} atomic units): it delivers that, on that URL, and nothing else, so it does not buy ${req.product_id} at ${req.resourcePath}; pay for this resource with a new authorization`,
    {
      paid_for: { product_id: r.product_id, resource: r.resource, amount_atomic: r.amount_atomic },
      requested: { product_id: req.product_id, resource: req.resourcePath },
    },
  );
}

/** The receipt of a settlement: the resource, payer, transaction, amount and asset of its record. */
export function signedReceipt(
  resourceUrl: string,
  r: Pick<SettlementRecord, 'payer' | 'network' | 'amount_atomic' | 'asset'>,
  transaction: string,
  deps: Pick<PaidDeps, 'boardKey' | 'now'>,
): string | null {
  const k = deps.boardKey;
  if (!k.healthy) return null;
  const issuedAt = Math.floor(deps.now().getTime() / 1000);
  return signReceipt(
    { network: r.network, resourceUrl, payer: r.payer, issuedAt, transaction, amount: r.amount_atomic, asset: r.asset },
    { kid: k.signer.kid, sign: (m) => k.signer.sign(m) },
  ).signature;
}

export function settleBodyOf(
  payer: string,
  transaction: string,
  network: string,
  receipt: string | null,
): SettleResponseBody {
  return {
    success: true,
    transaction,
    network,
    payer,
    ...(receipt !== null && {
      extensions: { 'offer-receipt': { info: { receipt: { format: 'jws' as const, signature: receipt } } } },
    }),
  };
}

export function settleBody(r: SettlementRecord): SettleResponseBody {
  return settleBodyOf(r.payer, r.transaction!, r.network, r.receipt);
}
