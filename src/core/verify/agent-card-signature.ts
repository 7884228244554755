/**
 * Agent card signatures (A2A v1.0 §8.4; specification, "Authentication" 4): a detached JWS in
 * the card's `signatures[]` as `{protected, signature}`, over the RFC 8785 form of the card
 * without `signatures`, with a standard base64url payload (not RFC 7797), `alg` EdDSA, `typ`
 * JOSE and `kid` the DID URL of the card key. The card is served with no empty or
 * default-valued field, so this payload equals the SDK's `canonicalizeAgentCard` and the SDK's
 * `verifyAgentCardSignature` accepts it (test/surfaces/a2a-card.test.ts).
 *
 * Only core modules are imported: `verifyAgentCard` is pure and can be moved to src/core when
 * the capability fabric checks the served card.
 */
import { encodeBase64url } from '../crypto/base64url.js';
import { canonicalJsonStrict } from '../crypto/canonical-json.js';
import { verify } from '../crypto/ed25519.js';
import { JWS_ALG, parseCompactJws, signCompactJws } from '../crypto/jws.js';
import type { Signer } from '../evidence/signer.js';
import { keysOfDidDocument, revocationsOfDidDocument, ROOT_SIGNS_NOTHING, signsNothing } from './card-verifier.js';
import { revocationOf, revokedReason, type Revocation } from './revocation.js';

/** The `typ` of a card signature's protected header (A2A v1.0 §8.4.2: SHOULD be "JOSE"). */
export const CARD_JWS_TYP = 'JOSE';

/** One entry of the card's `signatures` (A2A v1.0 `AgentCardSignature`, no unprotected header). */
export interface AgentCardSignature {
  protected: string;
  signature: string;
}

/** The signed bytes: RFC 8785 of the card with `signatures` removed. Throws on non-JSON values. */
export function cardSigningPayload(card: Readonly<Record<string, unknown>>): Buffer {
  const { signatures: _ignored, ...rest } = card;
  return Buffer.from(canonicalJsonStrict(rest), 'utf8');
}

/**
 * Signs `card` (any signatures it carries are replaced) and returns the card with
 * `signatures: [{protected, signature}]`. The protected header is RFC 8785 JSON
 * `{alg:'EdDSA', kid, typ:'JOSE'}`, so the same card and key always give the same bytes.
 */
export function signAgentCard<T extends Record<string, unknown>>(
  card: T,
  signer: Pick<Signer, 'kid' | 'sign'>,
): T & { signatures: AgentCardSignature[] } {
  const { signatures: _old, ...unsigned } = card;
  // signCompactJws serialises the payload with RFC 8785 (cardSigningPayload's bytes); the
  // payload part is then dropped: the JWS is detached.
  const compact = signCompactJws(unsigned, signer, { typ: CARD_JWS_TYP });
  const [protectedHeader, , signature] = compact.split('.') as [string, string, string];
  return { ...(unsigned as T), signatures: [{ protected: protectedHeader, signature }] };
}

/** The outcome of {@link verifyAgentCard}. */
export interface CardCheck {
  ok: boolean;
  detail: string;
}

/**
 * Checks an agent card's signatures against a DID document (the document is trusted by the
 * caller: this never fetches anything). The card verifies when at least one entry (A2A allows
 * several, for key rotation) has `alg` EdDSA, `typ` JOSE and a `kid` that the document lists
 * both as a verification method and under `assertionMethod`, and its Ed25519 signature holds
 * over the RFC 8785 form of the whole card without `signatures`, so a change to any byte of
 * any other field fails. Never throws; `detail` says why.
 */
export function verifyAgentCard(card: unknown, didDocument: unknown): CardCheck {
  if (card === null || typeof card !== 'object' || Array.isArray(card))
    return { ok: false, detail: 'the agent card is not a JSON object' };
  const sigs = (card as { signatures?: unknown }).signatures;
  if (!Array.isArray(sigs) || sigs.length === 0) return { ok: false, detail: 'the agent card has no signatures' };
  let payload: string;
  try {
    payload = encodeBase64url(cardSigningPayload(card as Record<string, unknown>));
  } catch (e) {
    return { ok: false, detail: `the agent card has no RFC 8785 form: ${(e as Error).message}` };
  }
  const keys = keysOfDidDocument(didDocument);
  const asserted = (didDocument as { assertionMethod?: unknown } | null)?.assertionMethod;
  const assertion = new Set(Array.isArray(asserted) ? asserted.filter((x): x is string => typeof x === 'string') : []);
  const revocations = revocationsOfDidDocument(didDocument);
  const failures: string[] = [];
  for (const [i, entry] of sigs.entries()) {
    const outcome = checkEntry(entry, payload, keys, assertion, revocations);
    if (outcome.ok)
      return {
        ok: true,
        detail: `signatures[${i}] verified under ${outcome.kid}${outcome.kid.includes('~') ? ', the key its kid had before a rotation,' : ''} over the RFC 8785 form of the card without signatures`,
      };
    failures.push(`signatures[${i}]: ${outcome.why}`);
  }
  return { ok: false, detail: failures.join('; ') };
}

function checkEntry(
  entry: unknown,
  payload: string,
  keys: ReadonlyMap<string, Uint8Array>,
  assertion: ReadonlySet<string>,
  revocations: readonly Revocation[],
): { ok: true; kid: string } | { ok: false; why: string } {
  const fail = (why: string) => ({ ok: false as const, why });
  const e = entry as { protected?: unknown; signature?: unknown } | null;
  if (typeof e?.protected !== 'string' || typeof e.signature !== 'string')
    return fail('needs string protected and signature members');
  const parsed = parseCompactJws(`${e.protected}.${payload}.${e.signature}`);
  if (!parsed.ok) return fail(parsed.reason);
  const { header, signature } = parsed.jws;
  if (header.alg !== JWS_ALG) return fail(`alg is ${String(header.alg)}, only ${JWS_ALG} is accepted`);
  if (header.typ !== CARD_JWS_TYP) return fail(`typ is ${String(header.typ)}, expected ${CARD_JWS_TYP}`);
  if (typeof header.kid !== 'string') return fail('the protected header has no kid');
  if (signsNothing(header.kid)) return fail(ROOT_SIGNS_NOTHING(header.kid));
  const key = keys.get(header.kid);
  if (!key) return fail(`kid ${header.kid} is not an Ed25519 verification method of the DID document`);
  if (!assertion.has(header.kid)) return fail(`kid ${header.kid} is not listed under assertionMethod`);
  const signed = Buffer.from(`${e.protected}.${payload}`, 'ascii');
  if (verify(key, signed, signature)) return { ok: true, kid: header.kid };
  // A card signed before its kid's key was rotated (issue 30) verifies under the retired key,
  // unless that key was revoked: an agent card is not a log entry, so nothing dates it earlier.
  for (const [id, retired] of keys) {
    if (!id.startsWith(`${header.kid}~`) || !verify(retired, signed, signature)) continue;
    const r = revocationOf(revocations, Buffer.from(retired).toString('base64url'));
    return r === undefined
      ? { ok: true, kid: id }
      : fail(revokedReason(r, id, 'an agent card is not an entry of the log'));
  }
  return fail(`the signature does not verify under ${header.kid}`);
}
