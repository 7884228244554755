/**
 * `gspc import`: merges harness runs into a corpus directory (docs/import.md). In two phases,
 * so a refusal anywhere leaves the corpus untouched:
 * 1. stream every run's rows: grade each (label ∈ gold, after the scorer's normalisation), check
 *    it against the harness's verdict, and spool it as a corpus line; then check the run
 *    ("no scored items", disagreements, the reported aggregate);
 * 2. merge each axis's spool into `peritem/<axis>.jsonl`, write the axis definition and
 *    board.json, all staged, and rename them into place only when everything is ready.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { SLUG } from '../corpus/schemas.js';
import { axisDefinition, readAxisFile } from './axis-file.js';
import { asOfAfter, boardFile } from './board-file.js';
import { corpusLine, gradedRow } from './corpus-row.js';
import type { ImportedRow, ImportedRun } from './imported.js';
import { mergePeritem, type Merged } from './merge-peritem.js';
import { modelCardsFile } from './models-file.js';
import { runsFile } from './runs-file.js';
import { RowSpool } from './row-spool.js';
import { RunTally } from './run-tally.js';
import { StagedFile } from './staged-file.js';

export interface ImportOptions {
  /** The axis slug for every run; default: each run's task as a slug. */
  axis?: string;
  acceptDisagreement?: boolean;
  /** board.json's as_of when the runs do not say. */
  asOf?: string;
  /** Called every few thousand rows and once at the end of each run (rows so far in this run, fraction of its source read). */
  onProgress?: (run: ImportedRun, rows: number, fraction: number | null) => void;
}

export interface RunSummary {
  axis: string;
  run: ImportedRun;
  rows: number;
  parsed: number;
  correct: number;
  disagreements: number;
  /** The aggregate check's sentence, or null when the harness reported none. */
  reported: string | null;
}

export interface ImportResult {
  runs: RunSummary[];
  axes: {
    axis: string;
    rows: number;
    replaced: number;
    added: number;
    created: boolean;
    /** The axis definition's stated `n`, when the import changed it (it follows the items). */
    n?: { from: number; to: number };
  }[];
  board: 'created' | 'updated' | 'unchanged';
  /** models.json: the card fields the harnesses recorded (models-file.ts). */
  models: { state: 'created' | 'updated' | 'unchanged'; filled: string[]; notes: string[] };
  /** runs.json: the run settings the harnesses recorded, per (model, axis) (runs-file.ts). */
  settings: { state: 'created' | 'updated' | 'unchanged'; filled: string[]; notes: string[] };
  totals: { rows: number; models: number; items: number; unparsed: number };
}

