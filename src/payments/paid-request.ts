/**
 * One paid request, exactly once per authorization (ARCHITECTURE §5): look the payment up (a
 * replay gets the stored artefact, never a second settlement) → match it to this resource's
 * terms → the facilitator verifies while (payer, nonce) is reserved atomically and the artefact
 * is produced → the facilitator settles → the outcome is recorded → the artefact is delivered with
 * a signed receipt naming the transaction. Expected outcomes are values; the failures a caller
 * must see as errors (a conflicting payload, a payment still in flight, a facilitator that did not
 * answer) are `GspcError`s with their own codes. Time, keys and the facilitator are passed in.
 */
import { createHash } from 'node:crypto';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { canonicalBytes } from '../core/crypto/canonical-json.js';
import { GspcError } from '../core/errors.js';
import { signReceipt } from '../core/pricing/offer-receipt.js';
import type { SignerState } from '../core/evidence/signer.js';
import type { Ledger, SettlementRecord } from '../store/ledger.js';
import type { Facilitator } from './facilitator.js';
import type { ReadPayment } from './payment-header.js';
import { matchPayment } from './payment-match.js';
import type { RailConfig } from './rail-config.js';

export interface Artefact {
  body: Buffer;
  sha256: string;
}

export interface PaidRequest {
  product_id: string;
  sku_id: string;
  /** Path and query, as recorded in the ledger. */
  resourcePath: string;
  /** Absolute URL: what the offer and the receipt name. */
  resourceUrl: string;
  /** This resource's accepts entry (the terms the payment must match). */
  requirements: PaymentRequirements;
  payment: ReadPayment;
  /** Builds the artefact: pure; called while the facilitator verifies, kept only once the payment is verified and reserved. */
  produce(): Artefact;
}

export interface PaidDeps {
  ledger: Ledger;
  facilitator: Facilitator;
  rail: RailConfig;
  boardKey: SignerState;
  now(): Date;
  /** How long a duplicate waits for the request that holds the reservation (ms). */
  inFlightWaitMs: number;
}

/** The base64 `PAYMENT-RESPONSE` content (x402 v2 SettleResponse). */
export interface SettleResponseBody {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
  errorReason?: string;
  errorMessage?: string;
  extensions?: { 'offer-receipt': { info: { receipt: { format: 'jws'; signature: string } } } };
}

export type PaidOutcome =
  | {
      kind: 'delivered';
      body: Buffer;
      settle: SettleResponseBody;
      replay: boolean;
      /** Null when the chain moved the money but the ledger could not record it (then RESERVED). */
      record: SettlementRecord | null;
    }
  /** The payment does not pay for this resource, or the facilitator refused it: 402 with a fresh challenge. */
  | { kind: 'rejected'; reason: string }
  /** The facilitator answered that settlement failed: 402, nothing delivered, the payer may retry. */
  | { kind: 'settle_failed'; settle: SettleResponseBody };

/** SHA-256 of the part of the payment that moves money (signature + authorization). */
export function paymentDigest(p: ReadPayment): string {
  return createHash('sha256')
    .update(canonicalBytes((p.payload as { payload?: unknown }).payload ?? null))
    .digest('hex');
}

