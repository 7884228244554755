/**
 * Deterministic-facts rows: each fact is a predicate over the axis's evidence file, decided
 * by code (JSON Pointer look-ups, a regular expression, a SHA-256), never by a model.
 * The row has no leader, accuracy or separation (specification, "Axis row").
 */
import type { AxisRow, DerivedAxis } from './axis-row.js';
import type { DeterministicFactsAxis, FactOutcome, FactPredicate } from './model.js';

/** The evidence file as read by the caller: its bytes' SHA-256 and, if it is JSON, its value. */
export interface EvidenceFile {
  path: string;
  sha256: string;
  json: unknown;
}

const MISSING = Symbol('missing');

/** Resolves an RFC 6901 JSON Pointer; returns MISSING when any step is absent. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let cur: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < cur.length) cur = cur[Number(key)];
    else if (cur !== null && typeof cur === 'object' && !Array.isArray(cur) && Object.hasOwn(cur, key))
      cur = (cur as Record<string, unknown>)[key];
    else return MISSING;
  }
  return cur;
}

/**
 * Deep equality of two JSON values, as `util.isDeepStrictEqual` decides it for them (src/core
 * does not import node:util): numbers by `Object.is` (so 0 and -0 differ), arrays element by
 * element, objects by their own enumerable keys in any order and the same prototype.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

export function evaluateFact(predicate: FactPredicate, evidence: EvidenceFile): { holds: boolean; reason?: string } {
  switch (predicate.op) {
    case 'sha256':
      return predicate.value === evidence.sha256
        ? { holds: true }
        : { holds: false, reason: `evidence sha256 is ${evidence.sha256}` };
    case 'exists':
      return resolvePointer(evidence.json, predicate.pointer) === MISSING
        ? { holds: false, reason: `${predicate.pointer} is absent` }
        : { holds: true };
    case 'equals': {
      const v = resolvePointer(evidence.json, predicate.pointer);
      if (v === MISSING) return { holds: false, reason: `${predicate.pointer} is absent` };
      return jsonEqual(v, predicate.value)
        ? { holds: true }
        : { holds: false, reason: `${predicate.pointer} is ${JSON.stringify(v)}` };
    }
    case 'matches': {
      const v = resolvePointer(evidence.json, predicate.pointer);
      if (typeof v !== 'string') return { holds: false, reason: `${predicate.pointer} is not a string` };
      return new RegExp(predicate.pattern, 'u').test(v)
        ? { holds: true }
        : { holds: false, reason: `${predicate.pointer} does not match` };
    }
  }
}

export function deriveFactsRow(
  def: DeterministicFactsAxis,
  evidence: EvidenceFile | undefined,
): DerivedAxis & { outcomes: FactOutcome[] } {
  const row: AxisRow = {
    axis: def.axis,
    family: def.family,
    kind: 'deterministic-facts',
    ...(def.title !== undefined && { title: def.title }),
    n: def.facts.length > 0 ? def.facts.length : (def.n ?? 0),
    status: def.status,
    quotable: false,
  };
  if (def.status !== 'MEASURED' || !evidence) return { row, notes: {}, outcomes: [] };
  const outcomes = def.facts.map((f) => ({ id: f.id, ...evaluateFact(f.predicate, evidence) }));
  row.evidence_url = evidence.path;
  row.facts_checked = outcomes.length;
  row.facts_held = outcomes.filter((o) => o.holds).length;
  row.facts_failed = outcomes.filter((o) => !o.holds).map((o) => o.id);
  return { row, notes: {}, outcomes };
}
