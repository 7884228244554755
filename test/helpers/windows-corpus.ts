/**
 * The worked corpus of docs/methodology.md §13 (contamination windows) as a corpus directory: one
 * axis `quiz`, 31 items, q00-q09 dated 2023-12, q10-q13 2024-05, q14-q29 2024-06-10, q30 undated.
 * w/a (cutoff 2024-03) is right on every item but q28 and q29; w/b (cutoff 2024-05-15) on q00-q11
 * and q14-q19; the third model (no cutoff stated) on q00-q15. The served document's and the
 * page's tests read it; the core test builds the same rows in memory.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeQuizCorpus } from './quiz-corpus.js';

/** Markup, quotes, an ampersand and a backslash: a valid model id a page must show as text. */
export const MARKUP_THIRD = `<img/src=x/onerror=alert("w")>&amp;\\c`;

export interface WindowsCorpusOptions {
  /** The third model's id (default `w/c`). */
  third?: string;
  /** Write item_date on the rows (default true). */
  dates?: boolean;
  /** The cards of models.json; none written when null (default: the worked example's). */
  cards?: unknown[] | null;
}

export function windowsCorpus(o: WindowsCorpusOptions = {}): string {
  const third = o.third ?? 'w/c';
  const rows: string[] = [];
  for (let i = 0; i <= 30; i++) {
    const item = `q${String(i).padStart(2, '0')}`;
    const date = i <= 9 ? '2023-12' : i <= 13 ? '2024-05' : i <= 29 ? '2024-06-10' : undefined;
    const d = date !== undefined && o.dates !== false ? { item_date: date } : {};
    const right: [string, boolean][] = [
      ['w/a', i !== 28 && i !== 29],
      ['w/b', i <= 11 || (i >= 14 && i <= 19)],
      [third, i <= 15],
    ];
    for (const [model, r] of right) rows.push(JSON.stringify({ item, model, gold: 'A', label: r ? 'A' : 'B', ...d }));
  }
  const dir = writeQuizCorpus({ rows });
  const cards =
    o.cards === undefined
      ? [
          { model: 'w/a', knowledge_cutoff: '2024-03' },
          { model: 'w/b', knowledge_cutoff: '2024-05-15' },
          { model: third, organisation: 'Lab C' },
        ]
      : o.cards;
  if (cards !== null)
    writeFileSync(join(dir, 'models.json'), JSON.stringify({ schema: 'svc.gspc-corpus-models/1', models: cards }));
  return dir;
}
