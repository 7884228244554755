/**
 * The value every verifier here returns: a proof that does not verify is an expected outcome,
 * not an exception (src/core convention). Only broken arguments (wrong types, sizes that are
 * not u64) throw.
 */
export type Verdict = { ok: true } | { ok: false; reason: string };

/** The one success value (frozen, shared). */
export const VERIFIED: Verdict = Object.freeze({ ok: true });

/** A failure with its reason. */
export function fail(reason: string): Verdict {
  return { ok: false, reason };
}
