/**
 * One axis for an agent, within 64 kB at any number of models (issue 39), shared by MCP
 * `gspc_axis` and the A2A skill `axis-lookup`: the board's row, the published definition, and a
 * page of the every-model document (models-pages.ts) with a cursor to the next; the words every
 * surface says (the lead, the leader's group, a bounded list of tie groups). A row whose
 * `per_model` list does not fit (a classification axis of hundreds of models) gives it page by page
 * after the models and pairs, in `per_model`; a definition too large (aggregate `results`) is cut,
 * said in `page.cut`, and is whole at its URL.
 */
import { lead, likeForLikeWords, plural, type BoardSeparation } from '../core/board/lead-sentence.js';
import type { ModelsDocument } from '../core/board/models-document.js';
import { ANSWER_MAX_BYTES, type Cut, fitLists, jsonBytes } from './answer-budget.js';
import { cursorScope, documentHead, fillPage, type Lists, readCursor } from './models-pages.js';

export { cursorScope };

/** Room kept for what wraps an answer (JSON-RPC envelope, SDK fields, SSE framing). */
export const ENVELOPE_BYTES = 2048;
/** A row larger than this gives its per_model list page by page. */
const ROW_BYTES = 12 * 1024;
/** A definition larger than this has its lists cut. */
const DEFINITION_BYTES = 8 * 1024;
/** Tie groups named in an answer's words, and models named per group / in the leader's group. */
const GROUPS_NAMED = 8;
const NAMES_PER_GROUP = 8;
const LEADER_NAMED = 12;

type Json = Record<string, unknown>;

/** The tie groups in words, bounded: `a: m1, m2; b: m3 (+12); … and 280 more groups`. */
export function tieGroupsWords(doc: ModelsDocument): string {
  if (doc.bank_state) return '';
  if (doc.groups === null)
    return doc.models.some((m) => m.not_separated !== null)
      ? `no tie-group letters (more than 702 groups); each model's not_separated gives the ranks it is not separated from`
      : `no tie groups: ${doc.groups_reason ?? 'none given'}`;
  const groups = new Map<string, string[]>();
  for (const m of doc.models)
    if (!m.own) for (const l of m.tie_groups ?? []) groups.set(l, [...(groups.get(l) ?? []), m.model]);
  const named = [...groups].slice(0, GROUPS_NAMED).map(([l, ms]) => {
    const more = ms.length - NAMES_PER_GROUP;
    return `${l}: ${ms.slice(0, NAMES_PER_GROUP).join(', ')}${more > 0 ? ` (+${more})` : ''}`;
  });
  const rest = groups.size - named.length;
  return named.length === 0 ? '' : `${named.join('; ')}${rest > 0 ? `; and ${plural(rest, 'more group')}` : ''}`;
}

/** The models not separated from the leader, in words, bounded. */
export function leaderGroupWords(doc: ModelsDocument): string {
  const [leader, ...others] = doc.leader_group;
  if (leader === undefined || doc.bank_state) return '';
  if (others.length === 0) return `Every other public model is separated from the leader, ${leader}.`;
  const more = others.length - LEADER_NAMED;
  // An UNTESTED pair with the leader is said as such: no evidence of a tie (review of issue 39).
  const untested = new Set(doc.leader_untested);
  const name = (m: string) => (untested.has(m) ? `${m} (UNTESTED)` : m);
  const tied = others.length - untested.size;
  return `Not separated from the leader (${leader}): ${plural(others.length, 'model')}, ${others.slice(0, LEADER_NAMED).map(name).join(', ')}${more > 0 ? ` and ${more} more (leader_group)` : ''}.${untested.size > 0 ? ` ${tied === 0 ? 'None was' : `${tied} ${tied === 1 ? 'was' : 'were'}`} tested and found a TIE; ${plural(untested.size, 'pair')} with the leader could not be tested (leader_untested), which is no evidence of a tie.` : ''}`;
}

