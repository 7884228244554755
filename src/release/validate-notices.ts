/**
 * What `gspc validate` says beyond "the corpus is well formed" (issue 16): the places where the
 * corpus is valid and would publish, but the board will not say what its author probably meant.
 * Each is found on the same derivation `gspc publish` runs, so validate means "would publish, and
 * this is what the board would show". None of them blocks a publish: the board states each one
 * itself (a refused bank, an empty leader slot, UNTESTED with its reason); the notice says so
 * before it is public.
 */
import type { DerivedAxis } from '../core/board/axis-row.js';
import { type ModelComparisonAxis, SCAFFOLD_PLACEHOLDER } from '../core/board/model.js';
import type { CorpusProblem } from '../core/errors.js';
import type { Corpus } from '../corpus/read-corpus.js';
import type { DerivedRelease } from './derive.js';
import { usageCoverageNotices } from './usage-notices.js';
import { costNotices } from './cost-notices.js';
import { runSettingsNotices } from './run-settings-notices.js';

/** The notice of a board.json still holding the scaffold's placeholders (gspc publish warns of it). */
export const SCAFFOLD_NOTICE = `still the scaffold gspc import wrote (${SCAFFOLD_PLACEHOLDER}): readers will see it as the board's issuer and provenance`;

/** Below this a MEASURED row is not quotable (specification rule 1; decision M11). */
const QUOTABLE_N = 30;

export function validateNotices(corpus: Corpus, derived: DerivedRelease): CorpusProblem[] {
  const notices: CorpusProblem[] = [];
  const modelsByAxis = new Map<string, Set<string>>();
  for (const [axis, table] of corpus.tables) modelsByAxis.set(axis, new Set(table.columns.keys()));
  const everyModel = new Set([...modelsByAxis.values()].flatMap((m) => [...m]));

  const scaffold = (
    [
      ['issuer', corpus.meta.issuer],
      ['doi', corpus.meta.doi],
      ['measured_on.date', corpus.meta.measured_on.date],
    ] as const
  ).filter(([, v]) => v.includes(SCAFFOLD_PLACEHOLDER));
  if (scaffold.length > 0)
    notices.push({
      file: 'board.json',
      field: scaffold.map(([f]) => f).join(', '),
      reason: SCAFFOLD_NOTICE,
    });

  corpus.meta.own_models.forEach((m, i) => {
    if (!everyModel.has(m))
      notices.push({
        file: 'board.json',
        field: `own_models[${i}]`,
        reason: `'${m}' has no per-item rows on any axis (a misspelt id would leave the real own model free to lead)`,
      });
  });

  // A model on one axis only is normal on a board built from several harnesses; it is worth a
  // word only when its id looks like another model's spelt differently (decision T7).
  const rowsOnOneAxisOnly = new Map<string, { axis: string; like: string }>();
  if (modelsByAxis.size > 1)
    for (const m of everyModel) {
      const on = [...modelsByAxis].filter(([, models]) => models.has(m)).map(([axis]) => axis);
      const like = on.length === 1 ? [...everyModel].find((o) => o !== m && sameModelSpeltOtherwise(m, o)) : undefined;
      if (like !== undefined) rowsOnOneAxisOnly.set(m, { axis: on[0]!, like });
    }

  for (const derivedAxis of derived.source.axes) {
    const def = corpus.definitions.find((d) => d.axis === derivedAxis.row.axis);
    if (def?.kind !== 'model-comparison') continue;
    notices.push(...axisNotices(def, derivedAxis, modelsByAxis.get(def.axis) ?? new Set(), corpus));
    for (const [m, { axis, like }] of rowsOnOneAxisOnly)
      if (axis === def.axis)
        notices.push({
          file: `peritem/${axis}.jsonl`,
          field: '',
          reason: `model '${m}' has rows on this axis only, and '${like}' elsewhere: the same model spelt two ways? The board counts them as two models`,
        });
    notices.push(...usageCoverageNotices(def.axis, corpus.tables.get(def.axis)));
    notices.push(...runSettingsNotices(def.axis, corpus.tables.get(def.axis)));
  }
  notices.push(...costNotices(corpus));
  return notices;
}

/** `m` and `o` name one model spelt two ways: the same letters and digits, or one with an org prefix. */
export function sameModelSpeltOtherwise(m: string, o: string): boolean {
  const bare = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, '');
  const name = (id: string) => id.slice(id.lastIndexOf('/') + 1);
  return bare(m) === bare(o) || (m.includes('/') !== o.includes('/') && bare(name(m)) === bare(name(o)));
}

function axisNotices(
  def: ModelComparisonAxis,
  derived: DerivedAxis,
  models: ReadonlySet<string>,
  corpus: Corpus,
): CorpusProblem[] {
  const file = `axes/${def.axis}.json`;
  const rows = `peritem/${def.axis}.jsonl`;
  const out: CorpusProblem[] = [];
  const row = derived.row;
  (def.base_models ?? []).forEach((m, i) => {
    if (!models.has(m))
      out.push({
        file,
        field: `base_models[${i}]`,
        reason: `'${m}' has no rows on this axis, so it can never be the basis`,
      });
  });
  (def.own_models ?? []).forEach((m, i) => {
    if (!models.has(m)) out.push({ file, field: `own_models[${i}]`, reason: `'${m}' has no rows on this axis` });
  });
  const table = corpus.tables.get(def.axis);
  if (table !== undefined && def.labels !== undefined) {
    const menu = new Set(def.labels);
    const off = new Map<string, number>();
    for (const column of table.columns.values())
      for (let i = 0; i < table.items.length; i++) {
        const id = column.label[i]!;
        const label = id >= 0 ? table.labels[id] : undefined;
        if (label !== undefined && !menu.has(label)) off.set(label, (off.get(label) ?? 0) + 1);
      }
    if (off.size > 0)
      out.push({
        file: rows,
        field: 'label',
        reason: `labels not in the axis's labels, each graded wrong: ${[...off].map(([l, n]) => `'${l}' (${n} row${n === 1 ? '' : 's'})`).join(', ')}`,
      });
    const offGold = new Set(table.goldLabels.flat().filter((g) => !menu.has(g)));
    if (offGold.size > 0)
      out.push({
        file: rows,
        field: 'gold',
        reason: `gold labels not in the axis's labels: ${[...offGold].map((g) => `'${g}'`).join(', ')}`,
      });
  }
  if (row.status !== 'MEASURED') return out;
  if (row.bank_state === 'REFUSED_ONE_LABEL_MENU')
    out.push({
      file,
      field: 'labels',
      reason: 'the menu has one label: the board refuses to rank this bank (no leader, accuracy or interval)',
    });
  if (row.public_leader_state === 'EXCLUDED_OWN_MODEL')
    out.push({
      file: rows,
      field: '',
      reason: 'the best model is an own model: the public leader slot stays empty (own models never lead)',
    });
  if (row.separation === 'UNTESTED' && row.bank_state === undefined)
    out.push({ file, field: '', reason: `separation UNTESTED: ${row.separation_basis ?? 'no reason given'}` });
  if (!row.quotable && row.n < QUOTABLE_N)
    out.push({ file: rows, field: '', reason: `n = ${row.n} < ${QUOTABLE_N}: the row is not quotable` });
  return out;
}
