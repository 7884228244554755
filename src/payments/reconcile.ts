/**
 * `gspc reconcile`: closes payments whose outcome the service could not know (ARCHITECTURE §5:
 * a settle that times out is UNKNOWN, not FAILED), by asking the chain. Everything it finds is
 * returned as a report of values; a record is only moved on proof, and each entry says what the
 * chain showed for it (`chain`: the block, whether the authorization was used, by which
 * transaction, whether that transaction carries the transfer):
 *
 * - RESERVED for longer than `staleAfterMs`: the process handling it presumably died mid-payment
 *   → UNKNOWN (money may have moved), then judged like every UNKNOWN below.
 * - UNKNOWN, authorization used, and the transaction that used it (the one the facilitator named,
 *   else its AuthorizationUsed log's) carries the Transfer of the amount from the payer to
 *   pay_to → SETTLED with that transaction hash.
 * - UNKNOWN, authorization unused at a block whose time is past validBefore (plus a margin) → it
 *   can never be used: FAILED "authorization expired unused".
 * - FAILED (issue 37), authorization used on chain after all (a transfer that landed late, or
 *   anyone submitting the signed authorization) with that transfer → UNKNOWN → SETTLED; used
 *   without it → reported, left FAILED. Checked while its authorization can still be used and
 *   for FAILED_LOOKBACK_SECONDS after (every FAILED record with `allFailed`); unused: not reported.
 * - Anything else stays as it is, with the reason: still valid (pending until validBefore); used
 *   but no such transaction found; no validBefore recorded; another network; a chain error.
 *
 * No artefact is produced here: when the buyer replays the same payment, the request flow finds
 * the SETTLED record without one, produces the artefact and attaches it (Ledger.attachArtefact).
 */
import { GspcError } from '../core/errors.js';
import type { Ledger, SettlementRecord, SettlementState } from '../store/ledger.js';
import type { ChainReader } from './chain-reader.js';
import { EXPIRY_MARGIN_SECONDS, judgeFailed, judgeUnknown, secondsIso, type Judging } from './reconcile-judge.js';
import {
  RECONCILE_ACTIONS,
  type ReconcileAction,
  type ReconcileEntry,
  type ReconcileReport,
  REPLAY_NOTE,
} from './reconcile-report.js';

/**
 * How long after its authorization expired a FAILED record is still checked: run reconcile at
 * least this often and every late transfer is found (`--all-failed` checks every FAILED record).
 */
export const FAILED_LOOKBACK_SECONDS = 86_400n;

export interface ReconcileOptions {
  ledger: Ledger;
  chain: ChainReader;
  now: Date;
  /** A RESERVED record untouched for longer is abandoned (keep it well above the facilitator timeout). */
  staleAfterMs: number;
  /** Where the search for AuthorizationUsed logs starts (default 0; providers may cap the range). */
  fromBlock?: bigint;
  /** Check every FAILED record, not only those within FAILED_LOOKBACK_SECONDS of their expiry. */
  allFailed?: boolean;
}

export async function reconcile(o: ReconcileOptions): Promise<ReconcileReport> {
  const at = o.now.toISOString();
  const entries: ReconcileEntry[] = [];
  const entry: Judging['entry'] = (r, action, to, detail, extra = {}) => {
    entries.push({
      action,
      payer: r.payer,
      nonce: r.nonce,
      product_id: r.product_id,
      resource: r.resource,
      amount_atomic: r.amount_atomic,
      network: r.network,
      from: r.state,
      to,
      transaction: null,
      pending_until: null,
      chain: null,
      detail,
      ...extra,
    });
  };

  // 1. Abandoned reservations. updated_at is when the record last entered RESERVED.
  for (const r of await o.ledger.list({ state: 'RESERVED', withArtefacts: false })) {
    const age = o.now.getTime() - Date.parse(r.updated_at);
    if (!(age > o.staleAfterMs)) continue;
    const why = `reservation abandoned: RESERVED since ${r.updated_at} (over ${Math.round(o.staleAfterMs / 1000)} s); the process handling it presumably stopped mid-payment, so money may have moved`;
    await step(r, entry, async () => {
      await o.ledger.markUnknown(r, { error: why, at });
      entry(r, 'abandoned', 'UNKNOWN', why);
    });
  }

  // 2. Every UNKNOWN, then the FAILED records a late transfer may have used, judged by the chain.
  let chainId: number | undefined;
  let chain: ReconcileReport['chain'];
  let headTime = 0n;
  try {
    chainId = await o.chain.chainId();
    const head = await o.chain.latestBlock();
    headTime = head.timestamp;
    chain = {
      chain_id: chainId,
      network: `eip155:${chainId}`,
      block: head.number.toString(),
      block_time: secondsIso(head.timestamp),
    };
  } catch (e) {
    chain = { error: messageOf(e) };
  }
  const judging = (id: number): Judging => ({ ...o, chainId: id, at, entry });
  for (const r of await o.ledger.list({ state: 'UNKNOWN', withArtefacts: false })) {
    if (chainId === undefined) {
      entry(r, 'error', r.state, `not checked: the chain could not be read: ${(chain as { error: string }).error}`);
      continue;
    }
    await step(r, entry, () => judgeUnknown(judging(chainId), r));
  }
  if (chainId !== undefined) {
    for (const r of await o.ledger.list({ state: 'FAILED', withArtefacts: false })) {
      if (!o.allFailed && !withinLookback(r, headTime)) continue;
      await step(r, entry, () => judgeFailed(judging(chainId), r));
    }
  }

  const counts = Object.fromEntries(
    RECONCILE_ACTIONS.map((a) => [a, entries.filter((e) => e.action === a).length]),
  ) as Record<ReconcileAction, number>;
  return { at, chain, entries, counts, note: REPLAY_NOTE };
}

/** A FAILED record whose authorization may still be used, or expired less than the lookback ago. */
function withinLookback(r: SettlementRecord, headTime: bigint): boolean {
  if (r.valid_before === null) return true;
  return BigInt(r.valid_before) + EXPIRY_MARGIN_SECONDS + FAILED_LOOKBACK_SECONDS > headTime;
}

/** Runs one record's step; a failure there is reported for that record and the run goes on. */
async function step(r: SettlementRecord, entry: Judging['entry'], fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof GspcError)) throw e; // a bug, not an outcome
    if (e.code === 'ledger_transition_invalid') {
      // Another process (the live request, or a second reconcile) moved it first: theirs stands.
      return entry(
        r,
        'skipped',
        (e.details?.state as SettlementState | undefined) ?? r.state,
        `moved by another process meanwhile (now ${String(e.details?.state ?? 'changed')})`,
      );
    }
    entry(r, 'error', r.state, messageOf(e));
  }
}

function messageOf(e: unknown): string {
  if (e instanceof GspcError) return e.message;
  throw e;
}
