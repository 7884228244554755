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
  assertJsonValue(value, []);
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
const MAX_DEPTH = 64;

function pathOf(stack: readonly (string | number)[]): string {
  return `$${stack.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')}`;
}

// One lean walk: no per-value path strings or sets (they cost more than canonicalising itself,
// docs/performance.md). Cycles are found among the ancestors (a short array for real data);
// the path is built only to name what is refused.
function assertJsonValue(value: unknown, stack: (string | number)[], ancestors: object[] = []): void {
  const t = typeof value;
  if (value === null || t === 'boolean' || t === 'string') return;
  if (t === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${pathOf(stack)}: ${String(value)} has no JSON representation`);
    return;
  }
  if (t !== 'object') throw new TypeError(`${pathOf(stack)}: a value of type ${t} has no JSON representation`);
  if (ancestors.includes(value as object)) throw new TypeError(`${pathOf(stack)}: circular reference`);
  if (stack.length > MAX_DEPTH) throw new TypeError(`${pathOf(stack)}: nested deeper than ${MAX_DEPTH} levels`);
  ancestors.push(value as object);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      stack.push(i);
      if (!(i in value)) throw new TypeError(`${pathOf(stack)}: arrays must not have holes`);
      assertJsonValue(value[i], stack, ancestors);
      stack.pop();
    }
    ancestors.pop();
    return;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new TypeError(`${pathOf(stack)}: only plain objects are JSON (got ${(value as object).constructor?.name ?? 'an instance'})`);
  const obj = value as Record<string, unknown>;
  for (const k in obj) {
    stack.push(k);
    assertJsonValue(obj[k], stack, ancestors);
    stack.pop();
  }
  ancestors.pop();
  if (Object.getOwnPropertySymbols(obj).length > 0) throw new TypeError(`${pathOf(stack)}: symbol keys have no JSON representation`);
}
