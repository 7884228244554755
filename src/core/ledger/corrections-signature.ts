/**
 * The ledger signature (`corrections/signature.json`): the board signer's Ed25519 signature over
 * the RFC 8785 form of `{schema, ledger_sha256, entries: [{id, sha256}] by id, signed_at}`, which
 * binds the exact bytes of ledger.json and of every entry file. Specification, "Corrections
 * ledger": a ledger signature reads stale after any edit until re-issued.
 *
 * The served state is one of CURRENT (verifies under the board key of the DID document and covers
 * exactly the served files), STALE (verifies, but files were added, changed or removed since),
 * UNSIGNED (no signature, or the key was unhealthy when signing) and INVALID (does not verify, or
 * names a key that is not the board key of the DID document).
 */
import { canonicalBytesStrict } from '../crypto/canonical-json.js';
import { verify } from '../crypto/ed25519.js';
import type { SignerState } from '../evidence/signer.js';

export const CORRECTIONS_SIGNATURE_SCHEMA = 'svc.corrections-signature/0.1';

/** What the ledger signature covers: the SHA-256 of each file's bytes. */
export interface LedgerDigest {
  ledger_sha256: string;
  entries: { id: string; sha256: string }[];
}

export interface CorrectionsSignaturePayload extends LedgerDigest {
  schema: typeof CORRECTIONS_SIGNATURE_SCHEMA;
  signed_at: string;
}

export interface CorrectionsSignatureFile extends CorrectionsSignaturePayload {
  kid: string;
  sig_ed25519: string | null;
  /** Present exactly when `sig_ed25519` is null. */
  unsigned_reason?: string;
}

export type SignatureState = 'CURRENT' | 'STALE' | 'UNSIGNED' | 'INVALID';

export interface SignatureStatus {
  state: SignatureState;
  kid: string | null;
  signed_at: string | null;
  reason: string;
  /** What differs from what was signed (STALE only). */
  changed?: { ledger_json: boolean; added: string[]; changed: string[]; removed: string[] };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The payload for `digest` signed at `signedAt` (ISO 8601 UTC); entries sorted by id. */
export function signaturePayload(digest: LedgerDigest, signedAt: string): CorrectionsSignaturePayload {
  return {
    schema: CORRECTIONS_SIGNATURE_SCHEMA,
    ledger_sha256: digest.ledger_sha256,
    entries: digest.entries.map((e) => ({ id: e.id, sha256: e.sha256 })).sort(byId),
    signed_at: signedAt,
  };
}

/** The signed bytes: RFC 8785 of the payload fields only (kid and signature are outside). */
export function signaturePreimage(p: CorrectionsSignaturePayload): Buffer {
  return canonicalBytesStrict({
    schema: p.schema,
    ledger_sha256: p.ledger_sha256,
    entries: p.entries.map((e) => ({ id: e.id, sha256: e.sha256 })),
    signed_at: p.signed_at,
  });
}

/** Signs the payload; an unhealthy key gives a null signature and its reason (fail closed). */
export function sealCorrectionsSignature(
  payload: CorrectionsSignaturePayload,
  key: SignerState,
): CorrectionsSignatureFile {
  if (!key.healthy) return { ...payload, kid: key.kid, sig_ed25519: null, unsigned_reason: key.reason };
  return { ...payload, kid: key.signer.kid, sig_ed25519: key.signer.sign(signaturePreimage(payload)).toString('hex') };
}

/**
 * The state of `file` for the ledger as served (`current`). `keys` are the verification methods
 * of the DID document by kid; `boardKid` is the board signer's kid, the only key that signs the
 * ledger. A signature is checked before freshness: a tampered one is INVALID, never STALE.
 */
export function signatureStatus(
  file: CorrectionsSignatureFile | undefined,
  current: LedgerDigest,
  keys: ReadonlyMap<string, Uint8Array>,
  boardKid: string,
): SignatureStatus {
  if (file === undefined)
    return {
      state: 'UNSIGNED',
      kid: null,
      signed_at: null,
      reason: 'no corrections/signature.json in this release (the operator signs with gspc corrections sign)',
    };
  const head = { kid: file.kid, signed_at: file.signed_at };
  if (file.sig_ed25519 === null)
    return { state: 'UNSIGNED', ...head, reason: file.unsigned_reason ?? 'the signature file holds no signature' };
  if (file.kid !== boardKid)
    return { state: 'INVALID', ...head, reason: `signed under ${file.kid}, which is not the board key ${boardKid}` };
  const key = keys.get(file.kid);
  if (key === undefined)
    return {
      state: 'INVALID',
      ...head,
      reason: `${file.kid} is not listed among the verification methods of the DID document`,
    };
  if (!verify(key, signaturePreimage(file), Buffer.from(file.sig_ed25519, 'hex'))) {
    return { state: 'INVALID', ...head, reason: 'the signature does not verify under the resolved key' };
  }
  const signed = new Map(file.entries.map((e) => [e.id, e.sha256]));
  const now = new Map(current.entries.map((e) => [e.id, e.sha256]));
  const added = [...now.keys()].filter((id) => !signed.has(id)).sort();
  const removed = [...signed.keys()].filter((id) => !now.has(id)).sort();
  const changed = [...now]
    .filter(([id, sha]) => signed.has(id) && signed.get(id) !== sha)
    .map(([id]) => id)
    .sort();
  const ledgerJson = file.ledger_sha256 !== current.ledger_sha256;
  if (!ledgerJson && added.length + removed.length + changed.length === 0) {
    return {
      state: 'CURRENT',
      ...head,
      reason: `verifies under ${file.kid} from the DID document and covers ledger.json and every entry as served`,
    };
  }
  return {
    state: 'STALE',
    ...head,
    reason: `verifies under ${file.kid}, but the ledger changed after signed_at; it reads stale until re-issued (gspc corrections sign)`,
    changed: { ledger_json: ledgerJson, added, changed, removed },
  };
}
