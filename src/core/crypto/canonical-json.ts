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

/**
 * Canonical text of `value` after checking that it is plain JSON data all the way down: `null`,
 * booleans, finite numbers, strings, arrays without holes, and objects whose prototype is
 * `Object.prototype` or `null`, with no cycles. Anything else throws `TypeError` naming the path.
 * Use it for anything that is signed.
 */
export function canonicalJsonStrict(value: unknown): string {
  assertJsonValue(value, '$', new Set());
  return canonicalJson(value);
}

/** {@link canonicalJsonStrict} as UTF-8 bytes. */
export function canonicalBytesStrict(value: unknown): Buffer {
  return Buffer.from(canonicalJsonStrict(value), 'utf8');
}

// canonicalize@4 emits `{"x":undefined}` (not JSON) for a function value, turns a function in an
// array into a missing element, silently drops `undefined` members and Symbols, and follows
// `toJSON`. For signed bytes each of these means signing something other than what the caller
// holds, so the strict form refuses them (research/transparency.md §6); an own `toJSON` member
// is a function and is refused like any other, and a class instance is not a plain object.
function assertJsonValue(value: unknown, path: string, seen: Set<object>): void {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${String(value)} has no JSON representation`);
    return;
  }
  if (typeof value !== 'object') throw new TypeError(`${path}: a value of type ${typeof value} has no JSON representation`);
  if (seen.has(value)) throw new TypeError(`${path}: circular reference`);
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw new TypeError(`${path}[${i}]: arrays must not have holes`);
      assertJsonValue(value[i], `${path}[${i}]`, seen);
    }
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new TypeError(`${path}: only plain objects are JSON (got ${value.constructor?.name ?? 'an instance'})`);
    if (Object.getOwnPropertySymbols(value).length > 0) throw new TypeError(`${path}: symbol keys have no JSON representation`);
    for (const [k, v] of Object.entries(value)) {
      assertJsonValue(v, `${path}.${k}`, seen);
    }
  }
  seen.delete(value);
}
