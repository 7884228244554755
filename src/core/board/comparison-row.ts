/**
 * Derives a model-comparison row: leader, Wilson interval, exact McNemar separation against
 * the best base model, fleet aggregates and (jail) per-model classification counts.
 * Specification: "Axis row" and "Rules on board fields"; method in docs/methodology.md.
 */
import { confusionCounts, macroF1, mcnemarExact, SEPARATION_ALPHA, wilsonInterval } from '../stats/index.js';
import type {
  AxisRow,
  CellFigures,
  ClassificationRow,
  DerivedAxis,
  ModelEvidence,
  RowNotes,
  SeparationEvidence,
} from './axis-row.js';
import { OUTCOME_CORRECT, OUTCOME_MISSING, OUTCOME_UNPARSED, OUTCOME_WRONG, type ItemTable } from './item-table.js';
import { pairedOutcomes } from './paired-outcomes.js';
import type { ModelComparisonAxis } from './model.js';
import { axisRoles, rank, tallyResults, tallyTable, type ModelRoles, type ModelTally } from './model-tally.js';
import { compareRuns, notLikeForLike } from './run-settings.js';

export const QUOTABLE_MIN_N = 30;

export function deriveComparisonRow(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  boardOwn: readonly string[],
): DerivedAxis {
  const roles = axisRoles(def, boardOwn);
  const n = table && table.items.length > 0 ? table.items.length : (def.n ?? 0);
  const row: AxisRow = {
    axis: def.axis,
    family: def.family,
    kind: 'model-comparison',
    ...(def.title !== undefined && { title: def.title }),
    bench: def.bench,
    task: def.task,
    dataset: def.dataset,
    n,
    status: def.status,
    quotable: false,
  };
  if (def.status !== 'MEASURED') return { row: finish(row, n), notes: {} };

  const tallies = table ? tallyTable(table, roles) : tallyResults(def.results ?? [], roles);
  const rows = tallies.reduce((s, t) => s + t.rows, 0);
  const unparsed = tallies.reduce((s, t) => s + t.unparsed, 0);
  const unparsedRate = rows > 0 ? unparsed / rows : undefined;

  const menu = new Set(def.labels ?? (table ? [...table.distinctGoldLabels()] : []));
  // Declared or read from the rows: an aggregate-only axis declaring one label is refused too.
  if ((table !== undefined || def.labels !== undefined) && menu.size < 2) {
    const reason =
      'refused: the exact-label menu has fewer than two distinct labels, so accuracy cannot separate models';
    row.separation = 'UNTESTED';
    row.separation_basis = reason;
    row.bank_state = 'REFUSED_ONE_LABEL_MENU';
    if (unparsedRate !== undefined) row.unparsed_rate = unparsedRate;
    row.models = tallies.length;
    return {
      row: finish(row, n),
      notes: { refused: true, untestedReason: reason, unparsedResponses: unparsed },
      cells: cellsOf(tallies),
    };
  }

  const ranked = rank(tallies.filter((t) => !t.own));
  const leader = ranked[0];
  const ownTop = rank(tallies).find((t) => t.own && (!leader || rank([t, leader])[0] === t));
  const notes: DerivedAxis['notes'] = { unparsedResponses: unparsed };
  let rowLeader: string | undefined;

  if (leader) {
    const ev = modelEvidence(leader);
    row.accuracy = ev.accuracy;
    row.interval = ev.interval;
    rowLeader = leader.model;
    if (ownTop) {
      row.public_leader_state = 'EXCLUDED_OWN_MODEL';
      notes.ownLeader = ownTop.model;
    } else {
      row.leader = leader.model;
    }
  }
  const sep = separate(def, table, ranked);
  row.separation = sep.separation;
  if (sep.evidence) {
    row.separation_p = sep.evidence.p;
    row.separation_evidence = sep.evidence;
  }
  if (sep.basis) row.separation_basis = sep.basis;
  if (sep.separation === 'UNTESTED') notes.untestedReason = sep.basis ?? 'untested';
  if (sep.settingsUnknown) notes.settingsUnknown = sep.settingsUnknown;
  Object.assign(row, fleetAggregates(def, table, ranked));
  if (unparsedRate !== undefined) row.unparsed_rate = unparsedRate;
  if (def.positive_label !== undefined && table) row.per_model = classificationRows(table, def.positive_label, roles);
  if (table) {
    // macro_f1 and the per-model counts need one gold class per item: say how many they leave out.
    const leftOutBy = [
      ...(def.fleet?.includes('macro_f1') ? (['macro_f1'] as const) : []),
      ...(def.positive_label !== undefined ? (['per_model'] as const) : []),
    ];
    const items = leftOutBy.length > 0 ? table.goldListItems() : 0;
    if (items > 0) notes.goldLists = { items, leftOutBy };
  }
  row.models = tallies.length;
  return { row: finish(row, n), notes, cells: cellsOf(tallies), ...(rowLeader !== undefined && { rowLeader }) };
}

