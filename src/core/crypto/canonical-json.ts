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
 * booleans, finite numbers, strings without lone surrogates (RFC 8785 §3.2.2.2 requires an
 * error), arrays without holes, and objects whose prototype is `Object.prototype` or `null`,
 * with no cycles. Anything else throws `TypeError` naming the path. Use it for anything signed.
 *
 * One walk validates and builds a copy whose members are inserted in RFC 8785 order, which the
 * engine's own `JSON.stringify` then writes: RFC 8785 defines its string escaping and number
 * form as ECMAScript's, so the output is the same as `canonicalize` (property-tested against it
 * and checked on the JCS vectors) at about a third of the cost, which is most of what sealing a
 * card costs beyond hashing and signing (docs/performance.md). An object with an integer-like
 * key (which JavaScript always enumerates first, in numeric order) or a `__proto__` key cannot
 * be reproduced by insertion order, and is written by `canonicalize` instead.
 */
export function canonicalJsonStrict(value: unknown): string {
  const state = { fallback: false };
  const sorted = sortedCopy(value, [], [], state);
  return state.fallback ? canonicalJson(value) : JSON.stringify(sorted);
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
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;

function pathOf(stack: readonly (string | number)[]): string {
  return `$${stack.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')}`;
}

function checkString(s: string, stack: (string | number)[], what: string): void {
  if (SURROGATE.test(s) && LONE_SURROGATE.test(s))
    throw new TypeError(`${pathOf(stack)}: ${what} has a lone surrogate (not UTF-8)`);
}

// One lean walk: no per-value path strings or sets (they cost more than canonicalising itself);
// cycles are found among the ancestors (a short array for real data); the path is built only to
// name what is refused.
function sortedCopy(
  value: unknown,
  stack: (string | number)[],
  ancestors: object[],
  state: { fallback: boolean },
): unknown {
  const t = typeof value;
  if (value === null || t === 'boolean') return value;
  if (t === 'string') {
    checkString(value as string, stack, 'a string');
    return value;
  }
  if (t === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${pathOf(stack)}: ${String(value)} has no JSON representation`);
    return value;
  }
  if (t !== 'object') throw new TypeError(`${pathOf(stack)}: a value of type ${t} has no JSON representation`);
  if (ancestors.includes(value as object)) throw new TypeError(`${pathOf(stack)}: circular reference`);
  if (stack.length > MAX_DEPTH) throw new TypeError(`${pathOf(stack)}: nested deeper than ${MAX_DEPTH} levels`);
  ancestors.push(value as object);
  let out: unknown;
  if (Array.isArray(value)) {
    let arr: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      stack.push(i);
      if (!(i in value)) throw new TypeError(`${pathOf(stack)}: arrays must not have holes`);
      const v = sortedCopy(value[i], stack, ancestors, state);
      if (v !== value[i]) (arr ??= value.slice())[i] = v;
      stack.pop();
    }
    out = arr ?? value;
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      throw new TypeError(
        `${pathOf(stack)}: only plain objects are JSON (got ${(value as object).constructor?.name ?? 'an instance'})`,
      );
    if (Object.getOwnPropertySymbols(value as object).length > 0)
      throw new TypeError(`${pathOf(stack)}: symbol keys have no JSON representation`);
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    // Default comparison is by UTF-16 code units, which is RFC 8785's order. An object already
    // in that order whose members need no copy is written as it is (no allocation).
    let inOrder = true;
    for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1]! < keys[i]!;
    if (!inOrder) keys.sort();
    const members: unknown[] = new Array(keys.length);
    let changed = !inOrder;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      stack.push(k);
      checkString(k, stack, 'a member name');
      if (k === '__proto__' || INDEX_LIKE.test(k)) state.fallback = true;
      members[i] = sortedCopy(obj[k], stack, ancestors, state);
      if (members[i] !== obj[k]) changed = true;
      stack.pop();
    }
    if (changed) {
      const copy: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) copy[keys[i]!] = members[i];
      out = copy;
    } else out = obj;
  }
  ancestors.pop();
  return out;
}
