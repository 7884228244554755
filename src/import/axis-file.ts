/**
 * `axes/<axis>.json` for an import: created when absent (a MEASURED model comparison of the
 * run's task), merged when present (the label menu grows, the disagreement counts of the
 * imported models are replaced, and an `n` the operator stated follows the items the rows now
 * have, since the corpus requires the two to be equal; the summary says when it changed).
 * Everything else the operator wrote is kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import { GspcError } from '../core/errors.js';
import type { ImportedRun } from './imported.js';

export interface AxisInput {
  axis: string;
  /** The first run imported into the axis (names the task for a new definition). */
  run: ImportedRun;
  /** Labels for the menu, in order: the runs' own options, then the golds seen. */
  labels: string[];
  /** Per imported model: disagreements accepted with --accept-disagreement (0 clears). */
  disagreements: Map<string, number>;
  /** Distinct items in `peritem/<axis>.jsonl` after the import. */
  items: number;
}

export function readAxisFile(path: string, axis: string): Record<string, unknown> | null {
  if (!existsSync(path)) return null;
  let def: Record<string, unknown>;
  try {
    def = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new GspcError('import_refused', `axes/${axis}.json: invalid JSON (${(e as Error).message})`);
  }
  if (def.kind !== 'model-comparison')
    throw new GspcError(
      'import_refused',
      `axes/${axis}.json: kind is ${String(def.kind)}; rows import only into a model-comparison axis`,
    );
  if (def.results !== undefined)
    throw new GspcError(
      'import_refused',
      `axes/${axis}.json: has aggregate-only results; an axis has per-item rows or results, not both`,
    );
  return def;
}

/** Adds `more` to `menu` in order, each once. */
function union(menu: readonly string[], more: Iterable<string>): string[] {
  const out = [...menu];
  const has = new Set(out);
  for (const l of more)
    if (!has.has(l)) {
      has.add(l);
      out.push(l);
    }
  return out;
}

export function axisDefinition(existing: Record<string, unknown> | null, a: AxisInput): Record<string, unknown> {
  const def: Record<string, unknown> = existing
    ? { ...existing }
    : {
        axis: a.axis,
        family: 'imported',
        title: a.run.task,
        kind: 'model-comparison',
        status: 'MEASURED',
        bench: a.run.task,
        task: `${a.run.task}, imported from ${a.run.format} output (gspc import)`,
        dataset: a.run.task,
      };
  def.labels = union(Array.isArray(existing?.labels) ? (existing.labels as string[]) : [], a.labels);
  const counts = { ...((existing?.import_disagreements as Record<string, number> | undefined) ?? {}) };
  for (const [model, n] of a.disagreements) {
    if (n > 0) counts[model] = n;
    else delete counts[model];
  }
  const models = Object.keys(counts).sort();
  if (models.length > 0) def.import_disagreements = Object.fromEntries(models.map((m) => [m, counts[m]]));
  else delete def.import_disagreements;
  if (typeof existing?.n === 'number') def.n = a.items;
  return def;
}