/** Per-model figures, sorted by model id (the order cards are built in). */
function cellsOf(tallies: readonly ModelTally[]): CellFigures[] {
  return [...tallies]
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0))
    .map((t) => ({
      model: t.model,
      own_model: t.own,
      base_model: t.base,
      responses: t.rows,
      parsed: t.parsed,
      correct: t.correct,
      unparsed: t.unparsed,
      accuracy: t.parsed > 0 ? t.correct / t.parsed : null,
      interval: t.parsed > 0 ? wilsonInterval(t.correct, t.parsed) : null,
    }));
}

function finish(row: AxisRow, n: number): AxisRow {
  row.quotable = row.status === 'MEASURED' && n >= QUOTABLE_MIN_N && row.interval !== undefined;
  return row;
}

function modelEvidence(t: ModelTally): ModelEvidence {
  return {
    model: t.model,
    k: t.correct,
    n: t.parsed,
    accuracy: t.correct / t.parsed,
    interval: wilsonInterval(t.correct, t.parsed),
    unparsed: t.unparsed,
  };
}

interface SeparationOutcome {
  separation: 'SEPARATED' | 'TIE' | 'UNTESTED';
  basis?: string;
  evidence?: SeparationEvidence;
  settingsUnknown?: RowNotes['settingsUnknown'];
}

function separate(def: ModelComparisonAxis, table: ItemTable | undefined, ranked: ModelTally[]): SeparationOutcome {
  const untested = (basis: string): SeparationOutcome => ({ separation: 'UNTESTED', basis });
  if (!table) return untested('no published per-item rows: aggregate results cannot be paired');
  const [leader, ...rest] = ranked;
  if (!leader) return untested('no public model has a parsed response');
  const basis = rest.find((t) => t.base);
  if (!basis)
    return untested(
      rest.length === 0
        ? 'only one public model was measured'
        : 'no base model besides the leader: no compatible basis',
    );

  // Models run with settings that change the task are never compared (decision RS4); when the
  // settings cannot be compared, the test is run and the limitations say so (decision RS5).
  const settings = (t: ModelTally) => table.columns.get(t.model)?.settings;
  const runs = compareRuns(settings(leader), settings(basis));
  if (runs.like === false) return untested(notLikeForLike(leader.model, basis.model, runs));
  const settingsUnknown =
    runs.like === null && (settings(leader) !== undefined || settings(basis) !== undefined)
      ? { leader: leader.model, basis: basis.model, fields: runs.unknown }
      : undefined;
  const { b, c, paired, conflicts } = pairedOutcomes(table, leader.model, basis.model);
  if (conflicts > 0)
    return untested(
      `item content hashes differ between ${leader.model} and ${basis.model} on ${conflicts} paired item${conflicts === 1 ? '' : 's'}: the pairing is refused`,
    );
  if (paired === 0) return untested(`no item was parsed by both ${leader.model} and ${basis.model}`);
  const m = mcnemarExact(b, c);
  const evidence: SeparationEvidence = {
    test: 'exact McNemar, two-sided',
    alpha: SEPARATION_ALPHA,
    leader: modelEvidence(leader),
    next_best: modelEvidence(basis),
    paired_items: paired,
    b,
    c,
    p: m.p,
    p_mid: m.pMid,
    log10_p: m.log10P,
  };
  // A significant result in the other direction (the basis better on the shared items) does
  // not separate the leader: it is reported, and the row reads TIE.
  const separated = m.decision === 'SEPARATED' && b > c;
  const out: SeparationOutcome = {
    separation: separated ? 'SEPARATED' : 'TIE',
    evidence,
    ...(settingsUnknown && { settingsUnknown }),
  };
  if (m.decision === 'SEPARATED' && !separated)
    out.basis = `on the ${paired} items both parsed, ${basis.model} scored higher than the leader; the leader is not separated`;
  if (def.base_models) out.basis ??= `best base model among the declared base models: ${basis.model}`;
  return out;
}

