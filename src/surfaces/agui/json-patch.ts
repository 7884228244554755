/**
 * The RFC 6902 JSON Patch from one JSON document to another: what an AG-UI `STATE_DELTA`
 * carries (AG-UI 1.0 "State Management": `delta` is an RFC 6902 patch applied to the state the
 * client holds). Pure and deterministic: the same two documents always give the same patch.
 *
 * Written here rather than taken from a library: no dependency may be added without the lead,
 * and `fast-json-patch` (what `@ag-ui/client` applies patches with) is only present as a
 * transitive dependency of a dev dependency, so a production install does not have it. The
 * diff needs only `add`, `remove` and `replace`, which keeps it small enough to test whole
 * (test/surfaces/agui-json-patch.test.ts applies every patch with the client's own applier).
 */

/** A JSON value, as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The operations this diff emits (RFC 6902 §4.1-§4.3); a subset of AG-UI's `JsonPatchOperation`. */
export type PatchOperation =
  | { op: 'add'; path: string; value: JsonValue }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: JsonValue };

type JsonObject = { [key: string]: JsonValue };

const isObject = (v: JsonValue): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOwn = (o: JsonObject, k: string): boolean => Object.hasOwn(o, k);

/** One reference token of a JSON Pointer (RFC 6901 §4): `~` → `~0` first, then `/` → `~1`. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Deep equality of two JSON values (object key order does not matter, array order does). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i]!, b[i]!)) return false;
    return true;
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!hasOwn(b, k) || !jsonEqual(a[k]!, b[k]!)) return false;
  return true;
}

/**
 * The patch that turns `from` into `to`; empty when they are equal. Applied in order to `from`
 * (RFC 6902 §3), it yields a document equal to `to`. Values in the patch share structure with
 * `to`: serialise it, do not mutate it.
 */
export function diffJson(from: JsonValue, to: JsonValue): PatchOperation[] {
  const ops: PatchOperation[] = [];
  walk(from, to, '', ops);
  return ops;
}

function walk(a: JsonValue, b: JsonValue, path: string, ops: PatchOperation[]): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) return walkObject(a, b, path, ops);
  if (Array.isArray(a) && Array.isArray(b)) return walkArray(a, b, path, ops);
  // Different kinds, or two different primitives: the value is replaced whole.
  ops.push({ op: 'replace', path, value: b });
}

function walkObject(a: JsonObject, b: JsonObject, path: string, ops: PatchOperation[]): void {
  for (const k of Object.keys(a)) if (!hasOwn(b, k)) ops.push({ op: 'remove', path: `${path}/${pointerToken(k)}` });
  for (const k of Object.keys(b)) {
    const p = `${path}/${pointerToken(k)}`;
    if (hasOwn(a, k)) walk(a[k]!, b[k]!, p, ops);
    else ops.push({ op: 'add', path: p, value: b[k]! });
  }
}

/**
 * Arrays: the common prefix and suffix are kept, the changed middles are paired index by index
 * (recursively), and what is left over is added or removed. One row inserted or withdrawn
 * anywhere is then one `add` or `remove`, not a replace of every later row.
 */
function walkArray(a: JsonValue[], b: JsonValue[], path: string, ops: PatchOperation[]): void {
  let p = 0;
  while (p < a.length && p < b.length && jsonEqual(a[p]!, b[p]!)) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && jsonEqual(a[a.length - 1 - s]!, b[b.length - 1 - s]!)) s++;
  const ma = a.length - p - s;
  const mb = b.length - p - s;
  const paired = Math.min(ma, mb);
  // Nested changes keep every index where it is, so the paired ones can go first.
  for (let i = 0; i < paired; i++) walk(a[p + i]!, b[p + i]!, `${path}/${p + i}`, ops);
  // Additions in ascending order: each lands at its final index, before the kept suffix.
  for (let i = paired; i < mb; i++) ops.push({ op: 'add', path: `${path}/${p + i}`, value: b[p + i]! });
  // Removals from the highest index down, so no removal shifts the index of a later one.
  for (let i = ma - 1; i >= paired; i--) ops.push({ op: 'remove', path: `${path}/${p + i}` });
}
