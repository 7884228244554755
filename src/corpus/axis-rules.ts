/**
 * Rules that tie an axis definition to its data, checked after both are read:
 * a MEASURED comparison needs rows or aggregate results (not both), declared n must agree
 * with the rows, labels named by the definition must be in its menu.
 */
import type { ItemTable } from '../core/board/item-table.js';
import type { AxisDefinition } from '../core/board/model.js';
import type { CorpusProblem } from '../core/errors.js';

export function checkAxisRules(
  file: string,
  def: AxisDefinition,
  hasRows: boolean,
  table: ItemTable | undefined,
): CorpusProblem[] {
  const out: CorpusProblem[] = [];
  const at = (field: string, reason: string) => out.push({ file, field, reason });
  if (def.kind === 'deterministic-facts') {
    if (def.status === 'MEASURED' && def.evidence === undefined)
      at('evidence', 'a MEASURED deterministic-facts axis needs an evidence file');
    if (def.status === 'MEASURED' && def.facts.length === 0)
      at('facts', 'a MEASURED deterministic-facts axis needs at least one fact');
    if (def.facts.length === 0 && def.n === undefined) at('n', 'is required when no facts are listed');
    return out;
  }
  if (hasRows && def.results) at('results', 'give per-item rows or aggregate results, not both');
  if (def.status === 'MEASURED' && !hasRows && !def.results)
    at('status', `MEASURED needs peritem/${def.axis}.jsonl or aggregate results`);
  if (!hasRows && def.n === undefined) at('n', 'is required when there are no per-item rows');
  if (table && def.n !== undefined && def.n !== table.items.length)
    at('n', `is ${def.n} but the per-item rows hold ${table.items.length} distinct items`);
  if (def.results && def.n !== undefined) {
    const over = def.results.find((r) => r.total > (def.n ?? 0));
    if (over) at('results', `${over.model} has total ${over.total}, more than n = ${def.n}`);
  }
  const menu = def.labels ? new Set(def.labels) : undefined;
  if (menu && def.positive_label !== undefined && !menu.has(def.positive_label))
    at('positive_label', `'${def.positive_label}' is not in labels`);
  if (menu && def.harm_labels)
    for (const h of def.harm_labels) if (!menu.has(h)) at('harm_labels', `'${h}' is not in labels`);
  if (def.fleet?.includes('mean_harm') && !def.harm_labels)
    at('harm_labels', 'is required for the mean_harm aggregate');
  return out;
}