function fleetAggregates(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  ranked: ModelTally[],
): Partial<AxisRow> {
  const out: Partial<AxisRow> = {};
  const wanted = new Set(def.fleet ?? []);
  if (ranked.length === 0) return out;
  if (wanted.has('fleet_mean')) out.fleet_mean = mean(ranked.map((t) => t.correct / t.parsed));
  if (!table) return out;
  if (wanted.has('macro_f1')) {
    // Needs one gold class per item: items that accept several labels are left out.
    const menu = def.labels ?? [...table.distinctGoldLabels()].sort();
    const values = ranked
      .map((t) => macroF1(singleClassPairs(table, t.model), menu))
      .filter((v): v is number => v !== null);
    if (values.length > 0) out.macro_f1 = mean(values);
  }
  if (wanted.has('mean_harm') && def.harm_labels) {
    // Harm is a property of the label given, whatever the gold: every parsed response counts,
    // in the numerator as in the denominator (t.parsed).
    const harm = new Set(def.harm_labels);
    const harmLabel = table.labels.map((l) => harm.has(l));
    out.mean_harm = mean(
      ranked.map((t) => {
        const col = table.columns.get(t.model)!;
        let harmful = 0;
        for (let i = 0; i < table.items.length; i++)
          if (col.outcome[i] === OUTCOME_CORRECT || col.outcome[i] === OUTCOME_WRONG)
            if (harmLabel[col.label[i]!]) harmful++;
        return harmful / t.parsed;
      }),
    );
  }
  return out;
}

function classificationRows(table: ItemTable, positive: string, roles: ModelRoles): ClassificationRow[] {
  return [...table.columns.keys()].sort().map((model) => {
    const cc = confusionCounts(singleClassPairs(table, model), positive);
    // Whether a label was read does not depend on the gold: unparsed counts every item (the
    // same number as the model's card), while TP/FP/TN/FN need one gold class per item.
    const col = table.columns.get(model)!;
    let unparsed = 0;
    for (let i = 0; i < table.items.length; i++) if (col.outcome[i] === OUTCOME_UNPARSED) unparsed++;
    return {
      model,
      own_model: roles.own.has(model),
      TP: cc.tp,
      FP: cc.fp,
      TN: cc.tn,
      FN: cc.fn,
      unparsed,
      precision: cc.precision,
      recall: cc.recall,
    };
  });
}

/**
 * (gold class, label) for every row of a model whose item has one gold class (a label, or a
 * list of one label); items that accept several distinct labels are left out.
 */
function* singleClassPairs(table: ItemTable, model: string): Generator<{ gold: string; label: string | null }> {
  const col = table.columns.get(model)!;
  for (let i = 0; i < table.items.length; i++) {
    if (col.outcome[i] === OUTCOME_MISSING) continue;
    const gold = table.goldClass(i);
    if (gold === undefined) continue;
    yield { gold, label: table.labelOf(col, i) };
  }
}

function mean(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}
