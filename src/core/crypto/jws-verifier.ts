/**
 * The offer/receipt verifier for a browser: the same rules, order and reasons as the reference
 * verifier src/core/crypto/receipt-verifier.ts (with parseCompactJws and rawFromJwk), over an
 * injected Ed25519 verify instead of node:crypto and jose, so the /gspc-verify page checks a
 * compact JWS in the reader's own browser. A test runs both verifiers over the same valid,
 * tampered and malformed JWSs and requires the same result and reason.
 *
 * Keys come from one DID document (the page passes this origin's /.well-known/did.json): a kid
 * of that DID is found or not-listed there; a kid naming any other DID is UNVERIFIABLE_KEY, as
 * the page never fetches another origin.
 */
import canonicalize from 'canonicalize';
import type { VerifyCrypto } from './verify-crypto.js';

// The reference verifier's types (receipt-verifier.ts, jws.ts), restated so that the browser
// program does not load those Node modules, even for their types; they are structurally equal.
export interface JwsHeader {
  alg: string;
  kid?: string;
  typ?: string;
  [name: string]: unknown;
}
export type KeyResolution =
  | {
      state: 'found';
      jwk: unknown;
      /**
       * Keys the kid had before (issue 30: the DID document's `#<fragment>~<n>` methods), each with
       * the instant it was retired: a receipt issued before that instant verifies under it.
       */
      retired?: RetiredKey[];
    }
  | { state: 'not-listed'; reason?: string }
  | { state: 'unresolvable'; reason: string };
export interface ReceiptVerification {
  result: 'VALID' | 'INVALID' | 'UNVERIFIABLE_KEY';
  reason: string;
  header?: JwsHeader;
  payload?: unknown;
}

// The reference verifier's constants (jws.ts, receipt-verifier.ts), repeated here because those
// modules load node:crypto; a test checks they are equal.
export const JWS_ALG = 'EdDSA';
export const SIGNATURE_DOES_NOT_VERIFY = 'signature does not verify under the resolved key';
export const KID_NOT_LISTED = 'kid is not listed among verification methods';
const SIGNATURE_LENGTH = 64;
const PUBLIC_KEY_LENGTH = 32;

// ignoreBOM keeps a leading BOM in the text, where JSON.parse refuses it, instead of dropping it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();
const ALPHABET = /^[A-Za-z0-9_-]*$/;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function encodeBase64url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + (i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '');
  }
  return out;
}

/** Strict unpadded base64url (src/core/crypto/base64url.ts): the one canonical encoding, else undefined. */
export function decodeBase64urlStrict(text: string): Uint8Array | undefined {
  if (typeof text !== 'string' || !ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    value = (value << 6) | B64.indexOf(text[i]!);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
    value &= (1 << bits) - 1;
  }
  const bytes = out.subarray(0, at);
  // Non-zero unused trailing bits would make two texts decode to the same bytes.
  return encodeBase64url(bytes) === text ? bytes : undefined;
}

export type ParsedJwsBytes =
  | { ok: true; header: JwsHeader; payload: Uint8Array; signature: Uint8Array; signingInput: Uint8Array }
  | { ok: false; reason: string };

/**
 * Structural checks of a compact JWS, without any key (the one parser: src/core/crypto/jws.ts
 * `parseCompactJws` returns its result as Buffers): three `.`-separated parts, each canonical
 * unpadded base64url; a header that is a UTF-8 JSON object with a string `alg`, no `crit` and no
 * `b64`; a 64-byte signature. A failure is a value with a reason, never a throw.
 */
