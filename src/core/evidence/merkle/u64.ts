/**
 * Tree sizes and leaf indices are uint64 in RFC 6962/9162 and in every proof format; JavaScript
 * numbers are exact only up to 2^53 − 1. Verifiers therefore take `number | bigint` and compute
 * in bigint, so a u64 read from the wire (e.g. 2^64 − 1 in the transparency-dev vectors) is
 * judged exactly instead of after rounding.
 */
/** 2^64 − 1, the largest tree size or index a proof format can carry. */
export const U64_MAX = (1n << 64n) - 1n;

/**
 * `value` as a bigint in [0, 2^64). Throws `TypeError` for a non-integer type and `RangeError`
 * for a negative, fractional or out-of-range value, or a number above 2^53 − 1 (it has already
 * lost precision: pass a bigint instead).
 */
export function toU64(value: number | bigint, name: string): bigint {
  if (typeof value === 'bigint') {
    if (value < 0n || value > U64_MAX) throw new RangeError(`${name} must be a uint64, got ${value}`);
    return value;
  }
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number or bigint, got ${typeof value}`);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer (or a bigint), got ${value}`);
  }
  return BigInt(value);
}

/**
 * `value` as a non-negative safe integer; for sizes and indices into trees held in memory.
 * Throws `RangeError` otherwise.
 */
export function toIndex(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer, got ${String(value)}`);
  }
  return value;
}
