/**
 * The revocation rule (issue 30), one function for every verifier (gspc verify, POST /api/verify,
 * POST /api/receipts/verify, the /gspc-verify page): a signature by a revoked key is INVALID
 * (reason: revoked) unless its content is in the log at a checkpoint made before the instant the
 * key was compromised, that is among the first `trusted_size` entries, or, for a checkpoint,
 * no larger than that. Content the log proves earlier stays valid; that is why the log exists.
 */

/** A key of a fragment that `gspc keys revoke` named, as the verifiers read it. */
export interface Revocation {
  fragment: string;
  /** The revoked key (JWK `x`, base64url). */
  x: string;
  compromised_since: string;
  trusted_size: number;
  /**
   * The RFC 6962 root (hex) of the log's first `trusted_size` entries; absent for an issue-30
   * revocation endorsed by an adoption, which binds only the count (decision K16).
   */
  trusted_root?: string;
  /** The id (log entry) of the revocation record. */
  revocation: string;
}

/** The revocation of key `x`, the strictest one when it was revoked more than once. */
export function revocationOf(revocations: readonly Revocation[] | undefined, x: string): Revocation | undefined {
  let found: Revocation | undefined;
  for (const r of revocations ?? [])
    if (r.x === x && (found === undefined || r.trusted_size < found.trusted_size)) found = r;
  return found;
}

/** Whether the log proves that the content at `leafIndex` (undefined: not in the log) was logged before the compromise. */
export const loggedBeforeCompromise = (r: Revocation, leafIndex: number | undefined): boolean =>
  leafIndex !== undefined && leafIndex < r.trusted_size;

/** The reason a signature by a revoked key is INVALID. */
export function revokedReason(r: Revocation, keyId: string, why: string): string {
  return `revoked: signed by ${keyId}, which was compromised since ${r.compromised_since}, and ${why}`;
}

/** The revocation a DID document's method records (did.ts), in the verifiers' form. */
export function revocationOfMethod(method: unknown): Revocation | undefined {
  const m = method as {
    publicKeyJwk?: { x?: unknown };
    retired?: {
      fragment?: unknown;
      revoked?: { compromised_since?: unknown; trusted_size?: unknown; trusted_root?: unknown; revocation?: unknown };
    };
  } | null;
  const r = m?.retired?.revoked;
  if (
    r === undefined ||
    typeof m?.publicKeyJwk?.x !== 'string' ||
    typeof m.retired?.fragment !== 'string' ||
    typeof r.compromised_since !== 'string' ||
    !Number.isInteger(r.trusted_size) ||
    typeof r.revocation !== 'string'
  )
    return undefined;
  return {
    fragment: m.retired.fragment,
    x: m.publicKeyJwk.x,
    compromised_since: r.compromised_since,
    trusted_size: r.trusted_size as number,
    ...(typeof r.trusted_root === 'string' && { trusted_root: r.trusted_root }),
    revocation: r.revocation,
  };
}
