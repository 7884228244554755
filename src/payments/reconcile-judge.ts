/**
 * One record judged by the chain for `gspc reconcile` (reconcile.ts): an UNKNOWN payment is
 * settled, failed or left pending; a FAILED one whose authorization was used after all is
 * reopened and settled. Every entry carries what the chain showed (reconcile-report.ts).
 */
import type { Ledger, SettlementRecord, SettlementState } from '../store/ledger.js';
import type { ChainBlock, ChainReader } from './chain-reader.js';
import type { ChainShowed, ReconcileAction, ReconcileEntry } from './reconcile-report.js';

/**
 * Chain time a validBefore must be behind before an unused authorization counts as expired:
 * a block read as "latest" can still be replaced by a reorganisation, and a replacement could
 * include the pending transfer at a time before validBefore.
 */
export const EXPIRY_MARGIN_SECONDS = 120n;

const EVM_ADDRESS = /^0x[0-9a-f]{40}$/;

/** Unix seconds as ISO 8601, or a plain statement when beyond what a Date can show. */
export function secondsIso(s: bigint): string {
  return s <= 8_640_000_000_000n
    ? new Date(Number(s) * 1000).toISOString()
    : `${s} s after 1970 (beyond any calendar date)`;
}

export interface Judging {
  chain: ChainReader;
  chainId: number;
  fromBlock?: bigint;
  ledger: Pick<Ledger, 'resolveUnknown' | 'reopenUnknown'>;
  at: string;
  entry(
    r: SettlementRecord,
    action: ReconcileAction,
    to: SettlementState,
    detail: string,
    extra?: Partial<ReconcileEntry>,
  ): void;
}

/** Why the chain of this reconcile cannot judge the record, or undefined. */
function unjudgeable(o: Judging, r: SettlementRecord): string | undefined {
  if (r.network !== `eip155:${o.chainId}`)
    return `network ${r.network} is not the RPC's chain eip155:${o.chainId}; reconcile it with an RPC of that network`;
  if (!EVM_ADDRESS.test(r.asset) || !EVM_ADDRESS.test(r.pay_to))
    return `asset ${r.asset} or pay_to ${r.pay_to} is not an EVM address; cannot be checked here`;
  return undefined;
}

/**
 * What the chain shows for a record: state and time from the same block (unused at a block past
 * validBefore means unusable for ever); when used, the transaction that used it, and whether it
 * carries our transfer. The transaction the facilitator named is tried first: it is found
 * without a log search, whatever `fromBlock` is.
 */
async function look(o: Judging, r: SettlementRecord): Promise<{ head: ChainBlock; showed: ChainShowed }> {
  const head = await o.chain.latestBlock();
  const used = await o.chain.authorizationState(r.asset, r.payer, r.nonce, head.number);
  const showed: ChainShowed = {
    block: head.number.toString(),
    block_time: secondsIso(head.timestamp),
    authorization: used ? 'used' : 'unused',
    transaction: null,
    transfer: null,
    valid_before: r.valid_before === null ? null : secondsIso(BigInt(r.valid_before)),
  };
  if (!used) return { head, showed };
  const transfer = { asset: r.asset, from: r.payer, to: r.pay_to, value: r.amount_atomic, nonce: r.nonce };
  if (r.transaction !== null && /^0x[0-9a-f]{64}$/.test(r.transaction)) {
    const named = await o.chain.transferInTransaction(r.transaction, transfer).catch(() => false);
    if (named) return { head, showed: { ...showed, transaction: r.transaction, transfer: true } };
  }
  const fromBlock = o.fromBlock ?? 0n;
  // Nodes refuse a range starting past their head (anvil: BlockOutOfRangeError); it holds no log anyway.
  const tx = fromBlock > head.number ? null : await o.chain.authorizationUsedTx(r.asset, r.payer, r.nonce, fromBlock);
  if (tx === null) return { head, showed };
  return { head, showed: { ...showed, transaction: tx, transfer: await o.chain.transferInTransaction(tx, transfer) } };
}

