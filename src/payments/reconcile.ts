/**
 * `gspc reconcile`: closes payments whose outcome the service could not know (ARCHITECTURE §5:
 * a settle that times out is UNKNOWN, not FAILED), by asking the chain. Everything it finds is
 * returned as a report of values; a record is only moved on proof:
 *
 * - RESERVED for longer than `staleAfterMs`: the process handling it presumably died mid-payment
 *   → UNKNOWN (money may have moved), then judged like every UNKNOWN below.
 * - UNKNOWN, authorization used, its AuthorizationUsed transaction also carries the Transfer of
 *   the amount from the payer to pay_to → SETTLED with that transaction hash.
 * - UNKNOWN, authorization unused at a block whose time is past validBefore (plus a margin) → it
 *   can never be used: FAILED "authorization expired unused".
 * - Anything else stays UNKNOWN with the reason: still valid (pending until validBefore); used
 *   but no such transaction found; no validBefore recorded; another network; a chain error.
 *
 * No artefact is produced here: when the buyer replays the same payment, the request flow finds
 * the SETTLED record without one, produces the artefact and attaches it (Ledger.attachArtefact).
 */
import { GspcError } from '../core/errors.js';
import type { Ledger, SettlementRecord, SettlementState } from '../store/ledger.js';
import type { ChainReader } from './chain-reader.js';

/**
 * Chain time a validBefore must be behind before an unused authorization counts as expired:
 * a block read as "latest" can still be replaced by a reorganisation, and a replacement could
 * include the pending transfer at a time before validBefore.
 */
export const EXPIRY_MARGIN_SECONDS = 120n;

export type ReconcileAction =
  /** RESERVED → UNKNOWN: the reservation outlived `staleAfterMs`. */
  | 'abandoned'
  /** UNKNOWN → SETTLED: the transfer is on chain. */
  | 'settled'
  /** UNKNOWN → FAILED: the authorization expired unused. */
  | 'failed'
  /** Stays UNKNOWN: unused, but still valid; run reconcile again after `pending_until`. */
  | 'pending'
  /** Stays UNKNOWN: the chain does not decide it (the detail says why); an operator must look. */
  | 'undecided'
  /** Not moved: another process moved the record first. */
  | 'skipped'
  /** Not moved: the chain or the ledger failed for this record; try again. */
  | 'error';

export const RECONCILE_ACTIONS: readonly ReconcileAction[] = [
  'abandoned',
  'settled',
  'failed',
  'pending',
  'undecided',
  'skipped',
  'error',
];

export interface ReconcileEntry {
  action: ReconcileAction;
  payer: string;
  nonce: string;
  product_id: string;
  resource: string;
  amount_atomic: string;
  network: string;
  /** The record's state before and after this step. */
  from: SettlementState;
  to: SettlementState;
  /** The settling transaction, when one was found. */
  transaction: string | null;
  /** ISO time of validBefore, for 'pending'. */
  pending_until: string | null;
  detail: string;
}

export interface ReconcileReport {
  at: string;
  /** What the chain said at the start (or why it could not be read). */
  chain: { chain_id: number; network: string; block: string; block_time: string } | { error: string };
  entries: ReconcileEntry[];
  counts: Record<ReconcileAction, number>;
  note: string;
}

export interface ReconcileOptions {
  ledger: Ledger;
  chain: ChainReader;
  now: Date;
  /** A RESERVED record untouched for longer is abandoned (keep it well above the facilitator timeout). */
  staleAfterMs: number;
  /** Where the search for AuthorizationUsed logs starts (default 0; providers may cap the range). */
  fromBlock?: bigint;
}

export const REPLAY_NOTE =
  'SETTLED records resolved here carry no artefact yet: when the buyer replays the same payment, the service produces the artefact and attaches it, without a second charge.';

const EVM_ADDRESS = /^0x[0-9a-f]{40}$/;

/** Unix seconds as ISO 8601, or a plain statement when beyond what a Date can show. */
export function secondsIso(s: bigint): string {
  return s <= 8_640_000_000_000n
    ? new Date(Number(s) * 1000).toISOString()
    : `${s} s after 1970 (beyond any calendar date)`;
}

