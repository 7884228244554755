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
 *
 * `verifyOfferOrReceipt` (issue 37) adds what a relying party means by VALID: the JWS is the kind
 * it expects (an offer posted as a receipt is INVALID) and covers the expected resource and
 * amount. `verifyCompactJws` stays the bare signature check the browser verifier mirrors.
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

export { kindOf, type SignedKind } from './offer-receipt-kind.js';
import { kindOf, type SignedKind } from './offer-receipt-kind.js';

/** What a relying party holds the JWS to be, and (optionally) what it must cover. */
export interface Expectation {
  /** Default 'receipt': an offer proves no payment, so it is never VALID as a receipt. */
  kind?: 'offer' | 'receipt';
  /** The absolute URL of the resource it must name (`resourceUrl`). */
  resourceUrl?: string;
  /** The amount in atomic units (decimal) it must state. */
  amount?: string;
  /**
   * This service's own DID. A JWS signed by any other DID (a partner the operator trusts,
   * GSPC_TRUSTED_DID_HOSTS) must name a resource on that DID's own did:web host: a partner cannot
   * sign receipts for this service's URLs, or any URL but its own (issue 37 review).
   */
  ownDid?: string;
}

/** The host (with port) a did:web names, lowercased; undefined for another DID method. */
function didWebHost(did: string): string | undefined {
  if (!did.startsWith('did:web:')) return undefined;
  const first = did.slice('did:web:'.length).split(':')[0]!;
  try {
    return decodeURIComponent(first).toLowerCase();
  } catch {
    return undefined;
  }
}

function urlHost(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

export type CheckedVerification = ReceiptVerification & { kind?: SignedKind };

/**
 * `verifyCompactJws`, then what the signature covers: VALID only when the JWS is the kind
 * expected and names the expected resource and amount. A receipt that states no amount (issued
 * before receipts did) cannot be shown to cover one, so an expected amount makes it INVALID.
 * `kind` is given whenever the signature verified; the payload only when the answer is VALID.
 */
export async function verifyOfferOrReceipt(
  jws: string,
  resolveKey: (kid: string) => Promise<KeyResolution>,
  expected: Expectation = {},
): Promise<CheckedVerification> {
  const v = await verifyCompactJws(jws, resolveKey);
  if (v.result !== 'VALID') return v;
  const kind = kindOf(v.payload);
  const want = expected.kind ?? 'receipt';
  const refuse = (reason: string): CheckedVerification => ({
    result: 'INVALID',
    reason: `the signature verifies, but ${reason}`,
    ...(v.header && { header: v.header }),
    kind,
  });
  if (kind === 'unknown') return refuse('the payload is neither an offer nor a receipt of the offer-receipt extension');
  if (kind !== want)
    return refuse(
      kind === 'offer'
        ? 'this is an offer, not a receipt: an offer states the terms before payment and proves no payment'
        : 'this is a receipt, not an offer',
    );
  const p = v.payload as { resourceUrl?: unknown; amount?: unknown };
  const signer = (v.header?.kid ?? '').split('#')[0]!;
  if (expected.ownDid !== undefined && signer !== expected.ownDid) {
    const host = didWebHost(signer);
    if (host === undefined || urlHost(p.resourceUrl) !== host)
      return refuse(
        `the ${kind} is signed by ${signer}, which signs only for its own host${host ? ` (${host})` : ''}, and names ${JSON.stringify(p.resourceUrl)}: a service's key does not vouch for another's resources`,
      );
  }
  if (expected.resourceUrl !== undefined && p.resourceUrl !== expected.resourceUrl)
    return refuse(`the ${kind} covers ${JSON.stringify(p.resourceUrl)}, not ${JSON.stringify(expected.resourceUrl)}`);
  if (expected.amount !== undefined) {
    if (typeof p.amount !== 'string')
      return refuse(`the ${kind} states no amount, so it cannot be shown to cover ${expected.amount}`);
    if (p.amount !== expected.amount)
      return refuse(`the ${kind} states an amount of ${p.amount}, not ${expected.amount}`);
  }
  return { ...v, kind };
}
