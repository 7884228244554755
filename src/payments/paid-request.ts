/**
 * One paid request, exactly once per authorization (ARCHITECTURE §5): look the payment up (a
 * replay gets the stored artefact, never a second settlement, and only on what it bought:
 * paid-replay.ts) → match it to this resource's terms, its validBefore within them → the
 * facilitator verifies while the artefact is produced → (payer, nonce) is reserved atomically →
 * the facilitator settles → the outcome is recorded → the artefact is delivered with a signed
 * receipt naming the transaction, the amount and the resource. Expected outcomes are values; the
 * failures a caller must see as errors (a conflicting payload, a payment still in flight or
 * pending on chain, a payment presented for what it did not buy, a facilitator that did not
 * answer) are `GspcError`s with their own codes. Time, keys and the facilitator are passed in.
 */
import { createHash } from 'node:crypto';
import type { PaymentPayload } from '@x402/core/types';
import { canonicalBytes } from '../core/crypto/canonical-json.js';
import { GspcError } from '../core/errors.js';
import type { SettlementRecord } from '../store/ledger.js';
import { settleBody, settleBodyOf, settledElsewhere, signedReceipt } from './paid-replay.js';
import { type Artefact, type PaidDeps, type PaidOutcome, type PaidRequest, RETRY_WITHOUT_ID } from './paid-types.js';
import type { ReadPayment } from './payment-header.js';
import { matchPayment } from './payment-match.js';

export type { PaidDeps, PaidOutcome, PaidRequest, SettleResponseBody } from './paid-types.js';

/**
 * SHA-256 of the part of the payment that moves money, in a canonical form of exactly the fields
 * the exact scheme defines (the signature and the six EIP-3009 fields, hex lowercased, integers
 * in decimal): a key the facilitator ignores, or another spelling of the same address, is the
 * same payment (issue 37, finding 4). Public on chain once settled, so it proves nothing about
 * who sends it (decision P42).
 */
export function paymentDigest(p: ReadPayment): string {
  const inner = (p.payload as { payload?: { signature?: unknown; authorization?: Record<string, unknown> } }).payload;
  const a = inner?.authorization ?? {};
  const hex = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : (v ?? null));
  const int = (v: unknown) => (typeof v === 'string' && /^[0-9]{1,78}$/.test(v) ? BigInt(v).toString() : (v ?? null));
  const canonical = {
    signature: hex(inner?.signature),
    authorization: {
      from: hex(a.from),
      to: hex(a.to),
      value: int(a.value),
      validAfter: int(a.validAfter),
      validBefore: int(a.validBefore),
      nonce: hex(a.nonce),
    },
  };
  return createHash('sha256').update(canonicalBytes(canonical)).digest('hex');
}

/** The digest records made before the canonical form carry: of payload.payload as sent. */
export function legacyPaymentDigest(p: ReadPayment): string {
  return createHash('sha256')
    .update(canonicalBytes((p.payload as { payload?: unknown }).payload ?? null))
    .digest('hex');
}

/** SHA-256 of the payment-identifier id, or null when the request carries none (decision P42). */
export function paymentIdDigest(p: ReadPayment): string | null {
  return p.paymentId === null ? null : createHash('sha256').update(p.paymentId).digest('hex');
}