export function parseCompact(jws: unknown): ParsedJwsBytes {
  if (typeof jws !== 'string') return { ok: false, reason: 'a compact JWS is a string' };
  const parts = jws.split('.');
  if (parts.length !== 3)
    return { ok: false, reason: `a compact JWS has 3 parts separated by '.', this has ${parts.length}` };
  const [h, p, s] = parts as [string, string, string];
  const headerBytes = decodeBase64urlStrict(h);
  const payload = decodeBase64urlStrict(p);
  const signature = decodeBase64urlStrict(s);
  if (headerBytes === undefined || headerBytes.length === 0)
    return { ok: false, reason: 'the protected header is not non-empty unpadded base64url' };
  if (payload === undefined) return { ok: false, reason: 'the payload is not unpadded base64url' };
  if (signature === undefined) return { ok: false, reason: 'the signature is not unpadded base64url' };
  let header: unknown;
  try {
    header = JSON.parse(utf8.decode(headerBytes));
  } catch {
    return { ok: false, reason: 'the protected header is not UTF-8 JSON' };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    return { ok: false, reason: 'the protected header is not a JSON object' };
  const hdr = header as Record<string, unknown>;
  if (typeof hdr.alg !== 'string') return { ok: false, reason: 'the protected header has no alg' };
  if ('crit' in hdr) return { ok: false, reason: 'the protected header has crit, and no extension is supported' };
  if ('b64' in hdr) return { ok: false, reason: 'the protected header has b64, which is not supported' };
  if (signature.length !== SIGNATURE_LENGTH)
    return { ok: false, reason: `an Ed25519 signature is ${SIGNATURE_LENGTH} bytes, this one is ${signature.length}` };
  // The JWS signing input is the ASCII of the first two parts (RFC 7515 §5.2).
  return { ok: true, header: hdr as JwsHeader, payload, signature, signingInput: encoder.encode(`${h}.${p}`) };
}

/** The 32-byte key of an Ed25519 public JWK (no private part, `use` sig, `alg` EdDSA/Ed25519 when given), else undefined. */
export function rawFromJwk(jwk: unknown): Uint8Array | undefined {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return undefined;
  const k = jwk as Record<string, unknown>;
  if (k.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.x !== 'string') return undefined;
  if ('d' in k) return undefined;
  if ('use' in k && k.use !== 'sig') return undefined;
  if ('alg' in k && k.alg !== 'EdDSA' && k.alg !== 'Ed25519') return undefined;
  const raw = decodeBase64urlStrict(k.x);
  return raw !== undefined && raw.length === PUBLIC_KEY_LENGTH ? raw : undefined;
}

type PayloadCheck = { ok: true; value: unknown } | { ok: false; reason: string };

function canonicalPayload(bytes: Uint8Array): PayloadCheck {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return { ok: false, reason: 'the payload is not UTF-8 JSON' };
  }
  let canonical: string | undefined;
  try {
    canonical = canonicalize(value);
  } catch {
    canonical = undefined;
  }
  // JSON.parse accepts escaped lone surrogates, which RFC 8785 cannot serialise.
  if (canonical === undefined) return { ok: false, reason: 'the payload has no RFC 8785 canonical form' };
  const canonicalBytes = encoder.encode(canonical);
  if (canonicalBytes.length !== bytes.length || canonicalBytes.some((b, i) => b !== bytes[i]))
    return { ok: false, reason: 'the payload is not RFC 8785 canonical JSON, so it is not as signed' };
  return { ok: true, value };
}