export async function payForArtefact(req: PaidRequest, deps: PaidDeps): Promise<PaidOutcome> {
  const key = { payer: req.payment.payer, nonce: req.payment.nonce };
  const digest = paymentDigest(req.payment);

  // A payment already known: replayed, in flight, awaiting reconcile, or conflicting.
  const known = await deps.ledger.get(key);
  if (known && known.state !== 'FAILED') return settledElsewhere(known, digest, req, deps);

  const matched = matchPayment(req.payment, req.requirements, deps.rail);
  if (!matched.ok) return { kind: 'rejected', reason: matched.reason };
  const payload: PaymentPayload = matched.payload;

  // The facilitator verifies while (payer, nonce) is reserved and the artefact is built: the
  // request is on the wire by the next turn of the event loop, so the reservation's durable
  // commit and the artefact's CPU overlap the facilitator's work instead of following it
  // (decision O10). A payment the facilitator then refuses leaves its reservation FAILED, with
  // the reason: nothing moved, and the payer may send it again.
  const verifying = deps.facilitator.verify(payload, req.requirements);
  verifying.catch(() => undefined); // awaited below, unless the reservation already decides
  await new Promise<void>((resolve) => setImmediate(resolve));
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
    self_funded: deps.rail.selfPayers.includes(key.payer),
    valid_before: req.payment.validBefore,
    at: deps.now().toISOString(),
  });
  // A duplicate holds it (in flight, settled, awaiting reconcile) or another payload does: the
  // verification's answer changes nothing, and is not waited for.
  if (reserved.outcome !== 'reserved') return settledElsewhere(reserved.record, digest, req, deps);
  // Nothing moved: the payer may send the same payment again, which reopens the record.
  const fail = (error: string) => deps.ledger.markFailed(key, { error, at: deps.now().toISOString() });
  let artefact: Artefact | undefined;
  let unproduced: unknown;
  try {
    artefact = req.produce();
  } catch (e) {
    unproduced = e;
  }
  const verified = await verifying.catch(async (e: unknown) => {
    await fail(`the verification failed: ${String(e)}`);
    throw e;
  });
  if (verified.kind === 'unavailable') {
    await fail(`verification unanswered: ${verified.error}`);
    throw new GspcError(
      'facilitator_unavailable',
      `the facilitator did not answer the verification (${verified.error}); nothing was charged, retry later`,
    );
  }
  if (verified.kind === 'invalid') {
    const reason = `the facilitator refused the payment: ${verified.reason}${verified.message ? ` (${verified.message})` : ''}`;
    await fail(reason);
    return { kind: 'rejected', reason };
  }

  // Produced before settling so a settled payment always has its artefact; dropped if it fails.
  if (artefact === undefined) {
    await fail(`the artefact could not be produced: ${(unproduced as Error).message}`);
    throw unproduced;
  }

  const settled = await deps.facilitator.settle(payload, req.requirements);
  const at = deps.now().toISOString();
  switch (settled.kind) {
    case 'failed': {
      await deps.ledger.markFailed(key, {
        error: `${settled.reason}${settled.message ? `: ${settled.message}` : ''}`,
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
    case 'not_sent':
      await deps.ledger.markFailed(key, { error: `facilitator unreachable before settling: ${settled.error}`, at });
      throw new GspcError(
        'facilitator_unavailable',
        `the facilitator could not be reached to settle (${settled.error}); nothing was charged, retry later`,
      );
    case 'unknown':
      await deps.ledger.markUnknown(key, { error: settled.error, at });
      throw new GspcError(
        'settlement_unknown',
        `the facilitator did not confirm the settlement (${settled.error}); the outcome is recorded as unknown and will be reconciled against the chain. Retry the same payment later: it is never charged twice, and once settled the artefact is delivered`,
        { payer: key.payer, nonce: key.nonce },
      );
    case 'settled': {
      const receipt = signedReceipt(req.resourceUrl, key.payer, settled.transaction, req.requirements.network, deps);
      const attachment = { artefact: artefact.body, artefact_sha256: artefact.sha256, receipt };
      let record: SettlementRecord;
      try {
        record = await deps.ledger.markSettled(key, { ...attachment, transaction: settled.transaction, at });
      } catch (e) {
        // The money moved and the ledger cannot record it (a full disk, the database gone): the
        // buyer is not left charged without the artefact. The reservation is durable, so the
        // payment is found RESERVED and `gspc reconcile` settles it from the chain (issue 28).
        if (e instanceof GspcError && e.code === 'ledger_unavailable') {
          return {
            kind: 'delivered',
            body: artefact.body,
            settle: settleBodyOf(key.payer, settled.transaction, req.requirements.network, receipt),
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
        record = await deps.ledger.resolveUnknown(key, {
          state: 'SETTLED',
          transaction: settled.transaction,
          at,
          artefact: attachment,
        });
      }
      return { kind: 'delivered', body: artefact.body, settle: settleBody(record), replay: false, record };
    }
  }
}

/** A payment the ledger already holds: the same payload gets its outcome, another is a conflict. */
async function settledElsewhere(
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
  let r = record;
  // Another request holds the reservation: wait for it rather than settle twice.
  for (const until = Date.now() + deps.inFlightWaitMs; r.state === 'RESERVED' && Date.now() < until; ) {
    await new Promise((res) => setTimeout(res, 25));
    r = (await deps.ledger.get(r))!;
  }
  switch (r.state) {
    case 'SETTLED': {
      if (r.artefact === null) {
        // Settled by reconcile: produce the artefact now and keep it for every later replay.
        const a = req.produce();
        const receipt = r.receipt ?? signedReceipt(req.resourceUrl, r.payer, r.transaction!, r.network, deps);
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
        "this payment's settlement outcome is unknown and awaits reconciliation against the chain; retry later: it is never charged twice",
        { payer: r.payer, nonce: r.nonce },
      );
    case 'RESERVED':
      throw new GspcError(
        'payment_pending',
        'this payment is being settled by another request; retry shortly: it is never charged twice',
        { payer: r.payer, nonce: r.nonce },
      );
  }
}

function signedReceipt(
  resourceUrl: string,
  payer: string,
  transaction: string,
  network: string,
  deps: PaidDeps,
): string | null {
  const k = deps.boardKey;
  if (!k.healthy) return null;
  const issuedAt = Math.floor(deps.now().getTime() / 1000);
  return signReceipt(
    { network, resourceUrl, payer, issuedAt, transaction },
    { kid: k.signer.kid, sign: (m) => k.signer.sign(m) },
  ).signature;
}

function settleBodyOf(payer: string, transaction: string, network: string, receipt: string | null): SettleResponseBody {
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

function settleBody(r: SettlementRecord): SettleResponseBody {
  return settleBodyOf(r.payer, r.transaction!, r.network, r.receipt);
}
