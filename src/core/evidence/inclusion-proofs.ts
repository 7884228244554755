/**
 * The two inclusion proofs the service publishes for an active card: under the signed public
 * root (`/cards/<id>.proof.json`, `svc.card-inclusion-proof/1`, duplicate-last-node tree) with,
 * inside it, the card's inclusion in the append-only card log (RFC 6962). One builder for the
 * server, which serves them, and for `gspc verify`, which rebuilds them from the signed root and
 * the log's entries and compares the served bytes with the rebuilt ones.
 */

export const CARD_PROOF_SCHEMA = 'svc.card-inclusion-proof/1';

const VERIFY_RULE =
  'leaf = SHA-256(0x00 || card sha256 bytes); walk up with node = SHA-256(0x01 || left || right), a lone last node combined with itself (consumes no proof element); compare with merkle_root and the signed leaf_count of /root.json';

export interface LogInclusion {
  origin: string;
  tree_size: number;
  root_hash: string;
  leaf_index: number;
  proof: string[];
  checkpoint_url: '/log/checkpoint';
}

export function logInclusion(
  origin: string,
  treeSize: number,
  rootHash: string,
  leafIndex: number,
  proof: string[],
): LogInclusion {
  return {
    origin,
    tree_size: treeSize,
    root_hash: rootHash,
    leaf_index: leafIndex,
    proof,
    checkpoint_url: '/log/checkpoint',
  };
}

export function cardInclusionProof(
  sha256: string,
  leafIndex: number,
  root: { leaf_count: number; merkle_root: string },
  proof: string[],
  log: LogInclusion | null,
) {
  return {
    schema: CARD_PROOF_SCHEMA,
    sha256,
    leaf_index: leafIndex,
    leaf_count: root.leaf_count,
    merkle_root: root.merkle_root,
    root_url: '/root.json',
    proof,
    verify: VERIFY_RULE,
    log,
  };
}
