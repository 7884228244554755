/**
 * One lm-eval sample line, read the way lm-eval itself scored it (lm_eval/api/task.py,
 * `process_results`):
 * - multiple choice (`acc`): `filtered_resps` is one `[log-likelihood, is_greedy]` pair per
 *   choice; the model's answer is the first arg-max (numpy's), the gold is the index of `target`
 *   among the choices (an integer target, or its decimal text as lm-eval ≥ 0.4.3 writes it, is
 *   already that index; a list gives several golds).
 *   Label and gold are written as choice indices ("0", "1", …): that is what `acc` compares, and
 *   two choices with the same text stay distinct.
 * - generation (`exact_match`): the label is the filtered response, the gold is `target`;
 *   `[invalid]` (no answer extracted by the filter) is unparsed, never wrong.
 */
import { GspcError } from '../../core/errors.js';

export interface SampleReading {
  metric: 'acc' | 'exact_match';
  label: string | null;
  gold: string | string[];
  /** lm-eval's verdict: true/false, or null when the filter extracted nothing (`[invalid]`). */
  correct: boolean | null;
  raw: unknown;
  response: string | null;
  /** Multiple choice: the number of choices (for the label menu). */
  choices?: number;
}

/** The continuation of each choice: `arguments` is `{gen_args_i: {arg_0, arg_1}}` (≥ 0.4.3) or `[[ctx, cont], …]`. */
function continuations(args: unknown): string[] | null {
  const list = Array.isArray(args) ? args : args && typeof args === 'object' ? Object.values(args) : null;
  if (!list) return null;
  const out: string[] = [];
  for (const a of list) {
    const cont = Array.isArray(a) ? a[1] : (a as { arg_1?: unknown } | null)?.arg_1;
    if (typeof cont !== 'string') return null;
    out.push(cont);
  }
  return out;
}

/** An integer target is the choice index itself. */
const indexOf = (t: number, n: number): string | null => (Number.isInteger(t) && t >= 0 && t < n ? String(t) : null);

/**
 * The choice index of one target: an integer is the index; a string is the bare text of one
 * continuation, or else the decimal text of an index. lm-eval ≥ 0.4.3 writes every sample's
 * target as `str(target)` (lm_eval/loggers/evaluation_tracker.py), so MMLU's integer answer 3
 * reaches the file as "3" beside the continuations " A" … " D" (decision MG2). When the two
 * readings name different choices (choices "1" … "4" and target "2"), the line cannot say which
 * lm-eval scored: refused, never guessed.
 */
function choiceIndex(t: unknown, conts: string[] | null, n: number, at: string): string | null {
  if (typeof t === 'number') return indexOf(t, n);
  if (typeof t !== 'string') return null;
  let byText: string | null = null;
  // lm-eval writes each continuation as target_delimiter + choice; the target is the bare choice.
  for (let i = 0; conts !== null && i < conts.length && byText === null; i++) {
    const c = conts[i]!;
    if (c.endsWith(t) && c.slice(0, c.length - t.length).trim() === '') byText = String(i);
  }
  const byIndex = /^(0|[1-9][0-9]*)$/.test(t) ? indexOf(Number(t), n) : null;
  if (byText !== null && byIndex !== null && byText !== byIndex)
    return refuse(
      at,
      `target ${JSON.stringify(t)} is choice ${byText}'s text and, as lm-eval writes an integer target, choice index ${byIndex}: ambiguous`,
    );
  return byText ?? byIndex;
}

function goldIndex(target: unknown, conts: string[] | null, n: number, at: string): string | string[] | null {
  if (!Array.isArray(target)) return choiceIndex(target, conts, n, at);
  const all: string[] = [];
  for (const t of target) {
    const i = choiceIndex(t, conts, n, at);
    if (i === null) return null;
    all.push(i);
  }
  return all.length > 0 ? all : null;
}

function isPair(x: unknown): x is [string, string] {
  return Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && Number.isFinite(Number(x[0]));
}

function refuse(at: string, why: string): never {
  throw new GspcError('import_refused', `${at}: ${why}`);
}

export function readSample(s: Record<string, unknown>, at: string): SampleReading {
  const metrics = Array.isArray(s.metrics) ? (s.metrics as unknown[]) : [];
  const resps = s.filtered_resps;
  if (!Array.isArray(resps) || resps.length === 0) return refuse(at, 'no filtered_resps');

  if (metrics.includes('acc') && typeof s.acc === 'number') {
    if (resps.length < 2 || !resps.every(isPair))
      return refuse(
        at,
        'metric acc without one [log-likelihood, is_greedy] pair per choice: only multiple-choice acc is imported',
      );
    const ll: number[] = [];
    for (const p of resps as [string, string][]) ll.push(Number(p[0]));
    let best = 0;
    for (let i = 1; i < ll.length; i++) if (ll[i]! > ll[best]!) best = i; // first arg-max, like numpy
    const gold = goldIndex(s.target, continuations(s.arguments), ll.length, at);
    if (gold === null)
      return refuse(at, `target ${JSON.stringify(s.target)} is not one of the ${ll.length} choices in arguments`);
    return {
      metric: 'acc',
      label: String(best),
      gold,
      correct: s.acc === 1,
      raw: s.acc,
      response: JSON.stringify(resps),
      choices: ll.length,
    };
  }

  if (metrics.includes('exact_match') && typeof s.exact_match === 'number') {
    const answer = resps[0];
    if (typeof answer !== 'string') return refuse(at, 'exact_match with a filtered response that is not a string');
    if (typeof s.target !== 'string' && typeof s.target !== 'number') return refuse(at, 'target is not a string');
    const first = Array.isArray(s.resps) && Array.isArray(s.resps[0]) ? (s.resps[0] as unknown[])[0] : undefined;
    const invalid = answer === '[invalid]' || answer.trim() === '';
    return {
      metric: 'exact_match',
      label: invalid ? null : answer,
      gold: String(s.target),
      correct: invalid ? null : s.exact_match === 1,
      raw: s.exact_match,
      response: typeof first === 'string' ? first : null,
    };
  }
  return refuse(
    at,
    `metrics ${JSON.stringify(metrics)}: only multiple-choice acc and generation exact_match are imported (docs/import.md)`,
  );
}