/** A task name as an axis slug: `gsm8k_cot_self_consistency` → `gsm8k-cot-self-consistency`. */
export function axisSlug(task: string): string {
  return task
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const PROGRESS_EVERY = 16384;

interface AxisState {
  spool: RowSpool;
  first: ImportedRun;
  runLabels: string[];
  disagreements: Map<string, number>;
}

async function* iterate(rows: ImportedRun['rows']): AsyncGenerator<ImportedRow> {
  yield* rows;
}

/** Phase 1 for one run: every row graded, checked and spooled; then the run's checks. */
async function readRun(run: ImportedRun, st: AxisState, axis: string, opts: ImportOptions): Promise<RunSummary> {
  const tally = new RunTally(run);
  let normalise: ((s: string) => string) | undefined;
  const take = (row: ImportedRow) => {
    const g = gradedRow(row);
    normalise ??= row.verdict?.normalise;
    tally.add(row, g);
    st.spool.add(row, g.gold, corpusLine(row, g));
    if (opts.onProgress && tally.rows % PROGRESS_EVERY === 0)
      opts.onProgress(run, tally.rows, run.progress ? run.progress() : null);
  };
  // A synchronous reader is iterated synchronously: a promise per row would cost more than the row.
  if (Symbol.iterator in run.rows) for (const row of run.rows as Iterable<ImportedRow>) take(row);
  else for await (const row of iterate(run.rows)) take(row);
  opts.onProgress?.(run, tally.rows, run.progress ? run.progress() : null); // the run's last state: all read
  tally.checkScored();
  tally.checkAgreement(opts.acceptDisagreement === true);
  const reported = tally.checkReported();
  for (const l of run.labels ?? []) st.runLabels.push(normalise ? normalise(l) : l);
  st.disagreements.set(run.model, (st.disagreements.get(run.model) ?? 0) + tally.disagreements);
  return {
    axis,
    run,
    rows: tally.rows,
    parsed: tally.parsed,
    correct: tally.correct,
    disagreements: tally.disagreements,
    reported,
  };
}

export async function importRuns(
  corpusDir: string,
  runs: AsyncIterable<ImportedRun>,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  if (opts.axis !== undefined && !SLUG.test(opts.axis))
    throw new GspcError('import_refused', `--axis ${opts.axis}: must be a lower-case slug (a-z, 0-9, single hyphens)`);
  // A refusal writes nothing: what this import made (the corpus directory and its parents, or
  // its peritem/ and axes/) is removed again when it is refused (issue 28).
  const made: string[] = [];
  const mkdir = (dir: string) => {
    const first = mkdirSync(dir, { recursive: true });
    if (first !== undefined) made.push(first);
  };
  mkdir(corpusDir);
  let committed = false;
  const axes = new Map<string, AxisState>();
  const staged: StagedFile[] = [];
  const summaries: RunSummary[] = [];
  let asOf: string | null = opts.asOf ?? null;
  try {
    for await (const run of runs) {
      const axis = opts.axis ?? axisSlug(run.task);
      if (!SLUG.test(axis))
        throw new GspcError('import_refused', `task ${run.task} gives no usable axis slug; pass --axis`);
      let st = axes.get(axis);
      if (st === undefined) {
        st = { spool: new RowSpool(corpusDir, axis), first: run, runLabels: [], disagreements: new Map() };
        staged.push(st.spool.file);
        axes.set(axis, st);
      }
      summaries.push(await readRun(run, st, axis, opts));
      if (opts.asOf === undefined && run.as_of !== null && (asOf === null || Date.parse(run.as_of) > Date.parse(asOf)))
        asOf = run.as_of;
    }
    if (summaries.length === 0) throw new GspcError('import_refused', 'nothing to import: no runs in the given paths');

    // Phase 2: stage every file, then rename them all.
    mkdir(join(corpusDir, 'peritem'));
    mkdir(join(corpusDir, 'axes'));
    const commits: [StagedFile, string][] = [];
    const axisResults: ImportResult['axes'] = [];
    for (const [axis, st] of axes) {
      const rowsPath = join(corpusDir, 'peritem', `${axis}.jsonl`);
      const axisPath = join(corpusDir, 'axes', `${axis}.json`);
      const existing = readAxisFile(axisPath, axis);
      const merged: Merged = mergePeritem(corpusDir, axis, rowsPath, st.spool);
      staged.push(merged.file);
      commits.push([merged.file, rowsPath]);
      const golds = [...st.spool.golds, ...merged.existingGolds].sort();
      const def = axisDefinition(existing, {
        axis,
        run: st.first,
        labels: [...st.runLabels, ...golds],
        disagreements: st.disagreements,
        items: merged.items,
      });
      const defFile = new StagedFile(corpusDir, `${axis}.json`);
      staged.push(defFile);
      defFile.write(`${JSON.stringify(def, null, 2)}\n`);
      commits.push([defFile, axisPath]);
      axisResults.push({
        axis,
        rows: merged.rows,
        replaced: merged.replaced,
        added: merged.added,
        created: existing === null,
        ...(typeof existing?.n === 'number' && existing.n !== def.n
          ? { n: { from: existing.n, to: merged.items } }
          : {}),
      });
    }
    const board = boardFile(join(corpusDir, 'board.json'), [...axes.keys()], asOf);
    if (board.text !== null) {
      const f = new StagedFile(corpusDir, 'board.json');
      staged.push(f);
      f.write(board.text);
      commits.push([f, join(corpusDir, 'board.json')]);
    }
    const cards = modelCardsFile(
      join(corpusDir, 'models.json'),
      summaries.flatMap(({ run }) => (run.card ? [{ model: run.model, ...run.card }] : [])),
    );
    if (cards.text !== null) {
      const f = new StagedFile(corpusDir, 'models.json');
      staged.push(f);
      f.write(cards.text);
      commits.push([f, join(corpusDir, 'models.json')]);
    }
    const settings = runsFile(
      join(corpusDir, 'runs.json'),
      summaries.flatMap(({ run, axis }) => (run.settings ? [{ model: run.model, axis, ...run.settings }] : [])),
      asOfAfter(join(corpusDir, 'board.json'), board),
    );
    if (settings.text !== null) {
      const f = new StagedFile(corpusDir, 'runs.json');
      staged.push(f);
      f.write(settings.text);
      commits.push([f, join(corpusDir, 'runs.json')]);
    }
    // Every file written out and synced before the first rename: a full disk fails here, with
    // nothing renamed yet, so the refusal still writes nothing.
    for (const [f] of commits) f.close();
    committed = true;
    for (const [f, target] of commits) f.commit(target);

    const models = new Set(summaries.map((s) => s.run.model));
    return {
      runs: summaries,
      axes: axisResults,
      board: board.created ? 'created' : board.text === null ? 'unchanged' : 'updated',
      models: {
        state: cards.created ? 'created' : cards.text === null ? 'unchanged' : 'updated',
        filled: cards.filled,
        notes: cards.notes,
      },
      settings: {
        state: settings.created ? 'created' : settings.text === null ? 'unchanged' : 'updated',
        filled: settings.filled,
        notes: settings.notes,
      },
      totals: {
        rows: summaries.reduce((n, s) => n + s.rows, 0),
        models: models.size,
        items: [...axes.values()].reduce((n, st) => n + st.spool.itemCount, 0),
        unparsed: summaries.reduce((n, s) => n + s.rows - s.parsed, 0),
      },
    };
  } finally {
    for (const f of staged) f.discard(); // committed files were renamed away: nothing to remove
    if (!committed) for (const dir of made.reverse()) rmSync(dir, { recursive: true, force: true });
  }
}
