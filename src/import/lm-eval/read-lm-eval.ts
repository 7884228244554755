/**
 * The lm-evaluation-harness reader: one run per `samples_<task>_<time>.jsonl` (docs/import.md,
 * "lm-evaluation-harness"). The samples file is streamed line by line; the sibling results file
 * gives the model, the version, the date and the reported aggregate.
 */
import { basename } from 'node:path';
import { GspcError } from '../../core/errors.js';
import type { HarnessReader, ImportedRow, ImportedRun, ReadOptions } from '../imported.js';
import { withFacets } from '../facet-fields.js';
import { isBlank, LineFile, sha256File } from '../jsonl-lines.js';
import { fileTimeAsIso, findSamplesFiles, siblingResults, type SamplesFile } from './files.js';
import { readResults, reportedAggregate, type LmEvalResults } from './results-file.js';
import { readSample } from './sample-row.js';

/** lm-eval's scorers compare strings as written (exact_match's options live in the task YAML, which the samples do not carry). */
const verbatim = (s: string) => s;

function modelOf(f: SamplesFile, results: LmEvalResults | null, opts: ReadOptions): string {
  const named = results?.model ?? null;
  if (named !== null && opts.model !== undefined && opts.model !== named)
    throw new GspcError(
      'import_refused',
      `${f.path}: the results file names the model '${named}', --model says '${opts.model}'; drop --model or fix the file`,
    );
  const model = named ?? opts.model;
  if (model === undefined)
    throw new GspcError(
      'import_refused',
      `${f.path}: no model: there is no results_*.json beside it naming model_name or config.model_args; pass --model <id>`,
    );
  return model;
}

/** The tasks of the import's samples files, so a run of part of a group can say so (decision MG3). */
function openRun(f: SamplesFile, opts: ReadOptions, imported: ReadonlySet<string>): ImportedRun {
  const resultsPath = siblingResults(f, (p) => readResults(p).tasks[f.task] !== undefined);
  const results = resultsPath === null ? null : readResults(resultsPath);
  // One array for every row of the run: the rows of a task share their tags (group-tags.ts).
  const tags = results?.tags(f.task);
  const model = modelOf(f, results, opts);
  const sha256 = sha256File(f.path);
  const file = new LineFile(f.path);
  const name = basename(f.path);
  const run: ImportedRun = {
    format: 'lm-eval',
    task: f.task,
    model,
    source: { file: f.path, sha256 },
    as_of: results?.as_of ?? fileTimeAsIso(f.time),
    labels: null,
    reported: null,
    notes: [],
    rows: rows(),
    progress: () => file.progress(),
    ...(results !== null &&
      Object.keys(results.card).length > 0 && {
        card: { fields: results.card, source: `${basename(results.path)} config` },
      }),
    // Settings are the results file's: without one, nothing says how the samples were made.
    ...(results !== null && {
      settings: { fields: results.settings(f.task), source: `${basename(results.path)} (${f.task})` },
    }),
  };
  if (results === null) run.notes.push(`${name}: no results file beside it: no reported aggregate to check against`);
  if (results !== null && tags !== undefined) {
    const missing = results.leaves(tags.slice(1)).filter((t) => !imported.has(t));
    if (missing.length > 0)
      run.notes.push(
        `${basename(results.path)}: group ${tags.at(-1)} lists ${missing.length} subtask${missing.length === 1 ? '' : 's'} with no samples in this import ` +
          `(${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}): its tags name part of the group`,
      );
  }
  if (results === null || results.as_of === null)
    run.notes.push(`${name}: as_of taken from the file name's time (zone not stated)`);

  function* rows(): Generator<ImportedRow> {
    let chosen = opts.filter;
    const seen = new Map<string, number>(); // filter → rows, in order of first appearance
    let metric: 'acc' | 'exact_match' | undefined;
    let choices = 0;
    for (const { line, text } of file.lines()) {
      const at = `${f.path}:${line}`;
      if (isBlank(text)) throw new GspcError('import_refused', `${at}: blank line`);
      let s: Record<string, unknown>;
      try {
        s = JSON.parse(text) as Record<string, unknown>;
      } catch (e) {
        throw new GspcError('import_refused', `${at}: invalid JSON (${(e as Error).message})`);
      }
      const filter = typeof s.filter === 'string' ? s.filter : 'none';
      seen.set(filter, (seen.get(filter) ?? 0) + 1);
      chosen ??= filter; // default: the task's first filter
      if (filter !== chosen) continue; // never n × filters: one filter per item
      const r = readSample(s, at);
      if (metric !== undefined && r.metric !== metric)
        throw new GspcError('import_refused', `${at}: metric ${r.metric} after rows scored by ${metric}`);
      metric = r.metric;
      choices = Math.max(choices, r.choices ?? 0);
      const docId = s.doc_id;
      if (typeof docId !== 'number' && typeof docId !== 'string')
        throw new GspcError('import_refused', `${at}: doc_id must be a number or a string`);
      const row: ImportedRow = {
        item: `${f.task}/${docId}`,
        model,
        gold: r.gold,
        label: r.label,
        provenance: {
          harness: 'lm-eval',
          harness_version: results?.version ?? null,
          task: f.task,
          sample_id: docId,
          filter,
          response: r.response,
          source_sha256: sha256,
        },
        verdict: { correct: r.correct, raw: r.raw, metric: r.metric, normalise: verbatim },
        at,
      };
      if (typeof s.doc_hash === 'string' && /^[0-9a-f]{64}$/.test(s.doc_hash)) row.item_hash = s.doc_hash;
      if (opts.cluster) row.cluster = opts.cluster.of(s, at); // the sample line: doc.<field>, doc_id, …
      if (tags !== undefined) row.tags = tags;
      withFacets(row, opts.facets, s, at);
      yield row;
    }
    const filters = [...seen.keys()];
    if (chosen !== undefined && !seen.has(chosen))
      throw new GspcError(
        'import_refused',
        `${f.path}: no rows with filter '${chosen}'; the filters in this file are: ${filters.join(', ')}`,
      );
    if (filters.length > 1) {
      const skipped = filters.filter((x) => x !== chosen);
      run.notes.push(
        `filter ${chosen} taken (${opts.filter === undefined ? 'the first in the file; --filter to choose' : '--filter'}); ` +
          `${skipped.reduce((n, x) => n + seen.get(x)!, 0)} rows of other filters skipped (${skipped.join(', ')})`,
      );
    }
    if (choices > 0) run.labels = Array.from({ length: choices }, (_, i) => String(i));
    if (results !== null && metric !== undefined && chosen !== undefined) {
      run.reported = reportedAggregate(results, f.task, metric, chosen);
      if (run.reported === null)
        run.notes.push(`${basename(results.path)}: no results.${f.task}["${metric},${chosen}"] to check against`);
    }
  }
  return run;
}

export const readLmEval: HarnessReader = async function* (paths, opts) {
  const files = findSamplesFiles(paths);
  const imported = new Set(files.map((f) => f.task));
  for (const f of files) yield openRun(f, opts, imported);
};
