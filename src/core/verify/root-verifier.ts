/**
 * Verifies the signed public root record: Ed25519 over the RFC 8785 form of the record without
 * `sig_ed25519` and `unsigned_reason`, under the key its `kid` names in the DID document. The
 * signed record carries `leaf_count`, which every inclusion proof must be read with.
 */
import canonicalize from 'canonicalize';
import { hexToBytes, utf8, type VerifyCrypto } from '../crypto/verify-crypto.js';
import { ROOT_SIGNS_NOTHING, signsNothing } from './card-verifier.js';

export interface RootCheck {
  ok: boolean;
  detail: string;
}

export async function verifyRootRecord(
  record: unknown,
  keys: ReadonlyMap<string, Uint8Array>,
  crypto: VerifyCrypto,
): Promise<RootCheck> {
  if (record === null || typeof record !== 'object' || Array.isArray(record))
    return { ok: false, detail: 'the root is not a JSON object' };
  const r = record as Record<string, unknown>;
  if (typeof r.merkle_root !== 'string' || !Number.isSafeInteger(r.leaf_count) || typeof r.kid !== 'string')
    return { ok: false, detail: 'the root lacks merkle_root, leaf_count or kid' };
  if (typeof r.sig_ed25519 !== 'string')
    return {
      ok: false,
      detail: `the root is unsigned${typeof r.unsigned_reason === 'string' ? `: ${r.unsigned_reason}` : ''}`,
    };
  if (signsNothing(r.kid)) return { ok: false, detail: ROOT_SIGNS_NOTHING(r.kid) };
  const key = keys.get(r.kid);
  if (!key) return { ok: false, detail: `key not in the DID document: ${r.kid}` };
  const { sig_ed25519: _s, unsigned_reason: _u, ...body } = r;
  const sig = hexToBytes(r.sig_ed25519);
  const ok =
    sig !== undefined && sig.length === 64 && (await crypto.ed25519Verify(key, utf8(canonicalize(body) ?? ''), sig));
  return ok
    ? { ok: true, detail: `root signature verified under ${r.kid} (binds leaf_count ${r.leaf_count} with merkle_root)` }
    : { ok: false, detail: 'bad signature: the root does not verify under its key' };
}
