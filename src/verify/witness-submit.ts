/**
 * Sending a checkpoint to a C2SP tlog-witness (`add-checkpoint`): what `gspc witness --submit`
 * does for the publisher, and `gspc monitor --submit-witness` for a reader who wants a witness
 * to have seen what it verified (gossip: a witness that cosigned a larger tree than the one sent
 * is a fork alarm).
 */
import { formatAddCheckpointRequest } from '../core/evidence/note/witness.js';
import { GspcError } from '../core/errors.js';
import { fetchFailure } from './fetch-failure.js';

/**
 * The log as far as a submission needs it: its size and an RFC 6962 consistency proof from an
 * earlier size. A `MerkleTree` of the entries is one; so is a reader that computes the proof from
 * the log's C2SP tlog-tiles (`consistencyProofFrom` in tile-proofs.ts), which may be async (WN5).
 */
interface ConsistencySource {
  readonly size: number;
  consistencyProof(oldSize: number): Uint8Array[] | Promise<Uint8Array[]>;
}

/**
 * C2SP tlog-witness add-checkpoint: first from the size the witness is assumed to know (0); on
 * 409 the witness answers the size it last cosigned and the request is repeated once with a
 * consistency proof from there. A witness that has cosigned a larger tree than this log is a
 * fork alarm, never retried.
 */
export async function submitCheckpoint(
  witnessUrl: string,
  checkpoint: string,
  tree: ConsistencySource,
): Promise<Buffer> {
  const url = `${witnessUrl.replace(/\/$/, '')}/add-checkpoint`;
  let oldSize = 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    const proof = oldSize > 0 && oldSize < tree.size ? await tree.consistencyProof(oldSize) : [];
    const body = formatAddCheckpointRequest({ oldSize, proof, checkpoint });
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new GspcError(
        'witness_invalid',
        `the witness could not be reached: POST ${url} (the checkpoint of size ${tree.size}) failed: ${fetchFailure(err)}`,
      );
    }
    const text = await res.text();
    if (res.status === 200) return Buffer.from(text, 'utf8');
    if (res.status === 409 && /^(0|[1-9][0-9]*)\n?$/.test(text) && attempt === 0) {
      const known = Number(text.trim());
      if (known > tree.size)
        throw new GspcError(
          'witness_invalid',
          `the witness has cosigned size ${known}, larger than this log (${tree.size}): the log may have forked; investigate before publishing`,
        );
      oldSize = known;
      continue;
    }
    throw new GspcError('witness_invalid', `the witness answered HTTP ${res.status}: ${text.trim().slice(0, 300)}`);
  }
  throw new GspcError('witness_invalid', 'the witness kept answering 409');
}
