/** Browser-safe (no node:crypto): the /gspc-verify page names the kind of a JWS it verified. */
/**
 * What a verified JWS of the offer-receipt extension is, by its payload's fields: an offer
 * (`scheme`, `payTo`, `validUntil`: the terms before payment) or a receipt (`payer`, `issuedAt`:
 * after settlement). Both are signed by the same key in the same form, so only the fields tell
 * them apart.
 */
export type SignedKind = 'offer' | 'receipt' | 'unknown';

export function kindOf(payload: unknown): SignedKind {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return 'unknown';
  const p = payload as Record<string, unknown>;
  const receipt = typeof p.payer === 'string' && typeof p.issuedAt === 'number';
  const offer = typeof p.scheme === 'string' && typeof p.payTo === 'string' && typeof p.validUntil === 'number';
  if (receipt === offer) return 'unknown';
  return receipt ? 'receipt' : 'offer';
}
