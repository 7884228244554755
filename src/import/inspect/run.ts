/**
 * One Inspect log as an ImportedRun: the refusals that need only the header (status, judge, no
 * scores), the scorer, the reported accuracy, the labels menu, and the rows, built lazily as the
 * samples stream in. Both containers (`.eval`, `.json`) hand over the same LogSource.
 */
import { GspcError } from '../../core/errors.js';
import type { ImportedRow, ImportedRun, ReadOptions, ReportedAggregate } from '../imported.js';
import { withFacets } from '../facet-fields.js';
import { EpochReducer } from './epochs.js';
import { type Grading, gradingFor } from './grading.js';
import { judgeOf } from './judge.js';
import type { LogHeader, LogSample, ScorerResult } from './log-shape.js';
import { sampleUsage } from './usage.js';
import { readVerdict } from './verdict.js';

export interface LogSource {
  file: string;
  sha256: string;
  header: LogHeader;
  /** Samples already read before the rows (`.json`: all; `.eval`: the first entry), for the labels menu. */
  early: readonly LogSample[];
  /** How many samples the log holds (0: refused as "no scored items"). */
  sampleCount: number;
  /** Every sample with where it was read (`file!samples/1_epoch_1.json`). */
  samples: () => AsyncIterable<{ sample: LogSample; at: string }>;
}

const INCOMPLETE = new Set(['cancelled', 'error', 'started']);

export function buildRun(src: LogSource, opts: ReadOptions): ImportedRun {
  const { file, header } = src;
  const notes: string[] = [];
  if (INCOMPLETE.has(header.status)) {
    if (!opts.allowIncomplete)
      throw new GspcError(
        'import_refused',
        `${file}: the run's status is ${header.status}; an incomplete run is imported only with --allow-incomplete`,
      );
    notes.push(`the run's status is ${header.status}: imported as asked (--allow-incomplete)`);
  }
  const scorer = chooseScorer(src, notes);
  const declared = header.declared.find((d) => d.name === scorer.name);
  const judge = judgeOf(scorer.name, scorer.params, declared?.options ?? {}, declared?.metadata ?? {});
  if (judge !== null && opts.measured)
    throw new GspcError(
      'import_refused',
      `${file}: ${judge}; refused for a MEASURED axis, where grading is by deterministic predicates only`,
    );
  if (judge !== null) notes.push(`${judge}: not importable into a MEASURED axis`);
  if (src.sampleCount === 0)
    throw new GspcError(
      'import_refused',
      `${file}: no scored items: the log holds no samples (written without --log-samples?)`,
    );
  const params = { ...(declared?.options ?? {}), ...scorer.params };
  const grading = gradingFor(scorer.name, params);
  const labels = menu(src.early, grading);
  const seen = { samples: 0 };
  return {
    format: 'inspect',
    task: header.task,
    model: header.model,
    as_of: header.created,
    source: { file, sha256: src.sha256 },
    labels,
    reported: reported(scorer, header, notes),
    notes,
    rows: rows(src, opts, scorer.name, grading, labels, notes, epochCheck(scorer, header, notes), seen),
    progress: () => Math.min(1, seen.samples / src.sampleCount), // sampleCount > 0 (checked above)
    settings: { fields: header.settings, source: `${file} eval and plan` },
  };
}

/** The first scorer the results list (else the task declares); the others are named in a note. */
function chooseScorer(src: LogSource, notes: string[]): ScorerResult {
  const { file, header } = src;
  if (header.results !== null && header.results.length === 0)
    throw new GspcError(
      'import_refused',
      `${file}: no scored items: results.scores is empty (Inspect scored no sample), which is not an accuracy of 0`,
    );
  const listed =
    header.results ??
    header.declared.map((d) => ({
      name: d.name,
      params: {},
      accuracy: undefined,
      source: `${file} (no results)`,
      reducer: null,
    }));
  const scorer = listed[0] ?? firstScoreIn(src);
  if (listed.length > 1)
    notes.push(`scorers ${listed.map((s) => s.name).join(', ')}: imported ${scorer.name} (the first)`);
  return scorer;
}

/** A log with neither results nor declared scorers (an early cancel): the first scorer a sample names. */
function firstScoreIn(src: LogSource): ScorerResult {
  const name = Object.keys(src.early[0]?.scores ?? {})[0];
  if (name === undefined) throw new GspcError('import_refused', `${src.file}: no scored items: no scorer is named`);
  return { name, params: {}, accuracy: undefined, source: `${src.file} (no results)`, reducer: null };
}

/**
 * Inspect's accuracy is the mean of `value_to_float` over the samples that have a score (N
 * counts 0, unscored samples are left out). The reader imports exactly the scored samples and
 * reads N as unparsed (counted wrong), so in the board's terms the denominator is every row.
 * With several epochs Inspect first reduces each sample's epochs (by default their mean), which
 * no one-row-per-item reduction reproduces: that figure is checked against the epochs read
 * instead (`epochCheck`), and the run reports none for the board's cell.
 */
