/**
 * The item explorer page's corpus (issue 41 item 4): one axis `quiz` (test/helpers/quiz-corpus.ts)
 * whose model ids, item ids, gold, labels and responses are full of markup, and whose responses
 * hold newlines, a bidirectional override (U+202E), a zero-width space, a line of 400 characters
 * without a break and, on one item, more than 2,000 characters (cut by /api/items).
 * Outcomes: on item i, A right when i is even, B right when i is a multiple of 3, C always
 * right: 23 items A right and B wrong (two pages of 20), 12 the reverse.
 */
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';

export const MODEL_A = 'x/<script>alert(1)</script>';
export const MODEL_B = 'm/"><img/src=x/onerror=alert(2)>';
export const MODEL_C = 'm/plain';
export const GOLD = '<b>yes</b>&"\'';
export const WRONG = '<i>no</i>';
export const ITEMS = 70;
/** The item whose responses are cut at 2,000 characters. */
export const LONG_ITEM = 4;

export const itemId = (i: number) => `q/<u>${String(i).padStart(2, '0')}</u>`;

/** The response of `model` on item `i`: markup that would run if it were rendered, and a bidi override. */
export function responseOf(model: string, i: number): string {
  const text =
    `<script>window.__xss = 'script ${i}'</script>\n"><img src=x onerror="window.__xss='img'">\n` +
    `\u202eevil reversed\u200b ${model} on ${itemId(i)}\n${'W'.repeat(400)}\n</pre></td></table><h1>injected</h1>`;
  return i === LONG_ITEM ? text.padEnd(2600, '.') : text;
}

export function explorerCorpus(): string {
  const rows: string[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const row = (model: string, right: boolean) =>
      rows.push(
        JSON.stringify({
          item: itemId(i),
          model,
          gold: GOLD,
          label: right ? GOLD : WRONG,
          response: responseOf(model, i),
        }),
      );
    row(MODEL_A, i % 2 === 0);
    row(MODEL_B, i % 3 === 0);
    row(MODEL_C, true);
  }
  return writeQuizCorpus({ rows, issuer: 'Explorer test issuer (registry 1)', labels: [GOLD, WRONG] });
}
