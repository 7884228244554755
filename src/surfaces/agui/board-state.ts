/**
 * The AG-UI run's state within 64 kB at any number of models (issue 39): the served board, key for
 * key, with `tie_groups` added (decision S3), where at 300 models the groups alone were 1.2 MB.
 * Each axis's `tie_groups` entry always carries its source, m, the number of groups and the
 * leader's group (up to {@link LEADER_NAMES} names, with the total); then whole groups, label by
 * label in order, while the state stays within its budget. A board whose per-model lists do not
 * fit is cut (answer-budget.ts `fitBoard`) and the state says so in `cut`. Deltas are diffs of two
 * such states, and a delta larger than the state is sent as a snapshot (board-run.ts), so every
 * event stays within the budget.
 */
import type { AxisTieGroups } from '../../serve/documents/models.js';
import { ANSWER_MAX_BYTES, type Cut, fitBoard, jsonBytes } from '../answer-budget.js';
import { ENVELOPE_BYTES } from '../axis-answer.js';

/** Names of each axis's leader group in the state. */
export const LEADER_NAMES = 10;

/** One axis's entry of the state's `tie_groups`. */
export interface StateTieGroups {
  source: string;
  m: number;
  /** Whole groups, in label order, as many as fit (all of them when `groups_shown` equals `groups_total`). */
  groups: Record<string, string[]>;
  groups_shown: number;
  groups_total: number | null;
  leader_group: string[];
  leader_group_total: number;
}

/** The state: the board (per_model cut if it must be) with the bounded tie groups. */
export function boardState(
  board: Record<string, unknown>,
  tieGroups: Record<string, AxisTieGroups>,
  budget = ANSWER_MAX_BYTES - ENVELOPE_BYTES,
): Record<string, unknown> {
  const bare: Record<string, StateTieGroups> = {};
  for (const [axis, t] of Object.entries(tieGroups))
    bare[axis] = {
      source: t.source,
      m: t.m,
      groups: {},
      groups_shown: 0,
      groups_total: t.groups_total,
      leader_group: t.leader_group.slice(0, LEADER_NAMES),
      leader_group_total: t.leader_group.length,
    };
  // Room for the `cut` key and the metadata an event adds around the state.
  const fitted = fitBoard(board, budget - jsonBytes(bare) - 512);
  const cut: Record<string, Cut> = fitted.cut;
  let room = budget - jsonBytes({ ...fitted.value, tie_groups: bare, ...(Object.keys(cut).length > 0 && { cut }) });
  // Whole groups, axis by axis, label by label, while they fit.
  for (const [axis, t] of Object.entries(tieGroups)) {
    const entry = bare[axis]!;
    for (const [label, models] of Object.entries(t.groups)) {
      const size = jsonBytes({ [label]: models }) - 1; // one key, its list and a comma
      if (size > room) break;
      entry.groups[label] = models;
      entry.groups_shown++;
      room -= size;
    }
  }
  return { ...fitted.value, tie_groups: bare, ...(Object.keys(cut).length > 0 && { cut }) };
}
