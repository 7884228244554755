/**
 * Verification of an inclusion proof under the public root (duplicate-odd-node tree), with the
 * leaf count taken from the SIGNED root record (transparency.md §2.4). Async over an injected
 * SHA-256 so it runs in a browser; src/core/evidence/merkle/dup-root.ts is the Node-side twin
 * that builds the proofs, and a test checks the two agree.
 */
import { bytesToHex, concat, hexToBytes, type VerifyCrypto } from '../crypto/verify-crypto.js';

export async function verifyDupProof(
  crypto: VerifyCrypto,
  cardSha256: string,
  index: number,
  leafCount: number,
  proofHex: readonly string[],
  rootHex: string,
): Promise<boolean> {
  if (
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(leafCount) ||
    leafCount < 1 ||
    index < 0 ||
    index >= leafCount
  )
    return false;
  const leaf = hexToBytes(cardSha256);
  if (!leaf || leaf.length !== 32) return false;
  const proof = proofHex.map(hexToBytes);
  if (proof.some((p) => !p || p.length !== 32)) return false;
  let r = await crypto.sha256(concat(new Uint8Array([0]), leaf));
  let [w, p, j] = [leafCount, index, 0];
  const node = (a: Uint8Array, b: Uint8Array) => crypto.sha256(concat(new Uint8Array([1]), a, b));
  while (w > 1) {
    if (p % 2 === 1) {
      if (j >= proof.length) return false;
      r = await node(proof[j++]!, r);
    } else if (p + 1 < w) {
      if (j >= proof.length) return false;
      r = await node(r, proof[j++]!);
    } else r = await node(r, r);
    p = Math.floor(p / 2);
    w = Math.floor((w + 1) / 2);
  }
  return j === proof.length && bytesToHex(r) === rootHex;
}