export async function payForArtefact(req: PaidRequest, deps: PaidDeps): Promise<PaidOutcome> {
  const key = { payer: req.payment.payer, nonce: req.payment.nonce };
  // A payment already known: replayed, in flight, awaiting reconcile, or conflicting. A FAILED
  // one moved nothing and may be sent again, for this resource or another of the same price.
  const known = await deps.ledger.get(key);
  const legacy = legacyPaymentDigest(req.payment);
  const digest = known?.payment_sha256 === legacy ? legacy : paymentDigest(req.payment);
  if (known && known.state !== 'FAILED') return settledElsewhere(known, digest, req, deps);
  await idFree(req.payment, key, deps);

  const matched = matchPayment(req.payment, req.requirements, deps.rail, deps.now());
  if (!matched.ok) return { kind: 'rejected', reason: matched.reason };
  const payload: PaymentPayload = matched.payload;

  // The facilitator verifies first, and only a verified payment is reserved (issue 37): a
  // forged payload naming someone's (payer, nonce) writes nothing, so it cannot hold their key.
  // The artefact is built meanwhile (decision O10): its CPU overlaps the facilitator's work.
  const verifying = deps.facilitator.verify(payload, req.requirements);
  verifying.catch(() => undefined); // awaited below
  await new Promise<void>((resolve) => setImmediate(resolve));
  let artefact: Artefact | undefined;
  let unproduced: unknown;
  try {
    artefact = req.produce();
  } catch (e) {
    unproduced = e;
  }
  const verified = await verifying;
  if (verified.kind === 'unavailable') {
    // A duplicate whose verification timed out while the first request settled: answered as a
    // replay, never "nothing was charged" (issue 37, finding 3).
    const now = await deps.ledger.get(key);
    if (now && now.state !== 'FAILED') return settledElsewhere(now, digest, req, deps);
    throw new GspcError(
      'facilitator_unavailable',
      `the facilitator did not answer the verification (${verified.error}); nothing was settled, so nothing was charged: retry later`,
    );
  }
  if (verified.kind === 'invalid') {
    // A duplicate that looked the payment up before a concurrent request reserved it is refused
    // as a spent authorization once that request settled it: it is a replay (decision P34).
    const now = await deps.ledger.get(key);
    if (now && now.state !== 'FAILED') return settledElsewhere(now, digest, req, deps);
    // A FAILED payment sent again whose authorization the facilitator now finds used: a transfer
    // landed after all (a facilitator that answered success:false, transaction '' after its
    // broadcast). It is not a payment to make again: UNKNOWN until reconcile reads the chain
    // (issue 37, finding 2).
    if (now?.state === 'FAILED' && now.payment_sha256 === digest && nonceUsed(verified.reason, verified.message))
      return usedAfterFailure(now, verified.reason, deps);
    const reason = `the facilitator refused the payment: ${verified.reason}${verified.message ? ` (${verified.message})` : ''}`;
    return { kind: 'rejected', reason };
  }
  // Produced before settling so a settled payment always has its artefact; nothing is reserved
  // when it cannot be.
  if (artefact === undefined) throw unproduced;

  const reserved = await deps.ledger.reserve({
    ...key,
    product_id: req.product_id,
    sku_id: req.sku_id,
    resource: req.resourcePath,
    amount_atomic: req.requirements.amount,
    asset: req.requirements.asset.toLowerCase(),
    network: req.requirements.network,
    pay_to: req.requirements.payTo.toLowerCase(),
    payment_sha256: digest,
    payment_id_sha256: paymentIdDigest(req.payment),
    self_funded: deps.rail.selfPayers.includes(key.payer),
    valid_before: req.payment.validBefore,
    at: deps.now().toISOString(),
  });
  // Another payment took this payment-identifier id meanwhile (schema 6's unique index): the
  // id is the purchase, never a second charge (decision P42).
  if (reserved.outcome === 'id_taken') throw idTaken(key);
  // A duplicate holds it (in flight, settled, awaiting reconcile) or another payload does.
  if (reserved.outcome !== 'reserved') return settledElsewhere(reserved.record, digest, req, deps);
  return settle(req, deps, payload, artefact, reserved.record);
}

/**
 * A payment-identifier id already used with another payment is a 409, never a second charge: a
 * client that signed a new authorization for a request it retries under the same id (the
 * extension's idempotency) is told which payment the id belongs to (decision P42). Checked here
 * before anything is verified; two new payments racing past this check under one id are stopped
 * by the ledger's unique index (schema 6) when they reserve.
 */
async function idFree(p: ReadPayment, key: { payer: string; nonce: string }, deps: PaidDeps): Promise<void> {
  const idHash = paymentIdDigest(p);
  if (idHash === null) return;
  const holder = await deps.ledger.findByPaymentId(idHash);
  if (holder === undefined || (holder.payer === key.payer && holder.nonce === key.nonce)) return;
  throw idTaken(key);
}

function idTaken(key: { payer: string; nonce: string }): GspcError {
  return new GspcError(
    'payment_conflict',
    `this payment-identifier id was already used with another payment; this payment is refused and settles nothing. To retry that purchase send the payment first sent with this id, unchanged; for a new purchase use a new id`,
    { payer: key.payer, nonce: key.nonce },
  );
}

/** The facilitator's refusal names the authorization's nonce as used (EIP-3009 AuthorizationUsed). */
function nonceUsed(reason: string, message: string | undefined): boolean {
  return /nonce/i.test(reason) && /used/i.test(`${reason} ${message ?? ''}`);
}

/** FAILED → UNKNOWN: the chain decides (gspc reconcile); the buyer is told to wait, not to pay. */
async function usedAfterFailure(r: SettlementRecord, reason: string, deps: PaidDeps): Promise<never> {
  const key = { payer: r.payer, nonce: r.nonce };
  await deps.ledger
    .reopenUnknown(key, {
      error: `the facilitator refused the payment sent again because its authorization's nonce is used (${reason}): a transfer may have landed after the failure`,
      at: deps.now().toISOString(),
    })
    .catch(async (e: unknown) => {
      // Another retry moved it first: whatever it is now, it is not FAILED.
      if ((await deps.ledger.get(key))?.state === 'FAILED') throw e;
    });
  throw new GspcError(
    'payment_pending',
    `this payment's authorization is used on chain although its settlement was recorded as failed: you may have been charged. Do not pay again; the payment is awaiting reconciliation against the chain: retry the same payment later: it is never charged twice, and once the transfer is found the artefact is delivered${RETRY_WITHOUT_ID}`,
    { payer: r.payer, nonce: r.nonce },
  );
}

