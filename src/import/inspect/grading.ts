/**
 * How each Inspect scorer compares an answer with a target, as the normalised label and gold
 * under which the board's exact grading (label ∈ gold) gives Inspect's verdict:
 * - `match`: see match.ts (whitespace, case, edge punctuation, location, numbers);
 * - `includes`: casefolded target contained in the answer (Inspect strips nothing else);
 * - `choice`: letters. Inspect's answer is the chosen letters joined by ", " and the verdict is
 *   correct iff the chosen set equals the target's set, so a list target ("A and C") becomes ONE
 *   gold "A, C" (a list gold would mean "either", which is not what `choice` checks);
 * - any other scorer: whitespace stripped only; its verdict is kept and the importer's row-by-row
 *   check against it shows whether exact labels reproduce it.
 */
import { matchLabel, matchTarget, matchText, type Location, type MatchOptions } from './match.js';

type Params = Record<string, unknown>;

export interface Grading {
  /** `verdict.normalise`: idempotent, applied by the importer to label and gold. */
  normalise: (s: string) => string;
  /** The gold in label form; a list target stays a list (except `choice`, see above). */
  gold: (target: string | string[]) => string | string[];
  /** The label from the score's answer (else the raw response); null when there is neither. */
  label: (answer: string | null, response: string | null, target: string | string[]) => string | null;
  /** The task's answer options in label form (`choice`: letters A, B, …). */
  menu: (choices: readonly string[]) => string[];
  /** Whether the menu is letters (so a later sample with more choices widens it). */
  letters: boolean;
}

const asList = (t: string | string[]) => (Array.isArray(t) ? t : [t]);
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The grading of a scorer by its name (a package prefix such as `inspect_ai/` is ignored) and params. */
export function gradingFor(scorer: string, params: Params): Grading {
  const base = scorer.slice(scorer.lastIndexOf('/') + 1);
  if (base === 'choice') return choice;
  if (base === 'match') return matching(matchOptions(params));
  if (base === 'includes') {
    const ignoreCase = params['ignore_case'] !== false;
    return matching({ location: 'any', ignoreCase, ignorePunctuation: false, numeric: false }, false);
  }
  return plain;
}

function matchOptions(params: Params): MatchOptions {
  const location = params['location'];
  return {
    location: location === 'begin' || location === 'any' || location === 'exact' ? (location as Location) : 'end',
    ignoreCase: params['ignore_case'] !== false,
    ignorePunctuation: params['ignore_punctuation'] !== false,
    numeric: params['numeric'] === true,
  };
}

function matching(o: MatchOptions, trim = true): Grading {
  // `includes` compares the raw strings (no strip); whitespace still matters there.
  const text = (s: string) => (trim ? matchText(s, o) : o.ignoreCase ? s.toLowerCase() : s);
  const target = (t: string) => (trim ? matchTarget(t, o) : text(t));
  const gold = (t: string | string[]) => (Array.isArray(t) ? t.map(target) : target(t));
  return {
    normalise: text,
    gold,
    label: (answer, response, t) => {
      const said = answer ?? response;
      if (said === null) return null;
      if (!trim)
        return (
          asList(t)
            .map(target)
            .find((g) => text(said).includes(g)) ?? text(said)
        );
      return matchLabel(said, asList(t).map(target), asList(t), o);
    },
    menu: (choices) => choices.map(target),
    letters: false,
  };
}

/** Letters, upper-cased, de-duplicated, sorted and joined by ", " (the form of Inspect's `choice` answer). */
function letterSet(s: string): string {
  const letters = [...new Set(s.toUpperCase().replace(/[^A-Z]/g, ''))].sort();
  return letters.join(', ');
}

const choice: Grading = {
  normalise: letterSet,
  gold: (t) => letterSet(asList(t).join('')),
  label: (answer) => (answer === null ? null : letterSet(answer)),
  menu: (choices) => [...LETTERS.slice(0, Math.min(choices.length, LETTERS.length))],
  letters: true,
};

const plain: Grading = {
  normalise: (s) => s.trim(),
  gold: (t) => (Array.isArray(t) ? t.map((s) => s.trim()) : t.trim()),
  label: (answer, response) => (answer ?? response)?.trim() ?? null,
  menu: (choices) => choices.map((s) => s.trim()),
  letters: false,
};
