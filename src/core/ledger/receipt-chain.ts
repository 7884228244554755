/**
 * The append-only receipt chain of the action-job ledger (specification, "Capability fabric":
 * "append-only receipt chain"). Receipt n carries the SHA-256 of receipt n-1's RFC 8785
 * canonical bytes (64 zeros for the first), so changing, removing or reordering any stored
 * receipt breaks a link that {@link verifyReceiptChain} finds and names.
 *
 * What the chain cannot show on its own: a rewrite of the LAST receipt with its hash
 * recomputed, or the removal of the last receipts, leaves a shorter or different but intact
 * chain. The served `head_sha256` and `length` are what an observer compares over time to see
 * that (docs/decisions.md AJ5).
 */
import { createHash } from 'node:crypto';
import { canonicalJsonStrict } from '../crypto/canonical-json.js';
import { ACTION_JOB_RECEIPT_SCHEMA, receiptProblem, type ActionJobReceipt } from './action-jobs-receipt.js';
import { transitionProblem } from './action-jobs-states.js';

/** The prev_sha256 of the first receipt. */
export const GENESIS_SHA256 = '0'.repeat(64);

/** Where the next receipt attaches: the last receipt's seq and hash (seq 0 and genesis when empty). */
export interface ChainHead {
  seq: number;
  sha256: string;
}

export const GENESIS_HEAD: ChainHead = { seq: 0, sha256: GENESIS_SHA256 };

/** A receipt as stored: its canonical text and that text's hash. */
export interface SealedReceipt {
  receipt: ActionJobReceipt;
  /** RFC 8785 canonical JSON of the receipt (UTF-8 when hashed or stored). */
  body: string;
  /** Hex SHA-256 of `body`'s UTF-8 bytes. */
  sha256: string;
}

/** A stored row as the ledger returns it; `seq` and `job_id` are the row's own columns. */
export interface StoredReceiptRow {
  seq: number;
  job_id: string;
  sha256: string;
  body: string;
}

export type ChainState = 'INTACT' | 'BROKEN' | 'EMPTY';

/** The result of checking a chain: expected outcomes are values, never thrown. */
export interface ChainCheck {
  state: ChainState;
  /** The number of stored receipts examined. */
  length: number;
  /** The sha256 recorded on the last stored receipt (what the next one would link to); genesis when empty. */
  head_sha256: string;
  /** How many receipts, from the first, verified (equal to `length` when INTACT). */
  intact_length: number;
  /** The first seq that does not verify; only when BROKEN. */
  broken_at_seq?: number;
  /** What was checked (INTACT, EMPTY) or what failed (BROKEN). */
  reason: string;
}

export interface ChainVerification {
  check: ChainCheck;
  /** The receipts of the intact prefix, in chain order (all of them when INTACT). */
  receipts: ActionJobReceipt[];
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The canonical text and hash of a receipt (the bytes the chain links and the store keeps). */
export function sealReceipt(receipt: ActionJobReceipt): SealedReceipt {
  const body = canonicalJsonStrict(receipt);
  return { receipt, body, sha256: sha256Hex(body) };
}

/** The head a chain of sealed receipts ends at. */
export function headOf(last: { seq: number; sha256: string } | undefined): ChainHead {
  return last === undefined ? GENESIS_HEAD : { seq: last.seq, sha256: last.sha256 };
}

/** The receipt that follows `head`: seq + 1, linked to the head's hash. */
export function nextReceipt(
  head: ChainHead,
  fields: Omit<ActionJobReceipt, 'schema' | 'seq' | 'prev_sha256'>,
): ActionJobReceipt {
  return {
    schema: ACTION_JOB_RECEIPT_SCHEMA,
    seq: head.seq + 1,
    prev_sha256: head.sha256,
    job_id: fields.job_id,
    kind: fields.kind,
    action_id: fields.action_id,
    state: fields.state,
    reason: fields.reason,
    recorded_at: fields.recorded_at,
    recorded_by: fields.recorded_by,
  };
}

/**
 * Checks stored rows (in the order the store returns them, by seq) from the first: each row's
 * seq is the next one (no gap, no reorder); its body hashes to its recorded sha256, is
 * canonical JSON and a well-formed receipt whose seq and job_id agree with the row; its
 * prev_sha256 is the previous receipt's hash (genesis for the first); and its job's history
 * allows it. Stops at the first failure, naming the seq and why.
 */
export function verifyReceiptChain(rows: readonly StoredReceiptRow[]): ChainVerification {
  const receipts: ActionJobReceipt[] = [];
  const byJob = new Map<string, ActionJobReceipt[]>();
  const head_sha256 = rows.length === 0 ? GENESIS_SHA256 : rows[rows.length - 1]!.sha256;
  const broken = (seq: number, reason: string): ChainVerification => ({
    check: {
      state: 'BROKEN',
      length: rows.length,
      head_sha256,
      intact_length: receipts.length,
      broken_at_seq: seq,
      reason: `seq ${seq}: ${reason}`,
    },
    receipts,
  });
  let prev = GENESIS_SHA256;
  for (const [i, row] of rows.entries()) {
    const expected = i + 1;
    if (row.seq !== expected) {
      // Only on a break, so the scan does not cost an intact chain anything.
      const later = rows.some((r) => r.seq === expected);
      return broken(
        expected,
        row.seq > expected && !later
          ? `missing: the next stored receipt is seq ${row.seq} (a gap in the chain)`
          : `out of order: found seq ${row.seq} where seq ${expected} belongs`,
      );
    }
    if (sha256Hex(row.body) !== row.sha256)
      return broken(row.seq, 'the body does not hash to its recorded sha256 (the receipt was changed)');
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.body);
    } catch {
      return broken(row.seq, 'the body is not JSON');
    }
    const problem = receiptProblem(parsed);
    if (problem) return broken(row.seq, `not a receipt: ${problem.field} ${problem.reason}`);
    const receipt = parsed as ActionJobReceipt;
    if (canonicalJsonStrict(receipt) !== row.body) return broken(row.seq, 'the body is not RFC 8785 canonical JSON');
    if (receipt.seq !== row.seq)
      return broken(row.seq, `the body says seq ${receipt.seq}, but it is stored as seq ${row.seq}`);
    if (receipt.job_id !== row.job_id)
      return broken(row.seq, `the body names job ${receipt.job_id}, but it is stored under job ${row.job_id}`);
    if (receipt.prev_sha256 !== prev) {
      return broken(
        row.seq,
        row.seq === 1
          ? 'prev_sha256 of the first receipt is not the genesis value (64 zeros)'
          : `prev_sha256 is not the hash of seq ${row.seq - 1}`,
      );
    }
    const history = byJob.get(receipt.job_id) ?? [];
    const illegal = transitionProblem(history, receipt);
    if (illegal) return broken(row.seq, illegal);
    history.push(receipt);
    byJob.set(receipt.job_id, history);
    receipts.push(receipt);
    prev = row.sha256;
  }
  if (rows.length === 0) {
    return {
      check: { state: 'EMPTY', length: 0, head_sha256, intact_length: 0, reason: 'no receipt has been recorded' },
      receipts,
    };
  }
  return {
    check: {
      state: 'INTACT',
      length: rows.length,
      head_sha256,
      intact_length: rows.length,
      reason: `all ${rows.length} receipts hash to their recorded sha256, link to the previous receipt from genesis, and follow the job states`,
    },
    receipts,
  };
}