/** The reservation is this request's: settle, record the outcome, deliver. */
async function settle(
  req: PaidRequest,
  deps: PaidDeps,
  payload: PaymentPayload,
  artefact: Artefact,
  reservation: SettlementRecord,
): Promise<PaidOutcome> {
  const key = { payer: reservation.payer, nonce: reservation.nonce };
  const settled = await deps.facilitator.settle(payload, req.requirements);
  const at = deps.now().toISOString();
  switch (settled.kind) {
    case 'failed': {
      // Refused because the authorization's nonce is used: a transfer of it is on chain (or in
      // the mempool), whatever this attempt did. Money may have moved: UNKNOWN, reconciled.
      if (nonceUsed(settled.reason, settled.message)) {
        await deps.ledger.markUnknown(key, {
          error: `the facilitator refused to settle because the authorization's nonce is used (${settled.reason}): a transfer of it may be on chain`,
          at,
        });
        throw new GspcError(
          'settlement_unknown',
          `the facilitator refused to settle because this authorization's nonce is already used (${settled.reason}): you may have been charged. Do not pay again; the payment is recorded as unknown and reconciled against the chain: retry the same payment later: it is never charged twice, and once settled the artefact is delivered${RETRY_WITHOUT_ID}`,
          { payer: key.payer, nonce: key.nonce },
        );
      }
      // The facilitator's word that it submitted nothing. Should a transfer land anyway,
      // `gspc reconcile` finds the authorization used and settles the record (issue 37).
      await deps.ledger.markFailed(key, {
        error: `${settled.reason}${settled.message ? `: ${settled.message}` : ''} (the facilitator reports no transfer)`,
        at,
      });
      return {
        kind: 'settle_failed',
        settle: {
          success: false,
          transaction: '',
          network: req.requirements.network,
          payer: key.payer,
          errorReason: settled.reason,
          ...(settled.message !== undefined && { errorMessage: settled.message }),
        },
      };
    }
    case 'pending':
      // A transaction was named: money may move, or have moved. Never FAILED (issue 37).
      await deps.ledger.markUnknown(key, {
        error: `the facilitator answered success:false (${settled.reason}${settled.message ? `: ${settled.message}` : ''}) naming transaction ${settled.transaction}`,
        transaction: settled.transaction,
        at,
      });
      throw new GspcError(
        'settlement_pending',
        `the facilitator broadcast the transfer in ${settled.transaction} but did not see it confirmed (${settled.reason}): you are pending, not charged yet, or charged: check again. The payment is recorded as pending and reconciled against the chain; retry the same payment later: it is never charged twice, and once the transfer is on chain the artefact is delivered${RETRY_WITHOUT_ID}`,
        { payer: key.payer, nonce: key.nonce, transaction: settled.transaction },
      );
    case 'not_sent':
      await deps.ledger.markFailed(key, { error: `facilitator unreachable before settling: ${settled.error}`, at });
      throw new GspcError(
        'facilitator_unavailable',
        `the facilitator could not be reached to settle (${settled.error}); the settlement was never sent, so nothing was charged: retry later`,
      );
    case 'unknown':
      await deps.ledger.markUnknown(key, { error: settled.error, at });
      throw new GspcError(
        'settlement_unknown',
        `the facilitator did not confirm the settlement (${settled.error}); the outcome is recorded as unknown and will be reconciled against the chain. Retry the same payment later: it is never charged twice, and once settled the artefact is delivered${RETRY_WITHOUT_ID}`,
        { payer: key.payer, nonce: key.nonce },
      );
    case 'settled':
      return delivered(req, deps, artefact, reservation, settled.transaction, at);
  }
}

async function delivered(
  req: PaidRequest,
  deps: PaidDeps,
  artefact: Artefact,
  reservation: SettlementRecord,
  transaction: string,
  at: string,
): Promise<PaidOutcome> {
  const key = { payer: reservation.payer, nonce: reservation.nonce };
  const receipt = signedReceipt(req.resourceUrl, reservation, transaction, deps);
  const attachment = { artefact: artefact.body, artefact_sha256: artefact.sha256, receipt };
  let record: SettlementRecord;
  try {
    record = await deps.ledger.markSettled(key, { ...attachment, transaction, at });
  } catch (e) {
    // The money moved and the ledger cannot record it (a full disk, the database gone): the
    // buyer is not left charged without the artefact. The reservation is durable, so the
    // payment is found RESERVED and `gspc reconcile` settles it from the chain (issue 28).
    if (e instanceof GspcError && e.code === 'ledger_unavailable') {
      return {
        kind: 'delivered',
        body: artefact.body,
        settle: settleBodyOf(key.payer, transaction, reservation.network, receipt),
        replay: false,
        record: null,
      };
    }
    // A settle slower than `gspc reconcile --stale-after` may find its reservation parked as
    // UNKNOWN; the facilitator's answer is the better evidence, so it resolves the record.
    if (
      !(e instanceof GspcError && e.code === 'ledger_transition_invalid') ||
      (await deps.ledger.get(key))?.state !== 'UNKNOWN'
    )
      throw e;
    record = await deps.ledger.resolveUnknown(key, { state: 'SETTLED', transaction, at, artefact: attachment });
  }
  return { kind: 'delivered', body: artefact.body, settle: settleBody(record), replay: false, record };
}
