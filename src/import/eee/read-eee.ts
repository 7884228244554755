/**
 * The Every Eval Ever reader: instance-level JSONL files (schema v0.3.0), each line validated
 * against the official schema, joined with their aggregate records by `evaluation_id`.
 *
 * A file is streamed twice and never held whole: a first pass validates every line, refuses what
 * cannot be imported (an invalid record, a model-judged answer for a MEASURED axis, a sample
 * twice) before any row is given out, and groups the records into runs (one per model and
 * evaluation result: the schema asks for one record per sample and aggregate result); each
 * run's rows are then read in a second pass, which checks the file did not change in between.
 */
import { GspcError } from '../../core/errors.js';
import type { HarnessReader, ImportedRow, ImportedRun, ReadOptions } from '../imported.js';
import type { ClusterField } from '../cluster-field.js';
import { type FacetFields, withFacets } from '../facet-fields.js';
import { checkDescribes, refuseJudgedResult, reportedOf, resultFor } from './eee-aggregate.js';
import { eeeInputs, type EeeInputs } from './eee-files.js';
import type { EeeInstance } from './eee-records.js';
import { eeeRow } from './eee-row.js';
import { EEE_SCHEMA_VERSION, instanceErrors } from './eee-schema.js';
import { jsonlLines } from './jsonl-stream.js';
import { eeeCard } from './model-card.js';
import { eeeSettings } from './run-settings.js';

interface Group {
  evaluationId: string;
  model: string;
  evaluationName: string;
  resultId: string | undefined;
  records: number;
  judged: number;
  choices: string[];
  /** sample_id → first line, to refuse a sample twice in one evaluation result. */
  samples: Map<string, number>;
}

const groupKey = (r: EeeInstance) =>
  `${r.evaluation_id}\u0000${r.model_id}\u0000${r.evaluation_result_id ?? r.evaluation_name}`;

/** First pass: every line validated, the refusals made, the runs found. */
async function survey(
  file: string,
  opts: ReadOptions,
): Promise<{ groups: Map<string, Group>; sha256: string; records: number }> {
  const groups = new Map<string, Group>();
  let sha256 = '';
  let records = 0;
  for await (const { value, line } of jsonlLines(file, (h) => (sha256 = h))) {
    const errors = instanceErrors(value);
    if (errors.length > 0)
      throw new GspcError(
        'import_refused',
        `${file}:${line}: not an Every Eval Ever instance record (schema ${EEE_SCHEMA_VERSION}): ${errors.slice(0, 5).join('; ')}`,
      );
    const r = value as EeeInstance;
    const judged = r.answer_attribution.some((a) => a.extraction_method === 'llm_judge');
    if (judged && opts.measured === true)
      throw new GspcError(
        'import_refused',
        `${file}:${line}: the answer was extracted by a model acting as judge (answer_attribution extraction_method llm_judge); a MEASURED axis is graded by deterministic predicates only`,
      );
    const key = groupKey(r);
    let g = groups.get(key);
    if (g === undefined) {
      g = {
        evaluationId: r.evaluation_id,
        model: r.model_id,
        evaluationName: r.evaluation_name,
        resultId: r.evaluation_result_id,
        records: 0,
        judged: 0,
        choices: [],
        samples: new Map(),
      };
      groups.set(key, g);
    }
    const first = g.samples.get(r.sample_id);
    if (first !== undefined)
      throw new GspcError(
        'import_refused',
        `${file}:${line}: sample '${r.sample_id}' appears twice for evaluation result '${r.evaluation_result_id ?? r.evaluation_name}' of ${r.model_id} (first on line ${first})`,
      );
    g.samples.set(r.sample_id, line);
    g.records++;
    if (judged) g.judged++;
    for (const c of r.input.choices ?? []) if (!g.choices.includes(c)) g.choices.push(c);
    records++;
  }
  return { groups, sha256, records };
}

/** Second pass: the rows of one run, from a file that must still have the surveyed bytes. */
async function* rowsOf(
  file: string,
  key: string,
  sha256: string,
  cluster: ClusterField | undefined,
  facets: FacetFields | undefined,
): AsyncGenerator<ImportedRow> {
  let now = '';
  for await (const { value, line } of jsonlLines(file, (h) => (now = h))) {
    const r = value as EeeInstance;
    if (groupKey(r) === key) {
      const row = eeeRow(r, `${file}:${line}`, sha256, cluster);
      withFacets(row, facets, r, row.at);
      yield row;
    }
  }
  if (now !== sha256)
    throw new GspcError('import_refused', `${file}: changed while it was being imported (its SHA-256 differs)`);
}

function runOf(file: string, g: Group, key: string, sha256: string, inputs: EeeInputs, opts: ReadOptions): ImportedRun {
  const resultName = g.resultId ?? g.evaluationName;
  const notes = [
    `evaluation '${g.evaluationName}' (result '${resultName}') of evaluation_id '${g.evaluationId}': ${g.records} records`,
  ];
  if (g.judged > 0)
    notes.push(`${g.judged} records were extracted by llm_judge; accepted because the target axis is not MEASURED`);
  let reported: ImportedRun['reported'] = null;
  let settings: ImportedRun['settings'];
  const agg = inputs.aggregates.get(g.evaluationId);
  if (agg === undefined) {
    notes.push(
      `no aggregate record with evaluation_id '${g.evaluationId}' was given or found beside ${file}: no reported score to compare`,
    );
  } else {
    if (agg.record.model_info.id !== g.model)
      throw new GspcError(
        'import_refused',
        `${file}: records of model '${g.model}' under evaluation_id '${g.evaluationId}', whose aggregate record ${agg.file} is of model '${agg.record.model_info.id}'`,
      );
    const result = resultFor(agg.record, g.resultId, g.evaluationName);
    const fields = eeeSettings(agg.record, result);
    if (Object.keys(fields).length > 0) settings = { fields, source: `${agg.file} eval_library and generation_config` };
    if (result === undefined) {
      notes.push(`aggregate record ${agg.file} has no evaluation result '${resultName}': no reported score to compare`);
    } else {
      refuseJudgedResult(agg.file, result, opts.measured);
      const r = reportedOf(agg.file, result);
      reported = r.reported;
      if (r.note !== undefined) notes.push(r.note);
    }
  }
  return {
    format: 'eee',
    // An instance file carries no time of its own; the aggregate's evaluation time is not read yet.
    as_of: null,
    task: g.evaluationName,
    model: g.model,
    source: { file, sha256 },
    labels: g.choices.length > 0 ? g.choices : null,
    reported,
    notes,
    rows: rowsOf(file, key, sha256, opts.cluster, opts.facets),
    ...(agg !== undefined && { card: { fields: eeeCard(agg.record), source: `${agg.file} model_info` } }),
    ...(settings !== undefined && { settings }),
  };
}

export const readEee: HarnessReader = async function* (paths, opts) {
  const inputs = eeeInputs(paths);
  // Every file is surveyed before the first run is given out, so a refusal anywhere comes first.
  const runs: ImportedRun[] = [];
  for (const file of inputs.instanceFiles) {
    const { groups, sha256, records } = await survey(file, opts);
    for (const id of new Set([...groups.values()].map((g) => g.evaluationId))) {
      const agg = inputs.aggregates.get(id);
      if (agg !== undefined) checkDescribes(agg, file, sha256, records);
    }
    for (const [key, g] of groups) runs.push(runOf(file, g, key, sha256, inputs, opts));
  }
  yield* runs;
};