export async function reconcile(o: ReconcileOptions): Promise<ReconcileReport> {
  const at = o.now.toISOString();
  const entries: ReconcileEntry[] = [];
  const entry = (
    r: SettlementRecord,
    action: ReconcileAction,
    to: SettlementState,
    detail: string,
    extra: Partial<ReconcileEntry> = {},
  ): void => {
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

  // 2. Every UNKNOWN, judged by the chain.
  let chainId: number | undefined;
  let chain: ReconcileReport['chain'];
  try {
    chainId = await o.chain.chainId();
    const head = await o.chain.latestBlock();
    chain = {
      chain_id: chainId,
      network: `eip155:${chainId}`,
      block: head.number.toString(),
      block_time: secondsIso(head.timestamp),
    };
  } catch (e) {
    chain = { error: messageOf(e) };
  }
  for (const r of await o.ledger.list({ state: 'UNKNOWN', withArtefacts: false })) {
    if (chainId === undefined) {
      entry(r, 'error', r.state, `not checked: the chain could not be read: ${(chain as { error: string }).error}`);
      continue;
    }
    await step(r, entry, () => judge(o, r, chainId!, at, entry));
  }

  const counts = Object.fromEntries(
    RECONCILE_ACTIONS.map((a) => [a, entries.filter((e) => e.action === a).length]),
  ) as Record<ReconcileAction, number>;
  return { at, chain, entries, counts, note: REPLAY_NOTE };
}

type Entry = (
  r: SettlementRecord,
  action: ReconcileAction,
  to: SettlementState,
  detail: string,
  extra?: Partial<ReconcileEntry>,
) => void;

async function judge(
  o: ReconcileOptions,
  r: SettlementRecord,
  chainId: number,
  at: string,
  entry: Entry,
): Promise<void> {
  if (r.network !== `eip155:${chainId}`) {
    return entry(
      r,
      'undecided',
      r.state,
      `network ${r.network} is not the RPC's chain eip155:${chainId}; reconcile it with an RPC of that network`,
    );
  }
  if (!EVM_ADDRESS.test(r.asset) || !EVM_ADDRESS.test(r.pay_to)) {
    return entry(
      r,
      'undecided',
      r.state,
      `asset ${r.asset} or pay_to ${r.pay_to} is not an EVM address; cannot be checked here`,
    );
  }
  // State and time from the same block: unused at a block past validBefore means unusable for ever.
  const head = await o.chain.latestBlock();
  const used = await o.chain.authorizationState(r.asset, r.payer, r.nonce, head.number);
  if (used) {
    const fromBlock = o.fromBlock ?? 0n;
    // Nodes refuse a range starting past their head (anvil: BlockOutOfRangeError); it holds no log anyway.
    const tx = fromBlock > head.number ? null : await o.chain.authorizationUsedTx(r.asset, r.payer, r.nonce, fromBlock);
    if (tx === null) {
      return entry(
        r,
        'undecided',
        r.state,
        `authorization used, transaction not found: no AuthorizationUsed log from block ${fromBlock} (it is earlier, or the payer canceled the authorization); left UNKNOWN`,
      );
    }
    const paid = await o.chain.transferInTransaction(tx, {
      asset: r.asset,
      from: r.payer,
      to: r.pay_to,
      value: r.amount_atomic,
    });
    if (!paid) {
      return entry(
        r,
        'undecided',
        r.state,
        `authorization used in ${tx}, but that transaction has no transfer of ${r.amount_atomic} from the payer to pay_to ${r.pay_to}; left UNKNOWN for an operator`,
        { transaction: tx },
      );
    }
    await o.ledger.resolveUnknown(r, { state: 'SETTLED', transaction: tx, at });
    return entry(
      r,
      'settled',
      'SETTLED',
      `settled on chain in ${tx}; the artefact is produced and attached when the buyer replays the same payment`,
      { transaction: tx },
    );
  }
  if (r.valid_before === null) {
    return entry(
      r,
      'undecided',
      r.state,
      'authorization unused so far, but its validBefore was not recorded (a record from before ledger schema 2): it cannot be shown that it will never be used; left UNKNOWN',
    );
  }
  const validBefore = BigInt(r.valid_before);
  const until = secondsIso(validBefore);
  if (head.timestamp >= validBefore + EXPIRY_MARGIN_SECONDS) {
    const why = `authorization expired unused: validBefore ${until} passed and authorizationState is unused at block ${head.number} (${secondsIso(head.timestamp)}); nothing moved`;
    await o.ledger.resolveUnknown(r, { state: 'FAILED', error: why, at });
    return entry(r, 'failed', 'FAILED', why);
  }
  const detail =
    head.timestamp >= validBefore
      ? `authorization unused; validBefore ${until} has just passed: closed once the chain is ${EXPIRY_MARGIN_SECONDS} s past it`
      : `pending until ${until}: the authorization is unused and still valid, so the facilitator's transfer may still land; run reconcile again after that`;
  return entry(r, 'pending', r.state, detail, { pending_until: until });
}

/** Runs one record's step; a failure there is reported for that record and the run goes on. */
async function step(r: SettlementRecord, entry: Entry, fn: () => Promise<void>): Promise<void> {
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
