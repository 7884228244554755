/**
 * Browser-safe recomputation of the two trees from all their leaves, async over an injected
 * SHA-256: the public root (duplicate-odd-node tree over the active cards in ascending hex
 * order, transparency.md §2) and the card log (RFC 6962 / RFC 9162 tree, an odd last node
 * promoted). What `gspc verify` does with the Node trees (DupTree, MerkleTree), so the page
 * can show a whole bundle under the signed root without one proof per card. A test checks both
 * functions against the Node trees.
 *
 * Each level's hashes are requested together: WebCrypto runs digests off the main thread, so a
 * level of 5,000 nodes costs far less than 5,000 awaited digests in turn.
 */
import { bytesToHex, hexToBytes, type VerifyCrypto } from '../crypto/verify-crypto.js';

const LEAF = 0x00;
const NODE = 0x01;

/** H(0x00 ‖ card sha256 bytes) per card, or undefined when a hash is not 64 lower-case hex. */
async function leafHashes(crypto: VerifyCrypto, cardHashes: readonly string[]): Promise<Uint8Array[] | undefined> {
  const inputs: Uint8Array[] = [];
  for (const h of cardHashes) {
    const raw = hexToBytes(h);
    if (!raw || raw.length !== 32) return undefined;
    const input = new Uint8Array(33);
    input[0] = LEAF;
    input.set(raw, 1);
    inputs.push(input);
  }
  return Promise.all(inputs.map((b) => crypto.sha256(b)));
}

function node(crypto: VerifyCrypto, left: Uint8Array, right: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(65);
  input[0] = NODE;
  input.set(left, 1);
  input.set(right, 33);
  return crypto.sha256(input);
}

/**
 * The public root's merkle_root (hex) over `cardHashes` as given (the caller passes the active
 * set; they are sorted here, as the root's leaf rule says). No cards: SHA-256 of nothing.
 * Undefined when a hash is malformed.
 */
export async function dupRootHex(crypto: VerifyCrypto, cardHashes: readonly string[]): Promise<string | undefined> {
  let level = await leafHashes(crypto, [...cardHashes].sort());
  if (!level) return undefined;
  if (level.length === 0) return bytesToHex(await crypto.sha256(new Uint8Array(0)));
  while (level.length > 1) {
    const next: Promise<Uint8Array>[] = [];
    for (let j = 0; j < level.length; j += 2) next.push(node(crypto, level[j]!, level[j + 1] ?? level[j]!));
    level = await Promise.all(next);
  }
  return bytesToHex(level[0]!);
}

/**
 * The card log's root (hex) over its entries in log order (RFC 9162 §2.1.1 MTH; bottom-up with
 * a lone last node promoted, which gives the same root). No entries: SHA-256 of nothing.
 * Undefined when an entry is malformed.
 */
export async function logRootHex(crypto: VerifyCrypto, entries: readonly string[]): Promise<string | undefined> {
  let level = await leafHashes(crypto, entries);
  if (!level) return undefined;
  if (level.length === 0) return bytesToHex(await crypto.sha256(new Uint8Array(0)));
  while (level.length > 1) {
    const next: Promise<Uint8Array>[] = [];
    for (let j = 0; j + 1 < level.length; j += 2) next.push(node(crypto, level[j]!, level[j + 1]!));
    const hashed = await Promise.all(next);
    if (level.length % 2 === 1) hashed.push(level[level.length - 1]!);
    level = hashed;
  }
  return bytesToHex(level[0]!);
}
