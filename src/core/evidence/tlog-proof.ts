/**
 * C2SP tlog-proof@v1 (c2sp.org/tlog-proof), the writing side: a card's offline proof of logging
 * is the header line, `index <n>`, the RFC 6962 inclusion path (one base64 hash a line, the
 * leaf's sibling first), an empty line, and the log's checkpoint verbatim as served at
 * /log/checkpoint (the board key's note signature followed by the witness cosignatures recorded
 * for that checkpoint). No `extra` line: a card's leaf is SHA-256(0x00 ‖ card sha256), which the
 * reader computes from the card itself. src/core/verify/tlog-proof.ts reads and checks it.
 */
import { encodeBase64 } from './note/base64.js';

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

/** The spec's path bound: a tree of at most 2^63 leaves has at most 63 levels. */
export const TLOG_PROOF_MAX_PATH = 63;

/**
 * The proof text. `checkpoint` is the signed note exactly as served (it ends with a newline).
 * Throws `RangeError`/`TypeError` on an index that is not a safe non-negative integer, a path
 * hash that is not 32 bytes or too long a path, or a checkpoint that cannot be a signed note:
 * such a proof would not parse, so making one is a bug.
 */
export function formatTlogProof(index: number, path: readonly Uint8Array[], checkpoint: string): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`index must be a safe u64, got ${index}`);
  if (path.length > TLOG_PROOF_MAX_PATH) throw new RangeError(`an inclusion path has at most 63 hashes`);
  for (const h of path)
    if (!(h instanceof Uint8Array) || h.length !== 32) throw new RangeError('a path hash is 32 bytes');
  if (typeof checkpoint !== 'string' || !checkpoint.endsWith('\n') || !checkpoint.includes('\n\n'))
    throw new TypeError('the checkpoint is a signed note (text, blank line, signatures, final newline)');
  return `${TLOG_PROOF_HEADER}\nindex ${index}\n${path.map((h) => `${encodeBase64(h)}\n`).join('')}\n${checkpoint}`;
}
