/**
 * Standard base64 (RFC 4648 §4, with padding) as the C2SP formats use it, decoded strictly:
 * Node's own decoder silently skips characters outside the alphabet, which would let
 * "Bad Name x08g…" or "ThisIsn'tBase64" through. Like Go's `base64.StdEncoding` (what the
 * reference implementations use), unused trailing bits are not checked.
 */
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of padded standard base64 `text`, or `undefined` if it is not such text. */
export function decodeBase64(text: string): Buffer | undefined {
  if (typeof text !== 'string' || !STD_BASE64.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

/** Padded standard base64 of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
