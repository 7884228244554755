/**
 * What `gspc validate` (and so `gspc import`) says of run settings (issue 40 item 2; decisions
 * RS4, RS5): on an axis where some model has recorded settings (`runs.json`), the pairs that will
 * never be compared because they were run unalike, and how many cannot be compared because one
 * model records a setting the other does not. Both are allowed and both are stated on
 * `/api/models`; the notice says so before it is public, so an operator who imported a 5-shot run
 * beside 0-shot ones, or forgot an entry, sees it. An axis without settings says nothing.
 */
import type { ItemTable } from '../core/board/item-table.js';
import { compareRuns } from '../core/board/run-settings.js';
import type { CorpusProblem } from '../core/errors.js';

/** Pairs named in a notice; the rest are counted. */
const NAMED = 3;

export function runSettingsNotices(axis: string, table: ItemTable | undefined): CorpusProblem[] {
  if (table === undefined) return [];
  const cols = [...table.columns.values()];
  if (!cols.some((c) => c.settings !== undefined)) return [];
  const unlike: string[] = [];
  let unknown = 0;
  for (let i = 0; i < cols.length; i++)
    for (let j = i + 1; j < cols.length; j++) {
      const [x, y] = [cols[i]!, cols[j]!];
      const c = compareRuns(x.settings, y.settings);
      if (c.like === false) unlike.push(`${x.model} and ${y.model} (${c.words})`);
      else if (c.like === null) unknown++;
    }
  const out: CorpusProblem[] = [];
  if (unlike.length > 0)
    out.push({
      file: 'runs.json',
      field: axis,
      reason: `${unlike.length} pair${unlike.length === 1 ? ' was' : 's were'} run with settings that change the task and will not be compared (UNTESTED, not like for like): ${unlike.slice(0, NAMED).join('; ')}${unlike.length > NAMED ? `; and ${unlike.length - NAMED} more` : ''}`,
    });
  if (unknown > 0)
    out.push({
      file: 'runs.json',
      field: axis,
      reason: `${unknown} pair${unknown === 1 ? "'s" : "s'"} run settings cannot be compared (a setting recorded for one model only, or a model with none): ${unknown === 1 ? 'it is' : 'they are'} tested as if run alike, and /api/models says so`,
    });
  return out;
}
