/**
 * `gspc import <format> <file-or-dir>... --into <corpus-dir>`: real eval runs into a corpus
 * (docs/import.md). The readers and the merge live in src/import/; this file parses the
 * options, draws the progress bar on a terminal and prints the summary.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CliRun } from './cli-io.js';
import { noticeLines } from './validate-command.js';
import { isIsoUtcInstant } from '../core/iso-instant.js';
import { GspcError } from '../core/errors.js';
import { FORMATS, type ImportedRun, isFormat, type ReadOptions } from '../import/imported.js';
import { clusterField } from '../import/cluster-field.js';
import { facetFields } from '../import/facet-fields.js';
import type { ImportResult } from '../import/import-runs.js';
import { terminalText } from './terminal-text.js';

export interface ImportCommandOptions {
  into: string;
  axis?: string;
  model?: string;
  filter?: string;
  split?: string;
  epochs?: 'first' | 'majority';
  allowIncomplete?: boolean;
  acceptDisagreement?: boolean;
  asOf?: string;
  cluster?: string;
  tagField?: string;
  dateField?: string;
}

export interface ImportOutput {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether stderr is a terminal (progress bar) or not (no progress, the summary only). */
  tty: boolean;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const AS_OF_FORMS =
  'must be an ISO 8601 UTC instant ending in Z (2025-06-30T12:00:00Z) or a date (2025-06-30: midnight UTC)';

/** --as-of as board.json states it, or null: an instant in UTC, or a calendar date at midnight UTC. */
function readAsOf(v: string): string | null {
  const instant = DATE_ONLY.test(v) ? `${v}T00:00:00Z` : v;
  return isIsoUtcInstant(instant) ? instant : null;
}

function progressBar(io: ImportOutput): (run: ImportedRun, rows: number, fraction: number | null) => void {
  if (!io.tty) return () => {};
  return (run, rows, fraction) => {
    const width = 30;
    const bar =
      fraction === null
        ? ''
        : `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '.')}] ${Math.floor(fraction * 100)}% `;
    // The task and model are the harness log's: written inert (terminal-text.ts), unlike our own \r.
    io.err(`\r${terminalText(`${run.task} ${run.model}`)}: ${bar}${rows.toLocaleString('en')} rows`);
  };
}

function summary(r: ImportResult, into: string): string[] {
  const lines: string[] = [];
  for (const s of r.runs) {
    lines.push(
      `${s.run.format} ${s.run.task} ${s.run.model} (${s.run.source.file}) → axis ${s.axis}: ${s.rows.toLocaleString('en')} row${s.rows === 1 ? '' : 's'}`,
    );
    if (s.reported !== null) lines.push(`  ${s.reported}`);
    if (s.disagreements > 0)
      lines.push(
        `  ${s.disagreements} disagreements with the harness accepted (--accept-disagreement), recorded in axes/${s.axis}.json`,
      );
    for (const n of s.run.notes) lines.push(`  note: ${n}`);
  }
  for (const a of r.axes)
    lines.push(
      `peritem/${a.axis}.jsonl: ${a.rows.toLocaleString('en')} row${a.rows === 1 ? '' : 's'} (${a.added} added, ${a.replaced} replaced); axes/${a.axis}.json ${a.created ? 'created' : 'updated'}` +
        (a.n ? ` (its n ${a.n.from} → ${a.n.to}, the items the rows now have)` : ''),
    );
  const skipped = r.runs.flatMap((s) => s.run.notes.filter((n) => n.includes('skipped')));
  const t = r.totals;
  lines.push(
    `rows ${t.rows}, models ${t.models}, items ${t.items}, unparsed ${t.unparsed}, ${
      skipped.length === 0 ? 'refused 0' : `refused: ${skipped.join('; ')}`
    }`,
  );
  lines.push(`board.json ${r.board}`);
  if (r.board === 'created')
    lines.push(
      `board.json is a scaffold: edit issuer, doi and measured_on.date (marked EDIT ME) in ${into}/board.json before publishing for real`,
    );
  if (r.models.state !== 'unchanged')
    lines.push(
      `models.json ${r.models.state}: ${r.models.filled.join('; ')} (as the harness recorded them; every other card field is unknown)`,
    );
  for (const n of r.models.notes) lines.push(`  note: ${n}`);
  if (r.settings.state !== 'unchanged')
    lines.push(
      `runs.json ${r.settings.state}: ${r.settings.filled.join('; ')} (as the harness recorded them; every other setting is unknown)`,
    );
  for (const n of r.settings.notes) lines.push(`  note: ${n}`);
  return lines;
}

