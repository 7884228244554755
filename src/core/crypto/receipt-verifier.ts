/**
 * The reference receipt verifier (specification, "States and transitions", "Errors",
 * "Invariants" 4): a compact JWS of an offer or receipt is VALID, INVALID or UNVERIFIABLE_KEY.
 * It does no I/O: the caller resolves the header's `kid` (a DID URL) in the DID document and
 * passes the answer in through `resolveKey`.
 *
 * Order of checks, and why a tampered receipt is INVALID even when its key cannot be resolved:
 * 1. Integrity without a key. The compact form must parse (`parseCompactJws`), `alg` must be
 *    `EdDSA`, `kid` a non-empty string, and the payload must be RFC 8785 canonical JSON: its
 *    bytes must equal the canonical form of their own parse. Receipts are signed over canonical
 *    JSON, so a payload that is not canonical was not produced by a conforming signer; in
 *    practice, editing a receipt by hand or with a JSON tool almost always breaks this. Any
 *    failure here is INVALID before a key is looked up.
 * 2. Key resolution. `not-listed` is INVALID (the kid names no verification method);
 *    `unresolvable`, a resolver that throws, or a listed key that is not an Ed25519 public JWK is
 *    UNVERIFIABLE_KEY.
 * 3. The signature under the resolved key (strict Ed25519 over the JWS signing input): failure is INVALID.
 *
 * Limit: tampering that keeps every check of step 1 (for example a changed value re-serialised
 * canonically, or a changed signature) can only be seen with the key, so with an unresolvable
 * key it gives UNVERIFIABLE_KEY, which is still never VALID.
 */
import { verify } from './ed25519.js';
import {
  verifyCompactJwsWith,
  KID_NOT_LISTED,
  SIGNATURE_DOES_NOT_VERIFY,
  type KeyResolution,
  type ReceiptVerification,
} from './jws-verifier.js';

export type { KeyResolution, ReceiptVerification };
export { KID_NOT_LISTED, SIGNATURE_DOES_NOT_VERIFY };

/**
 * Verifies a compact JWS receipt or offer. Resolves to VALID only when the structure, the
 * canonical payload, the key and the signature all check out. Never rejects for any `jws` (a
 * non-string is INVALID) or any resolver outcome (a throwing or rejecting resolver gives
 * UNVERIFIABLE_KEY). The checks are the ones the in-browser verifier runs
 * (src/core/crypto/jws-verifier.ts), here over node:crypto's strict Ed25519.
 */
export function verifyCompactJws(
  jws: string,
  resolveKey: (kid: string) => Promise<KeyResolution>,
): Promise<ReceiptVerification> {
  return verifyCompactJwsWith(jws, resolveKey, { ed25519Verify: async (pub, msg, sig) => verify(pub, msg, sig) });
}
