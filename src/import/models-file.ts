/**
 * `models.json` for an import (issue 40; docs/import.md, "Model cards"): the card fields each run's
 * harness recorded, merged into the corpus's cards. Nothing is invented: a field no harness
 * recorded stays absent (unknown), and what the operator wrote is kept. Two values of one field:
 *
 * - `revision`, `sha`, `dtype` (what a run used) keep every value, as a sorted list, so a card
 *   never hides that two revisions were measured (decision MC4);
 * - any other field (a fact about the model, not the run) is refused with both values and where
 *   each comes from: one of them is wrong, and the importer cannot say which.
 *
 * A recorded value the corpus schema would refuse (a sha that is not hex) is left out with a note,
 * never written into a corpus that would then not validate. The file is rewritten only when a
 * card changes, with cards in model-id order, so importing the same runs again changes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  MODEL_CARD_FIELDS,
  MODEL_CARDS_FILE_SCHEMA,
  RUN_FIELDS,
  orderedCard,
  type ModelCard,
  type ModelCardField,
  type ModelCardsFile,
  type RecordedCard,
} from '../core/board/model-card.js';
import { formatProblem, GspcError } from '../core/errors.js';
import { parseJsonFile } from '../corpus/json-file.js';
import { MODEL_CARDS_PATH, modelCardSchema, modelCardsFileSchema } from '../corpus/model-cards.js';

export interface Recorded {
  model: string;
  fields: RecordedCard;
  /** Where the harness recorded it, for messages. */
  source: string;
}

export interface ModelCardsUpdate {
  /** The new file's text, or null when nothing changes. */
  text: string | null;
  created: boolean;
  /** `model: field, field` for each card the import added to. */
  filled: string[];
  /** Recorded values left out, and why. */
  notes: string[];
}

const isRunField = (f: ModelCardField): f is (typeof RUN_FIELDS)[number] =>
  (RUN_FIELDS as readonly string[]).includes(f);
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const show = (v: unknown) => JSON.stringify(v);

/** The corpus's cards; a file the corpus reader would refuse is refused here, never rewritten. */
function existingCards(path: string): ModelCard[] | null {
  if (!existsSync(path)) return null;
  const parsed = parseJsonFile(MODEL_CARDS_PATH, readFileSync(path, 'utf8'), modelCardsFileSchema);
  if (!parsed.ok)
    throw new GspcError(
      'import_refused',
      `the corpus's models.json is invalid, so no card was merged into it: ${parsed.problems.map(formatProblem).join('; ')}`,
    );
  return parsed.value.models as ModelCard[];
}

export function modelCardsFile(path: string, recorded: readonly Recorded[]): ModelCardsUpdate {
  const existing = existingCards(path);
  const cards = new Map<string, Record<string, unknown>>((existing ?? []).map((c) => [c.model, { ...c }]));
  // Where each value of this import was read: `model\0field\0value` → source.
  const from = new Map<string, string>();
  const filled = new Map<string, Set<string>>();
  const notes: string[] = [];
  for (const r of recorded) {
    for (const field of MODEL_CARD_FIELDS) {
      const value = r.fields[field];
      if (value === undefined) continue;
      const check = modelCardSchema.shape[field].safeParse(value);
      if (!check.success) {
        notes.push(
          `${r.source}: ${field} ${show(value)} left out of ${r.model}'s card: ${check.error.issues[0]?.message}`,
        );
        continue;
      }
      const card = cards.get(r.model) ?? { model: r.model };
      cards.set(r.model, card);
      const had = card[field];
      const key = (v: unknown) => `${r.model}\0${field}\0${show(v)}`;
      if (!from.has(key(value))) from.set(key(value), r.source);
      if (had === undefined) card[field] = value;
      else if (isRunField(field)) {
        const before = Array.isArray(had) ? (had as string[]) : [had as string];
        const values = new Set([...before, value as string]);
        if (values.size === before.length) continue; // recorded already
        card[field] = [...values].sort(byCodeUnit);
      } else if (show(had) !== show(value)) {
        const where = from.get(key(had)) ?? 'models.json';
        throw new GspcError(
          'import_refused',
          `${r.model}: ${field} ${show(had)} (${where}) but ${show(value)} (${r.source}): a card holds one ${field}; correct models.json or the run, then import again`,
        );
      } else continue;
      if (show(card[field]) !== show(had)) {
        const set = filled.get(r.model) ?? new Set<string>();
        set.add(field);
        filled.set(r.model, set);
      }
    }
  }
  if (filled.size === 0) return { text: null, created: false, filled: [], notes };
  const models = [...cards.values()]
    .map((c) => orderedCard(c as unknown as ModelCard))
    .sort((a, b) => byCodeUnit(a.model, b.model));
  const file: ModelCardsFile = { schema: MODEL_CARDS_FILE_SCHEMA, models };
  return {
    text: `${JSON.stringify(file, null, 2)}\n`,
    created: existing === null,
    filled: [...filled].map(([m, f]) => `${m}: ${MODEL_CARD_FIELDS.filter((x) => f.has(x)).join(', ')}`),
    notes,
  };
}
