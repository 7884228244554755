/**
 * The parts of an Inspect log this reader uses, read from the parsed JSON with checks that name
 * the file. One shape covers log versions 1-3 and both containers: a `.json` log is the header
 * fields plus `samples`; an `.eval` ZIP has them in `header.json` and `samples/<id>_epoch_<n>.json`.
 * Version 1 differs in its results (`results.scorer` + `results.metrics`, not `results.scores[]`)
 * and samples (`score`, not `scores`).
 */
import { GspcError } from '../../core/errors.js';
import type { RunSettings } from '../../core/board/run-settings.js';
import { inspectSettings } from './run-settings.js';

type Json = Record<string, unknown>;

/** One scorer's results entry (`results.scores[i]`, or the version-1 `results`). */
export interface ScorerResult {
  name: string;
  params: Json;
  /** `metrics.accuracy.value` as written (NaN when Python wrote NaN), undefined when absent. */
  accuracy: unknown;
  /** Where `accuracy` was read, for messages and the reported aggregate. */
  source: string;
  /** `reducer`: how Inspect reduced each sample's epochs before the metric (newer logs say so). */
  reducer: string | null;
}

export interface LogHeader {
  /** The log format version (1-3); null when the file states none (Every Eval Ever's copies). */
  version: number | null;
  /** `success`, `cancelled`, `error` or `started`. */
  status: string;
  task: string;
  model: string;
  /** `eval.packages.inspect_ai`, when present. */
  inspectVersion: string | null;
  /** `eval.created` as ISO 8601 UTC (the run's as-of), when present and readable. */
  created: string | null;
  /** `eval.config.epochs`: how many times each sample ran (1 when unstated). */
  epochs: number;
  /** `eval.config.epochs_reducer`: the reducers asked for (Inspect's default, `mean`, when null). */
  epochsReducer: string[] | null;
  /** `eval.scorers[]`: name, options and metadata as the task declared them (absent in older logs). */
  declared: { name: string; options: Json; metadata: Json }[];
  /** Null when the log has no `results` (a run that never finished). */
  results: ScorerResult[] | null;
  /** How the run was made, as the log records it (run-settings.ts). */
  settings: RunSettings;
}

export interface LogSample {
  id: string | number;
  epoch: number;
  target: string | string[];
  choices: string[] | null;
  /** Scores by scorer name (`{value, answer, explanation, metadata}` each). */
  scores: Record<string, { value: unknown; answer: unknown }>;
  /** The model's raw completion, or null when the output holds no text. */
  response: string | null;
  /** The sample as the log has it (read by `--cluster`; dropped with the sample once read). */
  record: Json;
}

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const objectOr = (x: unknown): Json => (isObject(x) ? x : {});

/** Reads a header (`header.json`, `_journal/start.json` or a whole `.json` log); refuses what is not an Inspect log. */
export function readHeader(doc: unknown, where: string): LogHeader {
  const evalSpec = isObject(doc) ? doc['eval'] : undefined;
  if (!isObject(doc) || !isObject(evalSpec) || typeof evalSpec['task'] !== 'string')
    throw new GspcError('import_refused', `${where}: not an Inspect AI log (no eval.task)`);
  if (typeof evalSpec['model'] !== 'string' || evalSpec['model'] === '')
    throw new GspcError('import_refused', `${where}: the Inspect log names no model (eval.model)`);
  const version = doc['version'];
  if (version !== undefined && (typeof version !== 'number' || version < 1 || version > 3))
    throw new GspcError('import_refused', `${where}: Inspect log version ${String(version)} is not one of 1-3`);
  const config = objectOr(evalSpec['config']);
  const epochs = typeof config['epochs'] === 'number' && config['epochs'] >= 1 ? config['epochs'] : 1;
  const reducers = config['epochs_reducer'];
  const epochsReducer =
    typeof reducers === 'string' ? [reducers] : Array.isArray(reducers) ? reducers.map((r) => String(r)) : null;
  const inspect = objectOr(evalSpec['packages'])['inspect_ai'];
  const declared = (Array.isArray(evalSpec['scorers']) ? evalSpec['scorers'] : []).filter(isObject).map((s) => ({
    name: String(s['name']),
    options: objectOr(s['options']),
    metadata: objectOr(s['metadata']),
  }));
  const inspectVersion = typeof inspect === 'string' ? inspect : null;
  const created = utcOf(evalSpec['created']);
  return {
    version: typeof version === 'number' ? version : null,
    status: typeof doc['status'] === 'string' ? doc['status'] : 'started',
    task: evalSpec['task'],
    model: evalSpec['model'],
    inspectVersion,
    created,
    epochs,
    epochsReducer,
    declared,
    results: 'results' in doc && isObject(doc['results']) ? readResults(doc['results'], where) : null,
    settings: inspectSettings(doc, evalSpec, inspectVersion, created),
  };
}

/** An ISO 8601 time with any offset, as UTC (`…Z`), or null when it is not one. */
function utcOf(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace(/\.000Z$/, 'Z');
}

function readResults(results: Json, at: string): ScorerResult[] {
  const accuracyOf = (metrics: unknown) => objectOr(objectOr(metrics)['accuracy'])['value'];
  if (Array.isArray(results['scores']))
    return results['scores'].filter(isObject).map((s, i) => ({
      name: String(s['name'] ?? s['scorer']),
      params: objectOr(s['params']),
      accuracy: accuracyOf(s['metrics']),
      source: `${at} results.scores[${i}].metrics.accuracy`,
      reducer: typeof s['reducer'] === 'string' ? s['reducer'] : null,
    }));
  // Version 1: one scorer, metrics beside it.
  const scorer = objectOr(results['scorer']);
  if (typeof scorer['name'] !== 'string') return [];
  return [
    {
      name: scorer['name'],
      params: objectOr(scorer['params']),
      accuracy: accuracyOf(results['metrics']),
      source: `${at} results.metrics.accuracy`,
      reducer: null,
    },
  ];
}

/** Reads one sample; refuses one without an id or a target (nothing to pair or grade). */
export function readSample(doc: unknown, where: string): LogSample {
  if (!isObject(doc)) throw new GspcError('import_refused', `${where}: a sample is not a JSON object`);
  const id = doc['id'];
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new GspcError('import_refused', `${where}: the sample has no id`);
  const target = doc['target'];
  const targetOk = typeof target === 'string' || (Array.isArray(target) && target.every((t) => typeof t === 'string'));
  if (!targetOk) throw new GspcError('import_refused', `${where}: sample ${id} has no string or list target`);
  const choices = doc['choices'];
  const scores = isObject(doc['scores']) ? doc['scores'] : isObject(doc['score']) ? { '': doc['score'] } : {};
  return {
    id,
    epoch: typeof doc['epoch'] === 'number' ? doc['epoch'] : 1,
    target: target as string | string[],
    choices: Array.isArray(choices) ? choices.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))) : null,
    scores: Object.fromEntries(
      Object.entries(scores).map(([k, s]) => [k, { value: objectOr(s)['value'], answer: objectOr(s)['answer'] }]),
    ),
    response: responseOf(doc['output']),
    record: doc,
  };
}

/** `output.completion`, else the text of the first choice's message (older logs have no completion). */
function responseOf(output: unknown): string | null {
  const out = objectOr(output);
  if (typeof out['completion'] === 'string') return out['completion'];
  const first = Array.isArray(out['choices']) ? objectOr(out['choices'][0]) : {};
  const content = objectOr(first['message'])['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter(isObject).flatMap((part) => (typeof part['text'] === 'string' ? [part['text']] : []));
  return texts.length > 0 ? texts.join('') : null;
}
