/**
 * `gspc import --cluster <path>` (issue 29): which field of the harness's own record of an item
 * names the item's cluster (the passage, document or template it shares with other items), for
 * the clustered standard errors of `/api/models`. The operator names the field: no harness
 * records the grouping under one name, and guessing one would give a standard error that looks
 * exact and is not (docs/import.md, "Clusters", lists what each reader's record is).
 *
 * The path is dot-separated keys of that record; a key of digits indexes an array
 * (`metadata.passage_id`, `doc.article`, `instance.references.0.tags.0`). Every row of the import
 * must have it, as a non-empty string or a finite number (written as its decimal text): an axis
 * whose rows carry a cluster only in part is refused by the corpus reader, so it is refused here
 * first, with the row's place in the source.
 */
import { GspcError } from '../core/errors.js';

const MAX_CLUSTER = 512;
const SEGMENT = /^[^.\s]{1,200}$/;

export interface ClusterField {
  /** The path as the operator gave it. */
  readonly path: string;
  /** The cluster of the item this record describes; refuses a record without one. */
  of(record: unknown, at: string): string;
}

/** The keys of a path an operator names (`--cluster`, `--tag-field`, `--date-field`); refuses a malformed one. */
export function pathKeys(option: string, path: string, example: string): string[] {
  const keys = path.split('.');
  if (keys.length > 16 || !keys.every((k) => SEGMENT.test(k)))
    throw new GspcError(
      'import_refused',
      `${option} ${JSON.stringify(path)}: a path of 1 to 16 dot-separated keys (e.g. ${example})`,
    );
  return keys;
}

/** The value at `keys` in a harness record (a key of digits indexes an array), or undefined. */
export function valueAt(keys: readonly string[], record: unknown): unknown {
  let v: unknown = record;
  for (const k of keys) {
    if (Array.isArray(v) && /^\d+$/.test(k)) v = v[Number(k)];
    else if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, k))
      v = (v as Record<string, unknown>)[k];
    else return undefined;
  }
  return v;
}

export function clusterField(path: string): ClusterField {
  const keys = pathKeys('--cluster', path, 'metadata.passage_id');
  return {
    path,
    of(record: unknown, at: string): string {
      const v = valueAt(keys, record);
      const value = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
      if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CLUSTER)
        throw new GspcError(
          'import_refused',
          `${at}: --cluster ${path}: ${v === undefined ? 'the record has no such field' : `${JSON.stringify(v)?.slice(0, 80) ?? String(v)} is not a non-empty string or number of at most ${MAX_CLUSTER} characters`}; every row must name its cluster (or import without --cluster)`,
        );
      return value;
    },
  };
}
