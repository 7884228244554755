/**
 * A payment the ledger already holds (issue 37: bound to what it bought). Whatever route took it
 * to its state (settled directly, replayed, reconciled from the chain, reopened after a failure),
 * its record names the product, resource and amount it paid for, and it delivers that artefact on
 * that URL and nothing else: presented for another product or resource it is a 409
 * `payment_other_resource` naming both, with no artefact and no receipt. The same payload on its
 * own URL gets its outcome (the stored artefact, or `payment_pending`); another payload for the
 * same (payer, nonce) is a conflict. Also the receipt and the `PAYMENT-RESPONSE` body.
 *
 * The payload is no secret: once settled, its signature and authorization are public in the
 * transaction's calldata (even in the mempool). So a delivered artefact is given again only to a
 * request carrying the x402 `payment-identifier` id its delivering request carried (decision
 * P42), or signed in with the paying wallet (`SIGN-IN-WITH-X`, decision P45); otherwise a 409
 * `payment_already_delivered` with no artefact, no receipt and no URL. A payment not yet
 * delivered (settled by reconcile) goes to the request carrying the id it was reserved with, or
 * signed in by its payer; reserved without an id, only to its payer signed in (a 409
 * `payer_sign_in_required` otherwise): the first valid replay could be anyone who read the chain.
 */
import { createHash } from 'node:crypto';
import { GspcError } from '../core/errors.js';
import { signReceipt } from '../core/pricing/offer-receipt.js';
import type { SettlementRecord } from '../store/ledger.js';
import {
  type PaidDeps,
  type PaidOutcome,
  type PaidRequest,
  RETRY_WITHOUT_ID,
  type SettleResponseBody,
} from './paid-types.js';

