/**
 * What `gspc validate` (and so `gspc import`) says of tokens and latency (issue 40, decision TU2):
 * a model some of whose rows carry a usage field and others not. That is allowed, and
 * `/api/usage` gives its figures over the rows that carry the field; the notice says how many
 * before it is public, so an operator who meant every row to carry it can see the gap. A model
 * none of whose rows carries a field says nothing: its figure is simply null.
 */
import { type ItemTable, USAGE_FIELDS } from '../core/board/item-table.js';
import type { CorpusProblem } from '../core/errors.js';

export function usageCoverageNotices(axis: string, table: ItemTable | undefined): CorpusProblem[] {
  const out: CorpusProblem[] = [];
  if (table === undefined) return out;
  for (const col of table.columns.values())
    for (const field of USAGE_FIELDS) {
      const carry = col.usage?.[field]?.rows ?? 0;
      if (carry === 0 || carry === col.rows) continue;
      out.push({
        file: `peritem/${axis}.jsonl`,
        field,
        reason: `model '${col.model}': ${carry} of ${col.rows} rows carry it; /api/usage gives its ${field} over those ${carry}, the other ${col.rows - carry} are unknown (not 0)`,
      });
    }
  return out;
}