/** Why a used authorization does not settle the record: no transaction found, or one without our transfer. */
function unpaid(o: Judging, r: SettlementRecord, showed: ChainShowed, left: SettlementState): string {
  return showed.transaction === null
    ? `authorization used, transaction not found: no AuthorizationUsed log from block ${o.fromBlock ?? 0n} (it is earlier, or the payer canceled the authorization); left ${left}`
    : `authorization used in ${showed.transaction}, but that transaction does not use this authorization (its AuthorizationUsed log) with a transfer of ${r.amount_atomic} from the payer to pay_to ${r.pay_to}; left ${left} for an operator`;
}

export async function judgeUnknown(o: Judging, r: SettlementRecord): Promise<void> {
  const cannot = unjudgeable(o, r);
  if (cannot !== undefined) return o.entry(r, 'undecided', r.state, cannot);
  const { head, showed } = await look(o, r);
  const chain = { chain: showed };
  if (showed.authorization === 'used') {
    if (showed.transfer !== true)
      return o.entry(r, 'undecided', r.state, unpaid(o, r, showed, 'UNKNOWN'), {
        ...chain,
        transaction: showed.transaction,
      });
    const tx = showed.transaction!;
    await o.ledger.resolveUnknown(r, { state: 'SETTLED', transaction: tx, at: o.at });
    return o.entry(
      r,
      'settled',
      'SETTLED',
      `settled on chain in ${tx}; the artefact is produced and attached when the buyer replays the same payment`,
      { ...chain, transaction: tx },
    );
  }
  if (r.valid_before === null) {
    return o.entry(
      r,
      'undecided',
      r.state,
      'authorization unused so far, but its validBefore was not recorded (a record from before ledger schema 2): it cannot be shown that it will never be used; left UNKNOWN',
      chain,
    );
  }
  const validBefore = BigInt(r.valid_before);
  const until = secondsIso(validBefore);
  if (head.timestamp >= validBefore + EXPIRY_MARGIN_SECONDS) {
    const why = `authorization expired unused: validBefore ${until} passed and authorizationState is unused at block ${head.number} (${secondsIso(head.timestamp)}); nothing moved`;
    await o.ledger.resolveUnknown(r, { state: 'FAILED', error: why, at: o.at });
    return o.entry(r, 'failed', 'FAILED', why, chain);
  }
  const detail =
    head.timestamp >= validBefore
      ? `authorization unused; validBefore ${until} has just passed: closed once the chain is ${EXPIRY_MARGIN_SECONDS} s past it`
      : `pending until ${until}: the authorization is unused and still valid, so the facilitator's transfer may still land; run reconcile again after that`;
  return o.entry(r, 'pending', r.state, detail, { ...chain, pending_until: until });
}

/**
 * A FAILED record: reported only when its authorization was used. With our transfer it was paid
 * after all (a transfer that landed late, or anyone who held the signed authorization submitted
 * it): FAILED → UNKNOWN → SETTLED, so the buyer's retry gets the artefact.
 */
export async function judgeFailed(o: Judging, r: SettlementRecord): Promise<void> {
  if (unjudgeable(o, r) !== undefined) return;
  const { showed } = await look(o, r);
  if (showed.authorization === 'unused') return;
  const chain = { chain: showed, transaction: showed.transaction };
  if (showed.transfer !== true) return o.entry(r, 'undecided', r.state, unpaid(o, r, showed, 'FAILED'), chain);
  const tx = showed.transaction!;
  await o.ledger.reopenUnknown(r, {
    error: `reconcile: this FAILED payment's authorization was used on chain in ${tx}, with the transfer to pay_to: money moved after all`,
    transaction: tx,
    at: o.at,
  });
  await o.ledger.resolveUnknown(r, { state: 'SETTLED', transaction: tx, at: o.at });
  return o.entry(
    r,
    'settled',
    'SETTLED',
    `FAILED, but settled on chain in ${tx} after all; the artefact is produced and attached when the buyer replays the same payment`,
    chain,
  );
}
