/**
 * RFC 8785 (JCS) canonical JSON, the one serialisation every hash and signature is taken
 * over. Delegates to `canonicalize` (by an RFC 8785 author), checked against the JCS vectors.
 */
import canonicalize from 'canonicalize';

/** Canonical UTF-8 text of a JSON value; throws on values JSON cannot represent. */
export function canonicalJson(value: unknown): string {
  const out = canonicalize(value);
  if (out === undefined) throw new TypeError('value has no JSON representation');
  return out;
}

export function canonicalBytes(value: unknown): Buffer {
  return Buffer.from(canonicalJson(value), 'utf8');
}
