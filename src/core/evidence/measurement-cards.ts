/**
 * The cards of a release: one per (model, axis) cell of every MEASURED model-comparison axis,
 * one per MEASURED deterministic-facts axis. Cards on a refused one-label bank are built and
 * then withdrawn (listed in the withdrawal ledger, never counted or rooted).
 */
import type { CellFigures, DerivedAxis } from '../board/axis-row.js';
import type { CardBody, CardMeasurement } from './card.js';

export interface CardSourceFile {
  url: string;
  sha256: string;
  rows?: number;
}

export interface CardPlan {
  body: CardBody;
  model: string | null;
  axis: string;
  /** Set when the card is withdrawn at birth. */
  withdrawn?: string;
}

export interface CardContext {
  asOf: string;
  signerKid: string;
  /** The file each axis's figures come from (per-item rows, or the axis definition). */
  sourceOf(axis: string): CardSourceFile;
}

const fmt = (x: number) => x.toFixed(3);

function role(d: DerivedAxis, cell: CellFigures): string {
  if (cell.own_model) return 'own-model';
  if (d.row.leader === cell.model) return 'leader';
  if (d.rowLeader === cell.model) return 'leader-withheld';
  if (d.row.separation_evidence?.next_best.model === cell.model) return 'separation-basis';
  return 'field';
}

function framing(d: DerivedAxis, cell: CellFigures, asOf: string): string {
  const figure =
    cell.accuracy === null || cell.interval === null
      ? 'no parsed response (no accuracy)'
      : `accuracy ${fmt(cell.accuracy)} on ${cell.parsed} parsed items, Wilson 95% [${fmt(cell.interval[0])}, ${fmt(cell.interval[1])}]`;
  const own = cell.own_model ? " This is one of the service's own models: it is never the public leader." : '';
  const sep = d.row.separation ? ` Axis separation at signing: ${d.row.separation}.` : '';
  return `As of ${asOf}, axis ${d.row.axis}: ${cell.model}, ${figure}; ${cell.unparsed} unparsed responses.${sep}${own} Measurement, not certification; live counts come from the board.`;
}

export function planCards(axes: readonly DerivedAxis[], ctx: CardContext): CardPlan[] {
  const plans: CardPlan[] = [];
  for (const d of axes) {
    if (d.row.status !== 'MEASURED') continue;
    const computed_from = ctx.sourceOf(d.row.axis);
    const base = {
      schema: 'card-v1' as const,
      axis: d.row.axis,
      as_of: ctx.asOf,
      signer: ctx.signerKid,
      computed_from,
    };
    if (d.row.kind === 'deterministic-facts') {
      const measurement: CardMeasurement = {
        kind: 'deterministic-facts',
        status: d.row.status,
        axis_n: d.row.n,
        facts_checked: d.row.facts_checked ?? 0,
        facts_held: d.row.facts_held ?? 0,
        facts_failed: d.row.facts_failed ?? [],
      };
      const public_framing = `As of ${ctx.asOf}, axis ${d.row.axis}: ${d.row.facts_held ?? 0} of ${d.row.facts_checked ?? 0} deterministic facts hold over ${d.row.evidence_url}. Measurement, not certification.`;
      plans.push({
        body: { ...base, surface: 'board.facts', subject: d.row.axis, measurement, public_framing },
        model: null,
        axis: d.row.axis,
      });
      continue;
    }
    for (const cell of d.cells ?? []) {
      const measurement: CardMeasurement = {
        kind: 'model-comparison',
        status: d.row.status,
        axis_n: d.row.n,
        role: role(d, cell),
        responses: cell.responses,
        parsed: cell.parsed,
        correct: cell.correct,
        unparsed: cell.unparsed,
        accuracy: cell.accuracy,
        interval: cell.interval,
        axis_separation: d.row.separation ?? null,
      };
      const plan: CardPlan = {
        body: {
          ...base,
          surface: 'board.measurement',
          subject: cell.model,
          measurement,
          public_framing: framing(d, cell, ctx.asOf),
        },
        model: cell.model,
        axis: d.row.axis,
      };
      if (d.notes.refused) plan.withdrawn = 'refused bank: the exact-label menu has fewer than two distinct labels';
      plans.push(plan);
    }
  }
  return plans;
}