/** The reference offer/receipt verifier (the order of checks is documented in src/core/crypto/receipt-verifier.ts) over injected Ed25519: node:crypto on the server and in gspc, WebCrypto in the browser. */
export async function verifyCompactJwsWith(
  jws: string,
  resolveKey: (kid: string) => Promise<KeyResolution>,
  crypto: Pick<VerifyCrypto, 'ed25519Verify'>,
): Promise<ReceiptVerification> {
  const parsed = parseCompact(jws);
  if (!parsed.ok) return { result: 'INVALID', reason: parsed.reason };
  const { header } = parsed;
  const invalid = (reason: string): ReceiptVerification => ({ result: 'INVALID', reason, header });

  if (header.alg !== JWS_ALG) return invalid(`alg must be ${JWS_ALG}, got ${JSON.stringify(header.alg.slice(0, 40))}`);
  const kid = header.kid;
  if (typeof kid !== 'string' || kid === '') return invalid('the protected header has no kid');
  // The identity root authorises key changes and signs nothing else (issue 36; card-verifier.ts signsNothing).
  if (/#identity-root(~\d+)?$/.test(kid))
    return invalid(`signed by ${kid}: the identity root authorises key changes and signs nothing else`);
  const payload = canonicalPayload(parsed.payload);
  if (!payload.ok) return invalid(payload.reason);

  let resolution: KeyResolution;
  try {
    resolution = await resolveKey(kid);
  } catch (e) {
    return {
      result: 'UNVERIFIABLE_KEY',
      reason: `key lookup failed: ${e instanceof Error ? e.message : String(e)}`,
      header,
    };
  }
  const state: unknown = resolution?.state;
  if (state === 'not-listed') {
    const why = (resolution as { reason?: unknown }).reason;
    return invalid(typeof why === 'string' ? why : KID_NOT_LISTED);
  }
  if (state === 'unresolvable')
    return {
      result: 'UNVERIFIABLE_KEY',
      reason: `key cannot be resolved: ${String((resolution as { reason?: unknown }).reason)}`,
      header,
    };
  if (state !== 'found') return { result: 'UNVERIFIABLE_KEY', reason: 'key lookup gave no answer', header };
  const raw = rawFromJwk((resolution as { jwk?: unknown }).jwk);
  if (raw === undefined)
    return {
      result: 'UNVERIFIABLE_KEY',
      reason: 'the verification method does not hold an Ed25519 public JWK',
      header,
    };

  if (!(await crypto.ed25519Verify(raw, parsed.signingInput, parsed.signature))) {
    const retired = await underRetiredKey(resolution as { retired?: RetiredKey[] }, parsed, payload.value, crypto);
    if (retired === undefined) return invalid(SIGNATURE_DOES_NOT_VERIFY);
    if (!retired.valid) return invalid(retired.reason);
    return { result: 'VALID', reason: retired.reason, header, payload: payload.value };
  }
  return { result: 'VALID', reason: 'signature verifies under the resolved key', header, payload: payload.value };
}

/** A key the kid had before, the instant it was retired, and when `gspc keys revoke` named it, since when it was compromised. */
type RetiredKey = { id: string; jwk: unknown; until: string; compromisedSince?: string };

/**
 * A receipt signed before its kid's key was rotated (issue 30): it verifies under the key the kid
 * had when it was issued, a retired key whose retirement is at or after the receipt's
 * `issuedAt`. Only a receipt says when it was made; an offer (no `issuedAt`) is never accepted
 * under a retired key (its window is minutes, and the next 402 is signed with the new key).
 * A signature by a revoked key is INVALID whatever it says of its time: a receipt is not an entry
 * of the log, so the log cannot prove it was made before the compromise (src/core/verify/revocation.ts).
 * Undefined when no retired key verifies the signature.
 */
async function underRetiredKey(
  resolution: { retired?: RetiredKey[] },
  parsed: { signingInput: Uint8Array; signature: Uint8Array },
  payload: unknown,
  crypto: Pick<VerifyCrypto, 'ed25519Verify'>,
): Promise<{ valid: boolean; reason: string } | undefined> {
  const issuedAt = (payload as { issuedAt?: unknown } | null)?.issuedAt;
  for (const r of resolution.retired ?? []) {
    const raw = rawFromJwk(r.jwk);
    if (raw === undefined || !(await crypto.ed25519Verify(raw, parsed.signingInput, parsed.signature))) continue;
    if (r.compromisedSince !== undefined)
      return {
        valid: false,
        reason: `revoked: signed by ${r.id}, which was compromised since ${r.compromisedSince}, and an offer or receipt is not an entry of the log, so nothing proves it was signed before then`,
      };
    const until = Date.parse(r.until);
    if (typeof issuedAt !== 'number' || !Number.isFinite(issuedAt) || Number.isNaN(until) || issuedAt * 1000 > until)
      return undefined;
    return {
      valid: true,
      reason: `signature verifies under ${r.id}, the key its kid had when the receipt was issued (retired ${r.until})`,
    };
  }
  return undefined;
}

/**
 * A kid's verification method in a DID document's methods, with the keys it had before: the
 * retired methods (`retired.fragment` is the kid's fragment) listed by did.ts.
 */
export function resolveInMethods(methods: readonly unknown[], kid: string): KeyResolution {
  const list = methods as {
    id?: unknown;
    publicKeyJwk?: unknown;
    retired?: { fragment?: unknown; at?: unknown; revoked?: { compromised_since?: unknown } };
  }[];
  // Two methods of one id are two keys verifiers would pick from differently: refused whole (issue 36).
  const ids = list.map((x) => x?.id).filter((id) => typeof id === 'string');
  const doubled = ids.find((id, i) => ids.indexOf(id) !== i);
  if (doubled !== undefined)
    return { state: 'unresolvable', reason: `the DID document lists the verification method ${String(doubled)} twice` };
  const m = list.find((x) => x?.id === kid);
  if (!m) return { state: 'not-listed' };
  // A retired key (`#<fragment>~<n>`) is reached only through its fragment's kid, with the instant
  // it was retired and any revocation (below): named directly, it would sign past both (issue 36,
  // second review: a revoked key's thief got offers and receipts VALID under `~1`).
  if (m.retired !== undefined || kid.slice(kid.indexOf('#') + 1).includes('~'))
    return {
      state: 'not-listed',
      reason: `${kid} names a retired key: it verifies only what was signed under its fragment's kid before it was retired`,
    };
  const fragment = kid.slice(kid.indexOf('#') + 1);
  const did = kid.slice(0, kid.indexOf('#'));
  const retired = list.flatMap((x) =>
    typeof x?.id === 'string' &&
    x.id.startsWith(`${did}#`) &&
    x.retired?.fragment === fragment &&
    typeof x.retired.at === 'string'
      ? [
          {
            id: x.id,
            jwk: x.publicKeyJwk,
            until: x.retired.at,
            ...(typeof x.retired.revoked?.compromised_since === 'string' && {
              compromisedSince: x.retired.revoked.compromised_since,
            }),
          },
        ]
      : [],
  );
  return retired.length > 0
    ? { state: 'found', jwk: m.publicKeyJwk, retired }
    : { state: 'found', jwk: m.publicKeyJwk };
}

/**
 * Key resolution from one DID document (the page's: this origin's /.well-known/did.json): the
 * same answers as the service's resolver gives for its own DID; another DID is never fetched.
 */
export function didDocumentResolver(doc: unknown): (kid: string) => Promise<KeyResolution> {
  const d = (doc ?? {}) as { id?: unknown; verificationMethod?: unknown };
  const did = typeof d.id === 'string' ? d.id : undefined;
  const methods = Array.isArray(d.verificationMethod)
    ? (d.verificationMethod as { id?: unknown; publicKeyJwk?: unknown }[])
    : [];
  return async (kid) => {
    if (did === undefined) return { state: 'unresolvable', reason: "this origin's DID document could not be read" };
    const hash = kid.indexOf('#');
    const kidDid = hash < 0 ? kid : kid.slice(0, hash);
    if (kidDid !== did)
      return {
        state: 'unresolvable',
        reason: `the kid's DID is not this service's (${did}); this page reads keys only from this origin's DID document`,
      };
    return resolveInMethods(methods, kid);
  };
}
