/**
 * base64url without padding (RFC 4648 §5, as JOSE uses it: RFC 7515 §2), with a strict decoder.
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/** base64url text of `bytes`, without `=` padding. */
export function encodeBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/**
 * Decodes unpadded base64url text, or returns `undefined` when `text` is not the one canonical
 * encoding of some byte string: characters outside the alphabet, `=` padding, a length of 1 mod 4,
 * or non-zero unused trailing bits. Never throws.
 */
export function decodeBase64url(text: string): Buffer | undefined {
  if (typeof text !== 'string' || !ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Node's decoder ignores non-zero trailing bits, so `...A` and `...B` can decode to the same
  // bytes; accepting both would make a JWS malleable without touching its signature.
  return bytes.toString('base64url') === text ? bytes : undefined;
}
