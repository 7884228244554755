/**
 * A log signed by a revoked key (issue 36, review finding 1), browser-safe: one rule for
 * `gspc verify`, the /gspc-verify page and a replica's `POST /api/verify`. A revocation trusts
 * the first `trusted_size` entries of one log, named by their RFC 6962 root (`trusted_root`);
 * whoever holds the revoked key can sign any other log of that size or less under the origin's
 * URL. So a view whose log is signed by a revoked key (the board key in force at its size) must
 * serve exactly the trusted log:
 *
 * - of `trusted_size` entries or more: its first `trusted_size` entries have `trusted_root`
 *   (an issue-30 revocation endorsed by an adoption has none: only the DID's host's log, when at
 *   hand, can say; decision K16), and beyond them the revoked key signs nothing;
 * - of fewer: it is a prefix of the DID's host's log, which only that log can show; without it
 *   the view is not VALID.
 *
 * And a live signature (the board attestation, offers, receipts, the agent card) by a key the
 * anchor knows as revoked is refused whatever the view's size: the key signs only for its thief
 * now (docs/operations.md, "The day a key leaks").
 */
import type { VerifyCrypto } from '../crypto/verify-crypto.js';
import { revocationOf, type Revocation } from './revocation.js';
import { logRootHex } from './tree-roots.js';

export type TrustedLogVerdict = { ok: true; detail?: string } | { ok: false; detail: string };

/** Whether `a` is a prefix of `b` or `b` of `a` (the shorter one's entries begin the longer one). */
export function onePrefixOfOther(a: readonly string[], b: readonly string[]): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return undefined;
}

/**
 * The log of a view whose board key at its size is `boardX`, under `revocations`.
 * `hostEntries`: the DID's host's log entries, when they were read.
 */
export async function checkTrustedLog(
  crypto: VerifyCrypto,
  revocations: readonly Revocation[],
  boardKeyId: string,
  boardX: string | undefined,
  entries: readonly string[],
  hostEntries: readonly string[] | undefined,
): Promise<TrustedLogVerdict> {
  const r = boardX === undefined ? undefined : revocationOf(revocations, boardX);
  if (r === undefined) return { ok: true };
  const size = entries.length;
  // No log (the page's check of an offer or receipt alone): the empty log is every log's prefix.
  if (size === 0) return { ok: true };
  const revoked = `the view's log (${size} entries) is signed by ${boardKeyId} ${boardX}, revoked as compromised since ${r.compromised_since}`;
  if (size > r.trusted_size)
    return { ok: false, detail: `${revoked}, beyond the ${r.trusted_size} entries the revocation trusts` };
  if (hostEntries !== undefined) {
    const at = onePrefixOfOther(entries, hostEntries);
    if (at !== undefined)
      return { ok: false, detail: `${revoked}, and its entry ${at} is not the DID's host's: a fork of the log` };
  }
  if (size === r.trusted_size && r.trusted_root !== undefined) {
    const root = await logRootHex(crypto, entries);
    if (root !== r.trusted_root)
      return {
        ok: false,
        detail: `${revoked}, and its root ${root ?? '(malformed entries)'} is not the trusted log's ${r.trusted_root}: a log the thief signed`,
      };
    return { ok: true, detail: `the log the revocation trusts (${r.trusted_size} entries, root ${r.trusted_root})` };
  }
  if (hostEntries !== undefined)
    return {
      ok: true,
      detail: `a prefix of the DID's host's log, ${r.trusted_size} entries of which the revocation trusts`,
    };
  return {
    ok: false,
    detail:
      r.trusted_root === undefined
        ? `${revoked}; the revocation (issue-30 format) names no trusted root and the DID's host's log could not be read to show this log is its prefix`
        : `${revoked}; with ${size} of the ${r.trusted_size} entries the revocation trusts, only the DID's host's log can show it is their prefix, and it could not be read`,
  };
}

/** The first current key of `liveKeys` (fragment → x) that `revocations` revoke, with its revocation. */
export function revokedLiveKey(
  liveKeys: ReadonlyMap<string, string>,
  revocations: readonly Revocation[],
): { fragment: string; x: string; r: Revocation } | undefined {
  for (const [fragment, x] of liveKeys) {
    const r = revocationOf(revocations, x);
    if (r !== undefined) return { fragment, x, r };
  }
  return undefined;
}
