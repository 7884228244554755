/**
 * What one run's rows add up to, and the three checks an import makes on a run before anything
 * is written: row-by-row agreement with the harness's verdicts, the harness's reported
 * aggregate against the imported rows, and "no scored items" (docs/import.md).
 */
import { GspcError } from '../core/errors.js';
import type { ImportedRow, ImportedRun } from './imported.js';
import type { GradedRow } from './corpus-row.js';
import { gradesCorrect } from './corpus-row.js';

/** Disagreements listed in a refusal (the count is always complete). */
const LISTED = 20;

export class RunTally {
  rows = 0;
  parsed = 0;
  correct = 0;
  /** Rows with a harness verdict or a label: what the harness scored. */
  scored = 0;
  disagreements = 0;
  readonly listed: string[] = [];

  constructor(readonly run: ImportedRun) {}

  add(row: ImportedRow, g: GradedRow): void {
    this.rows++;
    const ours = gradesCorrect(g);
    if (ours !== null) this.parsed++;
    if (ours === true) this.correct++;
    if (row.verdict !== undefined || g.label !== null) this.scored++;
    const v = row.verdict;
    if (v === undefined || v.correct === ours) return;
    this.disagreements++;
    if (this.listed.length < LISTED) {
      const said = v.correct === null ? 'unparsed' : v.correct ? 'correct' : 'wrong';
      const grades = ours === null ? 'unparsed' : ours ? 'correct' : 'wrong';
      this.listed.push(
        `${row.at} ${row.item}: harness said ${v.metric}=${JSON.stringify(v.raw)} (${said}), row grades ${grades} ` +
          `(label ${JSON.stringify(g.label)}, gold ${JSON.stringify(g.gold)})`,
      );
    }
  }

  /** Refuses a run nothing was scored in: never an accuracy of 0. */
  checkScored(): void {
    if (this.scored === 0)
      throw new GspcError(
        'import_refused',
        `${this.run.source.file}: no scored items (${this.rows} rows, none with a harness verdict or a label): nothing imported, never an accuracy of 0`,
      );
  }

  checkAgreement(accept: boolean): void {
    if (this.disagreements === 0 || accept) return;
    const more = this.disagreements - this.listed.length;
    throw new GspcError(
      'import_refused',
      `${this.disagreements} row${this.disagreements === 1 ? '' : 's'} where the harness's verdict and the board's grading (label ∈ gold) disagree; ` +
        'nothing imported (--accept-disagreement imports them and records the count in the axis definition):\n' +
        this.listed.join('\n') +
        (more > 0 ? `\n… and ${more} more` : ''),
      { disagreements: this.listed },
    );
  }

  /** The aggregate check: one line for the summary, or a refusal. */
  checkReported(): string | null {
    const rep = this.run.reported;
    if (rep === null) return null;
    const over = rep.denominator === 'all' ? this.rows : this.parsed;
    const ours = over === 0 ? Number.NaN : this.correct / over;
    const whose =
      rep.denominator === 'all' && this.parsed < this.rows
        ? `; the harness counts ${this.rows - this.parsed} unparsed as wrong, the board's accuracy is correct/parsed = ${
            this.parsed === 0 ? 'none (nothing parsed)' : `${this.correct}/${this.parsed}`
          }`
        : '';
    if (!(Math.abs(rep.value - ours) <= 1e-9))
      throw new GspcError(
        'import_refused',
        `${this.run.source.file}: harness reported ${rep.metric} ${rep.value} over ${over} (${rep.source}) but the imported rows give ${this.correct}/${over}` +
          `${Number.isNaN(ours) ? '' : ` = ${ours}`}: refused, the rows do not add up to what the harness reported`,
      );
    return `harness reported ${rep.metric} ${rep.value} over ${over} = board ${this.correct}/${over}${whose}`;
  }
}
