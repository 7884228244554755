/**
 * `runs.json` for an import (issue 40 item 2; docs/import.md, "Run settings"): how each run's
 * harness says it ran the model on the axis, merged into the corpus's entries, one per (model,
 * axis). Nothing is invented: a setting no harness recorded stays absent (unknown). When the runs
 * of one (model, axis) (this import's, and what the entry already says) record different values
 * of a setting, its rows were not all run alike: the setting is left out (unknown) with a note
 * naming both values, never one value chosen (decision RS6). Runs that do not record a setting
 * do not count against it. `date` keeps the latest. A recorded value the corpus would refuse is
 * left out with a note. The file is rewritten only when an entry changes, in (model, axis) order.
 */
import { existsSync, readFileSync } from 'node:fs';
import { canonicalJson } from '../core/crypto/canonical-json.js';
import { formatProblem, GspcError } from '../core/errors.js';
import {
  orderedRun,
  RUN_SETTING_FIELDS,
  RUNS_FILE_SCHEMA,
  type RunEntry,
  type RunSettings,
  type SettingValue,
} from '../core/board/run-settings.js';
import { parseJsonFile } from '../corpus/json-file.js';
import { MAX_ENTRY_CHARS, RUNS_PATH, runEntryFields, runsFileSchema } from '../corpus/run-settings.js';

export interface RecordedRun {
  model: string;
  axis: string;
  fields: RunSettings;
  /** Where the harness recorded it, for messages. */
  source: string;
}

