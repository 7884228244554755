/**
 * What an Every Eval Ever aggregate record contributes to an import: a check that it describes
 * the instance file read (its checksum and row count), a refusal when a model judged the result
 * and the axis is MEASURED, and the reported score to compare the rows with.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GspcError } from '../../core/errors.js';
import type { ReportedAggregate } from '../imported.js';
import type { EeeAggregate, EeeResult } from './eee-records.js';

/** Metrics that are the share of rows right, so they compare with label ∈ gold. */
const ACCURACY_IDS = new Set(['accuracy', 'acc', 'exact_match', 'em']);

/**
 * Refuses an aggregate whose `detailed_evaluation_results` names another file's bytes (checksum)
 * or another number of rows (`total_rows`) than the instance file read.
 */
export function checkDescribes(
  agg: { file: string; record: EeeAggregate },
  instanceFile: string,
  sha256: string,
  lines: number,
): void {
  const d = agg.record.detailed_evaluation_results;
  if (d === undefined) return;
  if (d.checksum !== undefined) {
    const algorithm = d.hash_algorithm ?? (d.checksum.length === 32 ? 'md5' : 'sha256');
    const actual = algorithm === 'sha256' ? sha256 : createHash('md5').update(readFileSync(instanceFile)).digest('hex');
    if (actual !== d.checksum.toLowerCase())
      throw new GspcError(
        'import_refused',
        `${instanceFile}: its ${algorithm} is ${actual}, but its aggregate record ${agg.file} gives ${d.checksum} (detailed_evaluation_results.checksum): the aggregate describes other bytes`,
      );
  }
  if (d.total_rows !== undefined && d.total_rows !== lines)
    throw new GspcError(
      'import_refused',
      `${instanceFile}: ${lines} records, but its aggregate record ${agg.file} gives total_rows ${d.total_rows}`,
    );
}

/** The aggregate's result for the instance records' evaluation result (by id, else by name). */
export function resultFor(
  agg: EeeAggregate,
  resultId: string | undefined,
  evaluationName: string,
): EeeResult | undefined {
  const byId = resultId === undefined ? [] : agg.evaluation_results.filter((r) => r.evaluation_result_id === resultId);
  if (byId.length === 1) return byId[0];
  const byName = agg.evaluation_results.filter((r) => r.evaluation_name === evaluationName);
  return byName.length === 1 ? byName[0] : undefined;
}

/** A model acting as judge scored the result: refused for a MEASURED axis (deterministic grading only). */
export function refuseJudgedResult(aggFile: string, result: EeeResult, measured: boolean | undefined): void {
  if (measured === true && result.metric_config.llm_scoring !== undefined)
    throw new GspcError(
      'import_refused',
      `${aggFile}: evaluation result '${result.evaluation_result_id ?? result.evaluation_name}' was scored by a model acting as judge (metric_config.llm_scoring); a MEASURED axis is graded by deterministic predicates only`,
    );
}

/**
 * The reported score, when it is an accuracy. EEE scores count every record (is_correct false
 * when nothing was extracted) unless the record says otherwise: `gspc export eee` writes
 * `details.denominator = "parsed"`, the board's rule, and then the scored rows are the denominator.
 */
export function reportedOf(aggFile: string, result: EeeResult): { reported: ReportedAggregate | null; note?: string } {
  const m = result.metric_config;
  const metric = m.metric_id ?? m.metric_name ?? m.metric_kind ?? 'score';
  if (m.metric_kind !== 'accuracy' && !ACCURACY_IDS.has(metric.toLowerCase()))
    return { reported: null, note: `the aggregate's metric is ${metric}, not an accuracy: not compared with the rows` };
  return {
    reported: {
      metric,
      value: result.score_details.score,
      denominator: result.score_details.details?.denominator === 'parsed' ? 'scored' : 'all',
      source: `${aggFile} evaluation_results[${result.evaluation_result_id ?? result.evaluation_name}].score_details.score`,
    },
  };
}
