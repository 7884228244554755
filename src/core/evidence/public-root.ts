/**
 * The public root (`/root.json`, specification "Public root and witnesses"): a Merkle root over
 * the active card hashes (sorted ascending), odd node duplicated as the specification says. The
 * signature covers the RFC 8785 form of the whole record without `sig_ed25519`, so it binds
 * `leaf_count` with `merkle_root`: `[a,b,c]` and `[a,b,c,c]` share a merkle_root but not a
 * signed record. `bound_digest` carries the same binding at hash level for consumers that quote
 * only a digest.
 */
import { canonicalBytesStrict as canonicalBytes } from '../crypto/canonical-json.js';
import { boundRootDigest, dupRoot } from './merkle/dup-root.js';
import { leafHash } from './merkle/rfc6962.js';
import type { SignerState } from './signer.js';

export const ROOT_SCHEMA = 'svc.public-root/1';

export interface RootBody {
  schema: typeof ROOT_SCHEMA;
  tree: string;
  leaves: string;
  merkle_root: string;
  leaf_count: number;
  bound_digest: string;
  as_of: string;
  did_intended: string;
  kid: string;
}

export interface RootRecord extends RootBody {
  sig_ed25519: string | null;
  unsigned_reason?: string;
}

export const ROOT_TREE_RULE =
  'sha256, leaf = H(0x00 || card sha256 bytes), node = H(0x01 || left || right), an odd last node is combined with itself';
export const ROOT_LEAF_RULE =
  'the sha256 of every active card (not withdrawn, not superseded), as raw bytes, in ascending hex order';

/** Leaf hashes of the root, in the documented order. */
export function rootLeaves(cardHashes: readonly string[]): Buffer[] {
  return [...cardHashes].sort().map((h) => Buffer.from(leafHash(Buffer.from(h, 'hex'))));
}

export function buildRoot(cardHashes: readonly string[], asOf: string, did: string, key: SignerState): RootRecord {
  const leaves = rootLeaves(cardHashes);
  const root = Buffer.from(dupRoot(leaves));
  const body: RootBody = {
    schema: ROOT_SCHEMA,
    tree: ROOT_TREE_RULE,
    leaves: ROOT_LEAF_RULE,
    merkle_root: root.toString('hex'),
    leaf_count: leaves.length,
    bound_digest: Buffer.from(boundRootDigest(leaves.length, root)).toString('hex'),
    as_of: asOf,
    did_intended: did,
    kid: key.healthy ? key.signer.kid : key.kid,
  };
  if (!key.healthy) return { ...body, sig_ed25519: null, unsigned_reason: key.reason };
  return { ...body, sig_ed25519: key.signer.sign(canonicalBytes(body)).toString('hex') };
}
