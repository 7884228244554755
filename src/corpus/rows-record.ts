/**
 * What a model's per-item rows on an axis say about how they were run, read from the provenance
 * fields the derivation otherwise ignores (`harness`, `harness_version`, `task`; docs/formats.md
 * §1), so that `runs.json` can be checked against them where both say the same thing (decision
 * RS10): settings written after the outcomes are known must not contradict the rows they describe.
 *
 * Rows that `gspc import` wrote from an Every Eval Ever record carry `harness: "eee"` and the EEE
 * schema version: the record's format, not the harness that ran the model, so they say nothing
 * about `runs.json`'s harness or version and are not recorded here. Inspect's rows write
 * `<version>; log format <n>`: a version is read up to its first `; `.
 */

export interface RowsRecord {
  /** The `harness` strings the rows carry (other than `eee`), each with its first line. */
  harness: Map<string, number>;
  /** The `harness_version` strings (up to a first `; `) of rows not marked `eee`, each with its first line. */
  harness_version: Map<string, number>;
  /** Rows per `task` (rows without one count under ''): a `limit` caps the items of one task. */
  perTask: Map<string, number>;
}

/** EEE rows name the record format in `harness` (src/import/eee/eee-row.ts). */
const RECORD_FORMAT = 'eee';

/** Notes one accepted row of `model` at `line` (`r`: the row as parsed). */
export function noteRow(
  records: Map<string, RowsRecord>,
  model: string,
  r: Record<string, unknown>,
  line: number,
): void {
  let rec = records.get(model);
  if (rec === undefined) {
    rec = { harness: new Map(), harness_version: new Map(), perTask: new Map() };
    records.set(model, rec);
  }
  const task = typeof r.task === 'string' ? r.task : '';
  rec.perTask.set(task, (rec.perTask.get(task) ?? 0) + 1);
  if (r.harness === RECORD_FORMAT) return;
  if (typeof r.harness === 'string' && !rec.harness.has(r.harness)) rec.harness.set(r.harness, line);
  if (typeof r.harness_version === 'string') {
    const cut = r.harness_version.indexOf('; ');
    const v = cut < 0 ? r.harness_version : r.harness_version.slice(0, cut);
    if (!rec.harness_version.has(v)) rec.harness_version.set(v, line);
  }
}

/** The most rows the model has on one task of the axis. */
export function mostRowsPerTask(rec: RowsRecord): { rows: number; task: string } {
  let best = { rows: 0, task: '' };
  for (const [task, rows] of rec.perTask) if (rows > best.rows) best = { rows, task };
  return best;
}