export interface RunsUpdate {
  /** The new file's text, or null when nothing changes. */
  text: string | null;
  created: boolean;
  /** `model on axis: field, field` for each entry the import changed. */
  filled: string[];
  /** Recorded values left out, and why. */
  notes: string[];
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** The corpus's entries; a file the corpus reader would refuse is refused here, never rewritten. */
function existingRuns(path: string): RunEntry[] | null {
  if (!existsSync(path)) return null;
  const parsed = parseJsonFile(RUNS_PATH, readFileSync(path, 'utf8'), runsFileSchema);
  if (!parsed.ok)
    throw new GspcError(
      'import_refused',
      `the corpus's runs.json is invalid, so no run setting was merged into it: ${parsed.problems.map(formatProblem).join('; ')}`,
    );
  return parsed.value.runs as RunEntry[];
}

/** One (model, axis) being merged: each setting's value and where it was read, or `conflict` once two differ. */
type Votes = Map<string, { value: SettingValue; from: string } | { conflict: string }>;

function vote(votes: Votes, name: string, value: SettingValue, from: string, notes: string[], who: string): void {
  const had = votes.get(name);
  if (had === undefined) votes.set(name, { value, from });
  else if ('value' in had && !same(had.value, value)) {
    if (name === 'date') {
      // The latest run's date: ISO 8601 UTC instants order as strings.
      if (String(value) > String(had.value)) votes.set(name, { value, from });
      return;
    }
    const why = `${who}: ${name} left out (unknown): ${canonicalJson(had.value)} (${had.from}) but ${canonicalJson(value)} (${from}); the rows of one model on one axis were not all run alike`;
    notes.push(why);
    votes.set(name, { conflict: why });
  }
}

/** The votes a run casts: every top-level setting, and generation and template key by key. */
function cast(votes: Votes, run: RunSettings, from: string, notes: string[], who: string): void {
  for (const f of RUN_SETTING_FIELDS) {
    const v = run[f];
    if (v === undefined) continue;
    if (f === 'generation' || f === 'template')
      for (const [k, x] of Object.entries(v as Record<string, SettingValue>))
        vote(votes, `${f}.${k}`, x, from, notes, who);
    else vote(votes, f, v as SettingValue, from, notes, who);
  }
}

function settingsOf(votes: Votes): RunSettings {
  const out: Record<string, unknown> = {};
  for (const [name, v] of votes) {
    if (!('value' in v)) continue;
    const dot = name.indexOf('.');
    if (dot === -1) out[name] = v.value;
    else {
      const group = name.slice(0, dot);
      ((out[group] ??= {}) as Record<string, SettingValue>)[name.slice(dot + 1)] = v.value;
    }
  }
  return orderedRun(out as RunSettings);
}

/** Leaves out, with a note, what the corpus schema would refuse (a negative shot count, a 5 kB template). */
function checked(r: RecordedRun, notes: string[]): RunSettings {
  const out: Record<string, unknown> = {};
  for (const f of RUN_SETTING_FIELDS) {
    const v = r.fields[f];
    if (v === undefined) continue;
    const check = runEntryFields.shape[f].safeParse(v);
    if (check.success) out[f] = v;
    else
      notes.push(
        `${r.source}: ${f} ${canonicalJson(v).slice(0, 80)} left out of ${r.model} on ${r.axis}: ${check.error.issues[0]?.message}`,
      );
  }
  return out as RunSettings;
}

/**
 * `asOf`: the corpus's `as_of` after the import. A run dated after it (an operator's `--as-of`
 * earlier than the run) is kept without its date, with a note: the corpus refuses a run that
 * postdates its board (decision RS10), and the rest of what the harness recorded still holds.
 */
export function runsFile(path: string, recorded: readonly RecordedRun[], asOf?: string): RunsUpdate {
  const existing = existingRuns(path);
  const key = (model: string, axis: string) => `${model}\0${axis}`;
  const entries = new Map<string, RunEntry>((existing ?? []).map((e) => [key(e.model, e.axis), e]));
  const votes = new Map<string, Votes>();
  const notes: string[] = [];
  for (const r of recorded) {
    const k = key(r.model, r.axis);
    const who = `${r.model} on ${r.axis}`;
    let v = votes.get(k);
    if (v === undefined) {
      v = new Map();
      votes.set(k, v);
      const before = entries.get(k);
      if (before !== undefined) {
        const { model: _m, axis: _a, ...settings } = before;
        cast(v, settings, RUNS_PATH, notes, who);
      }
    }
    const fields = checked(r, notes);
    if (asOf !== undefined && fields.date !== undefined && Date.parse(fields.date) > Date.parse(asOf)) {
      notes.push(`${r.source}: date ${fields.date} left out of ${who}: after the corpus's as_of ${asOf}`);
      delete fields.date;
    }
    cast(v, fields, r.source, notes, who);
  }
  const filled: string[] = [];
  for (const [k, v] of votes) {
    const [model, axis] = k.split('\0') as [string, string];
    const next = orderedRun(settingsOf(v), { model, axis }) as RunEntry;
    // An entry too long for the corpus (and for an agent's page): the template goes first, then
    // the generation settings, each with a note; what is left is still what the harness recorded.
    for (const f of ['template', 'generation'] as const)
      if (JSON.stringify(next).length > MAX_ENTRY_CHARS && next[f] !== undefined) {
        delete next[f];
        notes.push(
          `${model} on ${axis}: ${f} left out (unknown): the entry would be longer than ${MAX_ENTRY_CHARS} characters once written`,
        );
      }
    const before = entries.get(k);
    if (before !== undefined && same(before, next)) continue;
    if (before === undefined && Object.keys(next).length === 2) continue; // nothing recorded
    const changed = RUN_SETTING_FIELDS.filter((f) => !same(before?.[f] ?? null, next[f] ?? null));
    filled.push(`${model} on ${axis}: ${changed.join(', ')}`);
    entries.set(k, next);
  }
  if (filled.length === 0) return { text: null, created: false, filled: [], notes };
  const runs = [...entries.values()].sort((a, b) => byCodeUnit(a.model, b.model) || byCodeUnit(a.axis, b.axis));
  return {
    text: `${JSON.stringify({ schema: RUNS_FILE_SCHEMA, runs }, null, 2)}\n`,
    created: existing === null,
    filled,
    notes,
  };
}
