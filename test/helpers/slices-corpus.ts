/**
 * A tagged `quiz` corpus for the slice tests (issue 41 item 2): 3 models × 130 items; 60 tags
 * `t/00`…`t/59` of two items each (too small to separate anything), and {@link BIG_TAG} (markup
 * in it) on the 100 items with i % 13 < 10; q127-q129 carry no tag. Untagged: the same rows
 * without tags.
 */
import { writeQuizCorpus } from './quiz-corpus.js';

export const BIG_TAG = 'big <b>&"';

export function slicesCorpus(tagged: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < 130; i++) {
    const tags = i % 13 < 10 ? [BIG_TAG] : [];
    if (i < 120) tags.push(`t/${String(i >> 1).padStart(2, '0')}`);
    const gold = i % 2 === 0 ? 'A' : 'B';
    const right = { 'm/one': i % 5 !== 0, 'm/two': i % 3 !== 0, 'm/three': i % 2 === 0 };
    for (const [model, ok] of Object.entries(right))
      out.push(
        JSON.stringify({
          item: `q${i}`,
          model,
          gold,
          label: ok ? gold : gold === 'A' ? 'B' : 'A',
          ...(tagged && tags.length > 0 && { tags }),
        }),
      );
  }
  return writeQuizCorpus({ rows: out });
}