/** Runs one import and prints what it did; refusals are thrown as GspcError('import_refused'). */
export async function runImport(
  format: string,
  paths: readonly string[],
  o: ImportCommandOptions,
  io: ImportOutput,
): Promise<ImportResult> {
  if (!isFormat(format))
    throw new GspcError('import_refused', `unknown format '${format}': one of ${FORMATS.join(', ')}`);
  const asOf = o.asOf === undefined ? undefined : readAsOf(o.asOf);
  if (asOf === null) throw new GspcError('import_refused', `--as-of ${o.asOf}: ${AS_OF_FORMS}`);
  const read: ReadOptions = {
    measured: true,
    ...(o.model !== undefined && { model: o.model }),
    ...(o.filter !== undefined && { filter: o.filter }),
    ...(o.split !== undefined && { split: o.split }),
    ...(o.epochs !== undefined && { epochs: o.epochs }),
    ...(o.allowIncomplete === true && { allowIncomplete: true }),
    ...(o.cluster !== undefined && { cluster: clusterField(o.cluster) }),
  };
  const facets = facetFields(o.tagField, o.dateField);
  if (facets !== undefined) read.facets = facets;
  // Loaded here, not at the top: the readers (ZIP, zstd, four formats) and the merge are most of
  // this module's weight, and every other command starts without them.
  const [{ READERS }, { importRuns }, { perItemRows, readCorpus }] = await Promise.all([
    import('../import/formats.js'),
    import('../import/import-runs.js'),
    import('../corpus/read-corpus.js'),
  ]);
  const onProgress = progressBar(io);
  let result: ImportResult;
  try {
    result = await importRuns(o.into, READERS[format](paths, read), {
      ...(o.axis !== undefined && { axis: o.axis }),
      ...(asOf !== undefined && { asOf }),
      acceptDisagreement: o.acceptDisagreement === true,
      onProgress,
    });
  } finally {
    if (io.tty) io.err('\r\u001b[K');
  }
  for (const l of summary(result, o.into)) io.out(`${terminalText(l)}\n`);
  // The import is only done when the corpus it leaves validates (the rows are written; a
  // problem here is one the operator's other files have, and is printed like `gspc validate`).
  const c = readCorpus(o.into);
  io.out(`validate: ok (${c.definitions.length} axes, ${perItemRows(c)} per-item rows)\n`);
  // What `gspc validate` would say of it (the scaffold's placeholders are said above already).
  const { deriveRelease } = await import('../release/derive.js');
  const { SCAFFOLD_NOTICE, validateNotices } = await import('../release/validate-notices.js');
  const notices = validateNotices(c, deriveRelease(c)).filter((n) => n.reason !== SCAFFOLD_NOTICE);
  for (const l of noticeLines(notices)) io.err(`${terminalText(l)}\n`);
  return result;
}

export function registerImportCommand(program: Command, run: CliRun): void {
  program
    .command('import')
    .description('import real eval runs (lm-eval, Inspect AI, HELM, Every Eval Ever) into a corpus directory')
    .argument('<format>', `the harness output format: ${FORMATS.join(', ')}`)
    .argument('<file-or-dir...>', 'output files or directories of the harness')
    .requiredOption('--into <corpus-dir>', 'the corpus directory to write or merge into (created if absent)')
    .option('--axis <slug>', 'the axis to import into (default: the task name as a slug)')
    .option('--model <id>', 'the model id when the files name none (lm-eval samples without a results file)')
    .option('--filter <name>', "lm-eval: the filter to take (default: the task's first)")
    .option('--split <name>', 'HELM: the split (default: test)')
    .addOption(
      new Option('--epochs <rule>', 'Inspect: how epochs reduce to one value per item').choices(['first', 'majority']),
    )
    .option('--allow-incomplete', 'Inspect: import a cancelled or errored run anyway')
    .option(
      '--cluster <path>',
      "the field of each item's record in the harness output that names its cluster (shared passage, document or template), e.g. metadata.passage_id: the clustered standard errors of /api/models (docs/import.md)",
    )
    .option(
      '--tag-field <path>',
      "the field of each item's record in the harness output that gives its tags (a string or a list: subject, language, difficulty), e.g. metadata.subject (docs/import.md)",
    )
    .option(
      '--date-field <path>',
      "the field of each item's record that gives its date, YYYY-MM-DD or YYYY-MM, e.g. metadata.date (docs/import.md)",
    )
    .option(
      '--accept-disagreement',
      "import rows where the harness's verdict and label ∈ gold disagree, and record the count",
    )
    .option(
      '--as-of <iso>',
      "board.json's as_of when the runs do not say when they were measured (2025-06-30T12:00:00Z, or a date: midnight UTC)",
      (v: string) => {
        const asOf = readAsOf(v);
        if (asOf === null) throw new InvalidArgumentError(AS_OF_FORMS);
        return asOf;
      },
    )
    .action(async (format: string, paths: string[], o: ImportCommandOptions) => {
      await runImport(format, paths, o, { out: run.io.out, err: run.io.err, tty: run.io.errIsTty });
    });
}