/** The same payload gets its outcome; another is a conflict; another resource is refused. */
export async function settledElsewhere(
  record: SettlementRecord,
  digest: string,
  req: PaidRequest,
  deps: PaidDeps,
): Promise<PaidOutcome> {
  if (record.payment_sha256 !== digest) {
    // Never "nothing is settled" about an authorization that is, or may be, on chain (finding 4).
    const state =
      record.state === 'SETTLED'
        ? 'that payment is settled on chain'
        : record.state === 'FAILED'
          ? 'that payment was recorded as failed'
          : 'that payment is being settled or awaits reconciliation against the chain';
    throw new GspcError(
      'payment_conflict',
      `this authorization (payer and nonce) was already presented with a different payment payload, and ${state}; this request is refused and settles nothing`,
    );
  }
  const idHash =
    req.payment.paymentId === null ? null : createHash('sha256').update(req.payment.paymentId).digest('hex');
  boundTo(record, req, idHash);
  let r = record;
  // Another request holds the reservation: wait for it rather than settle twice.
  for (const until = Date.now() + deps.inFlightWaitMs; r.state === 'RESERVED' && Date.now() < until; ) {
    await new Promise((res) => setTimeout(res, 25));
    r = (await deps.ledger.get(r))!;
  }
  // Waited on: a FAILED record may have been reopened meanwhile for another resource.
  boundTo(r, req, idHash);
  switch (r.state) {
    case 'SETTLED':
      return deliverSettled(r, req, idHash, deps);
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
        `this payment's settlement outcome is unknown${r.transaction ? ` (the facilitator named transaction ${r.transaction})` : ''} and awaits reconciliation against the chain: not charged yet, or charged; retry later: it is never charged twice, and once settled the artefact is delivered${RETRY_WITHOUT_ID}`,
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

/** The request is signed in (SIGN-IN-WITH-X) by the record's payer (decision P45). */
function isPayer(r: SettlementRecord, signedInAs: string | undefined): boolean {
  return signedInAs !== undefined && signedInAs === r.payer.toLowerCase();
}

/** What a settled payment's delivery needs of the request: no payment header for a signed-in payer. */
export type DeliveryRequest = Pick<PaidRequest, 'resourceUrl' | 'produce' | 'signedInAs'>;

/**
 * A SETTLED record's artefact, to the request entitled to it: the one carrying the payment-identifier
 * id it holds, or its payer signed in. Settled by reconcile and never delivered, it is produced
 * now and kept; reserved without an id, only its payer signed in can have it (decision P45).
 */
export async function deliverSettled(
  record: SettlementRecord,
  req: DeliveryRequest,
  idHash: string | null,
  deps: PaidDeps,
): Promise<Extract<PaidOutcome, { kind: 'delivered' }>> {
  let r = record;
  const owner = isPayer(r, req.signedInAs);
  const held = r.payment_id_sha256 ?? null;
  if (r.artefact === null) {
    if (!owner) {
      if (held === null) throw signInRequired(r);
      if (held !== idHash) throw heldForItsId(r);
    }
    // The caller bound this request to the record's resource: produce what it bought.
    const a = req.produce();
    const receipt = r.receipt ?? signedReceipt(req.resourceUrl, r, r.transaction!, deps);
    try {
      r = await deps.ledger.attachArtefact(r, {
        artefact: a.body,
        artefact_sha256: a.sha256,
        receipt,
        // The id it was reserved with stays, and no other is taken: only the request reserving a
        // payment gives it an id (one payment per id, schema 6); its payer signs in (P45).
        at: deps.now().toISOString(),
      });
    } catch (e) {
      // A concurrent delivery attached its own bytes first (an artefact names the time it was
      // made): this request gets those, if it is entitled to them (review of P45).
      if (!(e instanceof GspcError && e.code === 'ledger_conflict')) throw e;
      r = (await deps.ledger.get(r)) ?? r;
      if (r.artefact === null) throw e;
    }
    // A concurrent delivery attached first: to that request, unless this one is the payer's.
    if (!owner && (r.payment_id_sha256 ?? null) !== idHash) throw alreadyDelivered(r);
    return { kind: 'delivered', body: r.artefact!, settle: settleBody(r), replay: true, record: r };
  }
  if (!owner && (held === null || held !== idHash)) throw alreadyDelivered(r);
  return { kind: 'delivered', body: r.artefact!, settle: settleBody(r), replay: true, record: r };
}

/** Settled by reconcile, never delivered, reserved without an id: only its payer may have it. */
function signInRequired(r: SettlementRecord): GspcError {
  return new GspcError(
    'payer_sign_in_required',
    `this payment (payer ${r.payer}, nonce ${r.nonce}) is settled on chain and its artefact was never delivered; it was sent without an x402 payment-identifier id, and its signature and authorization are public on chain, so presenting them proves nothing. Sign in with the paying wallet: send this request again with a SIGN-IN-WITH-X header (the sign-in-with-x extension every 402 of this service declares) signed by ${r.payer}`,
    { payer: r.payer, nonce: r.nonce },
  );
}

/** A delivered artefact asked for without the id its delivering request carried (decision P42). */
function alreadyDelivered(r: SettlementRecord): GspcError {
  return new GspcError(
    'payment_already_delivered',
    `this payment (payer ${r.payer}, nonce ${r.nonce}) is settled and its artefact was delivered to the request that ${r.artefact === null ? 'first presented it' : 'settled it'}; a payment's signature and authorization are public on chain, so presenting them again proves nothing and delivers nothing. To get a lost response again, send the same payment with the x402 payment-identifier extension's id (extensions['payment-identifier'].info.id) that the delivering request carried, or sign in with the paying wallet (a SIGN-IN-WITH-X header, the sign-in-with-x extension every 402 declares)`,
    { payer: r.payer, nonce: r.nonce },
  );
}

/** Settled, not yet delivered, and held for the payment-identifier id it was reserved with. */
function heldForItsId(r: SettlementRecord): GspcError {
  return new GspcError(
    'payment_already_delivered',
    `this payment (payer ${r.payer}, nonce ${r.nonce}) is settled and its artefact is kept for the request carrying the x402 payment-identifier id it was sent with; a payment's signature and authorization are public on chain, so presenting them again proves nothing: send the same payment with that id, or sign in with the paying wallet (SIGN-IN-WITH-X)`,
    { payer: r.payer, nonce: r.nonce },
  );
}

/**
 * Refuses a payment presented for another product or resource than its record's. Both are
 * compared as recorded: the product id and the request's path and query, byte for byte. What it
 * paid for is named only to a request carrying the payment-identifier id it was bought with: the
 * payload is public on chain, the paid URL is the buyer's (decision P42).
 */
function boundTo(r: SettlementRecord, req: PaidRequest, idHash: string | null): void {
  if (r.product_id === req.product_id && r.resource === req.resourcePath) return;
  if (!isPayer(r, req.signedInAs) && (idHash === null || idHash !== (r.payment_id_sha256 ?? null)))
    throw new GspcError(
      'payment_other_resource',
      `this payment (payer ${r.payer}, nonce ${r.nonce}) paid for another resource than ${req.resourcePath}: it delivers what it paid for, on that URL, and nothing else; pay for this resource with a new authorization`,
      { requested: { product_id: req.product_id, resource: req.resourcePath } },
    );
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
