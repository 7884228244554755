/**
 * Merkle trees for evidence: RFC 6962/9162 (the log shape C2SP witnesses can cosign) and root
 * v1 (the specification's public root, odd node duplicated, n bound by `boundRootDigest`).
 */
export { EMPTY_ROOT, leafHash, nodeHash } from './hash.js';
export { consistencyProof, inclusionProof, rootOf } from './rfc6962.js';
export { verifyConsistency, verifyInclusion } from './rfc6962-verify.js';
export { MerkleTree } from './merkle-tree.js';
export {
  boundRootDigest,
  dupInclusionProof,
  dupRoot,
  verifyBoundDupInclusion,
  verifyDupInclusion,
} from './dup-root.js';
export { DupTree } from './dup-tree.js';
