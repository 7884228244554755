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
 * 3. The signature under the resolved key (jose, `alg` pinned): failure is INVALID.
 *
 * Limit: tampering that keeps every check of step 1 (for example a changed value re-serialised
 * canonically, or a changed signature) can only be seen with the key, so with an unresolvable
 * key it gives UNVERIFIABLE_KEY, which is still never VALID.
 */
import { canonicalJson } from './canonical-json.js';
import { SIGNATURE_DOES_NOT_VERIFY, JWS_ALG, parseCompactJws, verifyJwsSignature, type JwsHeader } from './jws.js';
import { rawFromJwk } from './jwk.js';

/** What the caller found for a kid in the DID document. */
export type KeyResolution =
  /** A verification method with this id exists; `jwk` is its `publicKeyJwk` (checked here). */
  | { state: 'found'; jwk: unknown }
  /** The DID document was read and lists no verification method with this id. */
  | { state: 'not-listed' }
  /** The DID document could not be fetched or read, or the kid names another DID. */
  | { state: 'unresolvable'; reason: string };

export type ReceiptVerdict = 'VALID' | 'INVALID' | 'UNVERIFIABLE_KEY';

export interface ReceiptVerification {
  result: ReceiptVerdict;
  reason: string;
  /** The protected header, whenever it parsed as a JSON object (even when INVALID). */
  header?: JwsHeader;
  /** The payload, parsed, only when `result` is VALID, so an unverified claim is never returned as data. */
  payload?: unknown;
}

/** Reason for a kid with no verification method (specification, "Errors"). */
export const KID_NOT_LISTED = 'kid is not listed among verification methods';
export { SIGNATURE_DOES_NOT_VERIFY };

// ignoreBOM keeps a leading BOM in the text, where JSON.parse refuses it, instead of dropping it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Verifies a compact JWS receipt or offer. Resolves to VALID only when the structure, the
 * canonical payload, the key and the signature all check out. Never rejects for any `jws` (a
 * non-string is INVALID) or any resolver outcome (a throwing or rejecting resolver gives
 * UNVERIFIABLE_KEY); only a fault of the runtime's crypto, which says nothing about the
 * receipt, propagates (see `verifyJwsSignature`).
 */
export async function verifyCompactJws(jws: string, resolveKey: (kid: string) => Promise<KeyResolution>): Promise<ReceiptVerification> {
  const parsed = parseCompactJws(jws);
  if (!parsed.ok) return { result: 'INVALID', reason: parsed.reason };
  const { header, payload: payloadBytes } = parsed.jws;
  const invalid = (reason: string): ReceiptVerification => ({ result: 'INVALID', reason, header });

  // The alg is the sender's text: quoted and cut short so a reason stays one readable line.
  if (header.alg !== JWS_ALG) return invalid(`alg must be ${JWS_ALG}, got ${JSON.stringify(header.alg.slice(0, 40))}`);
  const kid = header.kid;
  if (typeof kid !== 'string' || kid === '') return invalid('the protected header has no kid');
  const payload = canonicalPayload(payloadBytes);
  if (!payload.ok) return invalid(payload.reason);

  let resolution: KeyResolution;
  try {
    resolution = await resolveKey(kid);
  } catch (e) {
    return { result: 'UNVERIFIABLE_KEY', reason: `key lookup failed: ${e instanceof Error ? e.message : String(e)}`, header };
  }
  const state: unknown = resolution?.state;
  if (state === 'not-listed') return invalid(KID_NOT_LISTED);
  if (state === 'unresolvable') return { result: 'UNVERIFIABLE_KEY', reason: `key cannot be resolved: ${String((resolution as { reason?: unknown }).reason)}`, header };
  if (state !== 'found') return { result: 'UNVERIFIABLE_KEY', reason: 'key lookup gave no answer', header };
  const raw = rawFromJwk((resolution as { jwk?: unknown }).jwk);
  if (raw === undefined) return { result: 'UNVERIFIABLE_KEY', reason: 'the verification method does not hold an Ed25519 public JWK', header };

  const check = await verifyJwsSignature(jws, raw);
  if (!check.ok) return invalid(check.reason);
  return { result: 'VALID', reason: 'signature verifies under the resolved key', header, payload: payload.value };
}

type PayloadCheck = { ok: true; value: unknown } | { ok: false; reason: string };

/** The payload parsed, if its bytes are exactly the RFC 8785 form of their own parse. */
function canonicalPayload(bytes: Buffer): PayloadCheck {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return { ok: false, reason: 'the payload is not UTF-8 JSON' };
  }
  let canonical: string;
  try {
    canonical = canonicalJson(value);
  } catch {
    // JSON.parse accepts escaped lone surrogates, which RFC 8785 cannot serialise.
    return { ok: false, reason: 'the payload has no RFC 8785 canonical form' };
  }
  if (!Buffer.from(canonical, 'utf8').equals(bytes)) return { ok: false, reason: 'the payload is not RFC 8785 canonical JSON, so it is not as signed' };
  return { ok: true, value };
}
