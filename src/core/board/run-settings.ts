/**
 * How a model was run on an axis (issue 40, item 2): the settings a harness recorded for one
 * (model, axis), read from the corpus's optional `runs.json`, and the rule that says whether two
 * models were run alike (docs/methodology.md §12, "Like for like"). An absent field is unknown,
 * never a default. Pure: the corpus reader attaches each entry to its model's column of the axis
 * (item-table.ts), and the board row and `/api/models` ask {@link compareRuns} about a pair.
 */
import { canonicalJson } from '../crypto/canonical-json.js';

export const RUNS_FILE_SCHEMA = 'svc.gspc-corpus-runs/1';
export const RUNS_PATH = 'runs.json';

/** A recorded value, verbatim as the harness wrote it (JSON data). */
export type SettingValue = string | number | boolean | null | SettingValue[] | { [k: string]: SettingValue };

export interface RunSettings {
  /** Which harness ran it: `lm-eval`, `inspect`, `helm`, or as an Every Eval Ever record names it. */
  harness?: string;
  harness_version?: string;
  /** When the run was made (ISO 8601 UTC, `…Z`). */
  date?: string;
  /** Worked examples put in the prompt before each item (lm-eval num_fewshot, HELM max_train_instances). */
  shots?: number;
  /** The cap on items the harness was told to run (lm-eval --limit, Inspect limit, HELM max_eval_instances). */
  limit?: number;
  /** Sampling and length settings, under the harness's own names (temperature, max_gen_toks, stop_sequences, …). */
  generation?: Record<string, SettingValue>;
  /** How an item is put to the model, under the harness's own names (HELM's prefixes, Inspect's task arguments, …). */
  template?: Record<string, SettingValue>;
}

export interface RunEntry extends RunSettings {
  model: string;
  axis: string;
}

/** The fields of an entry, in the order the file and the documents give them. */
export const RUN_SETTING_FIELDS = [
  'harness',
  'harness_version',
  'date',
  'shots',
  'limit',
  'generation',
  'template',
] as const satisfies readonly (keyof RunSettings)[];

/** An entry with its fields in the canonical order, absent ones left out. */
export function orderedRun<T extends RunSettings>(entry: T, head: Partial<RunEntry> = {}): T {
  const out: Record<string, unknown> = { ...head };
  for (const f of RUN_SETTING_FIELDS) if (entry[f] !== undefined) out[f] = entry[f];
  return out as T;
}

/** Whether two models were run alike, as far as their runs recorded (docs/methodology.md §12). */
export interface RunComparison {
  /** false: a setting that changes the task differs; null: cannot be told; true: nothing recorded differs or is recorded on one side only. */
  like: boolean | null;
  /** The settings that differ (`shots`, `generation.temperature`, `template.method`). */
  differ: string[];
  /** The settings recorded for one model and not the other. */
  unknown: string[];
  /** The differences in words: `shots 0 against 5; generation.temperature 0 against 0.7`. */
  words: string;
}

const SAME: RunComparison = Object.freeze({ like: true, differ: [], unknown: [], words: '' }) as RunComparison;
const NOTHING: RunComparison = Object.freeze({ like: null, differ: [], unknown: [], words: '' }) as RunComparison;

/** A value in a sentence: short, and one line. */
function shown(v: SettingValue): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

/**
 * The settings that change the task, each as its JSON text (undefined: not recorded): the
 * harness, the shots, every generation and every template setting, in code-unit order, with a
 * signature (all of them as one text) that two runs recorded alike share. The harness's version,
 * the date and the limit are not compared (docs/methodology.md §12 says why).
 */
interface Compared {
  names: string[];
  text: Map<string, string>;
  values: Map<string, SettingValue>;
  signature: string;
}

/**
 * Built once per settings object: at 1,000 models each is compared with 999 others, and 500,000
 * pairs re-writing the same values as JSON took 3.4 s of a build the server runs in slices.
 */
const comparedOf = new WeakMap<RunSettings, Compared>();

function compared(s: RunSettings): Compared {
  let c = comparedOf.get(s);
  if (c !== undefined) return c;
  const values = new Map<string, SettingValue>();
  if (s.harness !== undefined) values.set('harness', s.harness);
  if (s.shots !== undefined) values.set('shots', s.shots);
  for (const [k, v] of Object.entries(s.generation ?? {})) values.set(`generation.${k}`, v);
  for (const [k, v] of Object.entries(s.template ?? {})) values.set(`template.${k}`, v);
  const names = [...values.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const text = new Map(names.map((n) => [n, canonicalJson(values.get(n))]));
  c = { names, text, values, signature: canonicalJson(names.map((n) => [n, text.get(n)])) };
  comparedOf.set(s, c);
  return c;
}

const NONE: Compared = { names: [], text: new Map(), values: new Map(), signature: '[]' };

/**
 * The rule (decision RS3): a compared setting recorded for both models with different values
 * makes the pair not like for like (`like: false`); otherwise a compared setting recorded for
 * one model only, or a model with no recorded settings at all, makes it unknown (`like: null`,
 * never like for like); otherwise it is like for like as far as the runs recorded.
 */
export function compareRuns(x: RunSettings | undefined, y: RunSettings | undefined): RunComparison {
  if (x === undefined && y === undefined) return NOTHING;
  const cx = x === undefined ? NONE : compared(x);
  const cy = y === undefined ? NONE : compared(y);
  // Recorded alike (the usual pair of one harness's runs): nothing to look at one by one.
  if (x !== undefined && y !== undefined && cx.signature === cy.signature) return SAME;
  const differ: string[] = [];
  const unknown: string[] = [];
  const words: string[] = [];
  // In code-unit order, so a pair's lists read the same whichever model comes first.
  const names = [...new Set([...cx.names, ...cy.names])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const a = cx.text.get(name);
    const b = cy.text.get(name);
    if (a === undefined || b === undefined) unknown.push(name);
    else if (a !== b) {
      differ.push(name);
      words.push(`${name} ${shown(cx.values.get(name)!)} against ${shown(cy.values.get(name)!)}`);
    }
  }
  if (differ.length > 0) return { like: false, differ, unknown, words: words.join('; ') };
  if (x === undefined || y === undefined || unknown.length > 0) return { like: null, differ, unknown, words: '' };
  return SAME;
}

/** The UNTESTED reason of a pair whose settings differ: the same words on the board and in `/api/models`. */
export const notLikeForLike = (first: string, second: string, c: RunComparison): string =>
  `not like for like: ${first} and ${second} were run with different settings (${c.words}), so the pairing is refused`;