function reported(scorer: ScorerResult, header: LogHeader, notes: string[]): ReportedAggregate | null {
  const value = scorer.accuracy;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    notes.push(`Inspect reports no finite accuracy for ${scorer.name} (${String(value)}): not reported`);
    return null;
  }
  if (header.epochs > 1) return null;
  return { metric: 'accuracy', value, denominator: 'all', source: scorer.source };
}

/** With several epochs: the figure to check against the mean of each item's epochs, or null (with a note). */
function epochCheck(scorer: ScorerResult, header: LogHeader, notes: string[]): ReportedAggregate | null {
  const value = scorer.accuracy;
  if (header.epochs === 1 || typeof value !== 'number' || !Number.isFinite(value)) return null;
  const reducer = scorer.reducer ?? header.epochsReducer?.[0] ?? 'mean';
  if (reducer !== 'mean') {
    notes.push(
      `Inspect's accuracy ${value} reduces ${header.epochs} epochs per sample with ${reducer}; only the default mean is re-derived, so it is not compared`,
    );
    return null;
  }
  return { metric: 'accuracy', value, denominator: 'all', source: scorer.source };
}

/** The task's options in label form, from the samples read so far; null when they have none. */
function menu(early: readonly LogSample[], grading: Grading): string[] | null {
  let widest: string[] | null = null;
  for (const s of early)
    if (s.choices !== null && (widest === null || s.choices.length > widest.length)) widest = s.choices;
  return widest === null ? null : [...new Set(grading.menu(widest))];
}

async function* rows(
  src: LogSource,
  opts: ReadOptions,
  scorer: string,
  grading: Grading,
  labels: string[] | null,
  notes: string[],
  epochFigure: ReportedAggregate | null,
  seen: { samples: number },
): AsyncGenerator<ImportedRow> {
  const { header } = src;
  const reducer = new EpochReducer(opts.epochs ?? 'first', header.epochs);
  const version = `${header.inspectVersion ?? 'inspect_ai (version not stated)'}; log format ${header.version ?? '(unstated)'}`;
  let unscored = 0;
  let emitted = 0;
  for await (const { sample, at } of src.samples()) {
    seen.samples++;
    // Version-1 samples carry one unnamed `score` (read under '').
    const score = sample.scores[scorer] ?? sample.scores[''];
    if (score === undefined) {
      unscored++;
      continue;
    }
    const correct = readVerdict(score.value, `${at} scores.${scorer}`);
    const answer = typeof score.answer === 'string' ? score.answer : null;
    if (labels !== null && grading.letters && sample.choices !== null && sample.choices.length > labels.length)
      labels.push(...grading.menu(sample.choices).slice(labels.length)); // a later sample with more choices
    const row: ImportedRow = {
      item: `${header.task}/${String(sample.id)}`,
      model: header.model,
      gold: grading.gold(sample.target),
      label: correct === null ? null : grading.label(answer, sample.response, sample.target),
      provenance: {
        harness: 'inspect',
        harness_version: version,
        task: header.task,
        sample_id: sample.id,
        epoch: sample.epoch,
        scorer,
        response: sample.response,
        source_sha256: src.sha256,
      },
      verdict: { correct, raw: score.value, metric: scorer, normalise: grading.normalise },
      at,
    };
    if (opts.cluster) row.cluster = opts.cluster.of(sample.record, at); // the sample: metadata.<field>, …
    withFacets(row, opts.facets, sample.record, at);
    const usage = sampleUsage(sample.record, header.model);
    if (usage !== undefined) row.usage = usage;
    const reduced = reducer.add(row);
    if (reduced !== null) {
      emitted++;
      yield reduced;
    }
  }
  for (const row of reducer.flush()) {
    emitted++;
    yield row;
  }
  if (unscored > 0)
    notes.push(`${unscored} sample(s) without a ${scorer} score were skipped (Inspect's metrics skip them too)`);
  if (emitted === 0)
    throw new GspcError('import_refused', `${src.file}: no scored items: no sample has a ${scorer} score`);
  if (epochFigure !== null) notes.push(checkEpochMean(epochFigure, reducer.meanOfEpochMeans(), emitted, opts, header));
}

/**
 * Inspect's multi-epoch accuracy against the same figure re-derived from every epoch read (the
 * mean over items of each item's mean over its epochs): the rows read must add up to what
 * Inspect reported, as for one epoch. The board's cell is a different statistic (one epoch's
 * outcome per item, `--epochs`), said in the same sentence.
 */
function checkEpochMean(
  rep: ReportedAggregate,
  ours: number,
  items: number,
  opts: ReadOptions,
  header: LogHeader,
): string {
  if (!(Math.abs(rep.value - ours) <= 1e-9))
    throw new GspcError(
      'import_refused',
      `${rep.source}: Inspect reported accuracy ${rep.value}, the mean over ${items} items of each item's ${header.epochs} epochs, but the epochs read give ${ours}: refused, the samples do not add up to what Inspect reported`,
    );
  return (
    `Inspect's accuracy ${rep.value} (each item's ${header.epochs} epochs averaged, then the mean over ${items} items) = the epochs read; ` +
    `the board's cell keeps one epoch per item (--epochs ${opts.epochs ?? 'first'}), a different figure`
  );
}