/** The lead, the refused bank's meaning, the leader's group and the tie groups: what every surface says. */
export function axisWords(row: Json, doc: ModelsDocument | undefined): string[] {
  if (!doc) return [];
  const ev = row.separation_evidence as { leader?: { model?: string }; next_best?: { model?: string } } | undefined;
  const l =
    ev?.leader?.model && ev.next_best?.model
      ? lead(doc, ev.leader.model, ev.next_best.model, row as BoardSeparation)
      : undefined;
  const groups = tieGroupsWords(doc);
  return [
    doc.bank_state ? `${doc.bank_state}: ${doc.bank_reason ?? ''}.` : '',
    l?.sentence ?? '',
    l?.reconcile ?? '',
    l?.settings ?? '',
    likeForLikeWords(doc),
    leaderGroupWords(doc),
    groups === ''
      ? ''
      : `Tie groups (models sharing a label are not separated, Holm-adjusted exact McNemar): ${groups}.`,
  ].filter((s) => s !== '');
}

export interface AxisPage {
  /** The row (its per_model moved to pages when too long), the definition, the page of the document. */
  value: Json;
  /** The next page's cursor, or null at the end. */
  next: string | null;
}

/**
 * A page of one axis: `{axis, row, definition, models, per_model?, page, sources}` within `budget`
 * bytes once `text` is beside it. `models` is the every-model document's head with this page's
 * models and pairs (the whole document when it fits). An error for a cursor that names no list.
 */
export function axisPage(
  axis: string,
  row: Json,
  definition: Json | null,
  doc: ModelsDocument | undefined,
  cursor: string | undefined,
  budget: number,
  /** The release and axis the cursor must be of ({@link cursorScope}). */
  scope: string,
): AxisPage | { error: string } {
  const perModel =
    Array.isArray(row.per_model) && jsonBytes(row) > ROW_BYTES ? (row.per_model as unknown[]) : undefined;
  const { per_model: _omitted, ...rowWithout } = row;
  const shownRow = perModel ? rowWithout : row;
  const cut: Record<string, Cut> = {};
  let shownDefinition = definition;
  if (definition && jsonBytes(definition) > DEFINITION_BYTES) {
    const fitted = fitLists(definition, DEFINITION_BYTES);
    shownDefinition = fitted.value;
    for (const [k, c] of Object.entries(fitted.cut)) cut[`definition.${k}`] = c;
  }
  const lists: Lists = [
    ...(doc
      ? ([
          ['models', doc.models],
          ['pairs', doc.pairs],
        ] as const)
      : []),
    ...(perModel ? ([['per_model', perModel]] as const) : []),
  ];
  const at = readCursor(lists, cursor, scope);
  if ('error' in at) return at;
  const head = doc ? documentHead(doc) : null;
  const sources = {
    row: `/api/gspc?axis=${axis}`,
    definition: definition ? `/peritem/axes/${axis}.json` : null,
    models: doc ? `/api/models?axis=${axis}` : null,
  };
  const frame = (taken: Record<string, unknown[]>, page: unknown): Json => ({
    axis,
    row: shownRow,
    definition: shownDefinition,
    models: head && { ...head, models: taken.models ?? [], pairs: taken.pairs ?? [] },
    ...(perModel && { per_model: taken.per_model ?? [] }),
    page,
    sources,
  });
  // The page object's own size is bounded (three spans, two cursors, the cut): 1 kB covers it.
  const room = budget - jsonBytes(frame({}, { cut })) - 1024;
  const { taken, page } = fillPage(lists, at, room, cursor ?? null, scope);
  return { value: frame(taken, { ...page, ...(Object.keys(cut).length > 0 && { cut }) }), next: page.next_cursor };
}

/** The budget of an answer's JSON once its text is set. */
export const answerRoom = (text: string): number => ANSWER_MAX_BYTES - ENVELOPE_BYTES - jsonBytes(text);
