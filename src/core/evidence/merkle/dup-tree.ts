/**
 * The root v1 tree (`dupRoot`) built once, answering the root and every inclusion proof in
 * O(log n) without hashing: all levels are stored, with an odd last node combined with itself
 * (0x01 ‖ x ‖ x) as the specification's public root requires. Its answers equal `dupRoot` and
 * `dupInclusionProof` over the same leaves (property-tested).
 *
 * Building costs n − 1 node hashes (plus one per odd level) and ~64 bytes per leaf. Returned
 * hashes are views into the tree's storage: treat them as read-only and copy before mutating.
 */
import { StoredTree } from './stored-tree.js';

export class DupTree extends StoredTree {
  constructor(leafHashes: readonly Uint8Array[] | Uint8Array) {
    super(leafHashes, 'duplicate');
  }
}
