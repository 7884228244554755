/**
 * `gspc validate <corpus-dir> [--preview | --json]`: "would this publish, and what would the
 * board say?" (issue 16). It reads the corpus as `publish` does, runs the whole derivation in
 * memory, and reports every structural problem (exit 2, nothing else printed) or, for a corpus
 * that would publish, the notices of src/release/validate-notices.ts on stderr. `--preview` prints
 * the board it would publish as a table, `--json` as the board document (unsigned: the living
 * stamp says it is a preview). Nothing is written.
 */
import type { Command } from 'commander';
import type { AxisRow } from '../core/board/axis-row.js';
import { buildBoard } from '../core/board/board.js';
import { type CorpusProblem, formatProblem } from '../core/errors.js';
import { perItemRows, readCorpus } from '../corpus/read-corpus.js';
import { deriveRelease } from '../release/derive.js';
import { validateNotices } from '../release/validate-notices.js';
import type { CliRun } from './cli-io.js';

const fixed = (x: number | undefined, digits = 3) => (x === undefined ? '' : x.toFixed(digits));

/** One line per axis: what a reader of the board would see first. */
function previewTable(rows: readonly AxisRow[]): string {
  const head = ['axis', 'status', 'leader', 'accuracy', 'interval', 'n', 'separation'];
  const body = rows.map((r) => [
    r.axis,
    r.bank_state ?? r.status,
    r.leader ?? (r.public_leader_state !== undefined ? `(${r.public_leader_state})` : ''),
    fixed(r.accuracy),
    r.interval === undefined ? '' : `[${fixed(r.interval[0])}, ${fixed(r.interval[1])}]`,
    String(r.n),
    r.separation === undefined
      ? ''
      : `${r.separation}${r.separation_p === undefined ? '' : ` p=${r.separation_p.toPrecision(3)}`}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export function registerValidateCommand(program: Command, run: CliRun): void {
  program
    .command('validate')
    .description('check a corpus as publish would, derive its board in memory, and say what the board would show')
    .argument('<corpus-dir>')
    .option('--preview', 'print the board it would publish, one line per axis')
    .option('--json', 'print the board document it would publish (unsigned), and nothing else on stdout')
    .action((corpusDir: string, o: { preview?: boolean; json?: boolean }) => {
      const corpus = readCorpus(corpusDir);
      const derived = deriveRelease(corpus);
      const notices = validateNotices(corpus, derived);
      const board = buildBoard(derived.source, null, {
        signedCells: null,
        livingStamp: { verification_state: 'UNSIGNED', reason: 'a preview of gspc validate: not published' },
        limitations: [],
      });
      if (o.json === true) run.json(board);
      else {
        run.print(
          `ok: ${corpus.definitions.length} axes, ${perItemRows(corpus)} per-item rows, ${corpus.files.length} files`,
        );
        if (o.preview === true) run.print(previewTable(board.axes));
      }
      for (const l of noticeLines(notices)) run.warn(l);
    });
}

/** The notices as `gspc validate` prints them (and `gspc import` after it, for the corpus it wrote). */
export function noticeLines(notices: readonly CorpusProblem[]): string[] {
  if (notices.length === 0) return [];
  return [
    `${notices.length} notice${notices.length === 1 ? '' : 's'}: it would publish, but the board will not say what you may expect:`,
    ...notices.map((n) => `  ${formatProblem(n)}`),
  ];
}
