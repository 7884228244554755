/**
 * How HELM's per-instance matching metrics compare a prediction with a gold reference
 * (`helm/benchmark/metrics/evaluate_reference_metrics.py`), so the importer compares rows the
 * way HELM scored them:
 * - `exact_match`: `gold.strip() == pred.strip()`;
 * - `quasi_exact_match`: both through `normalize_text` (the QuAC/SQuAD rule): lower-case, drop
 *   ASCII punctuation, drop the articles a/an/the, collapse whitespace.
 * Both score an empty prediction (and an unmappable letter, which HELM maps to None) as 0.
 */

/** The metrics the reader takes a per-item verdict from, in order of preference. */
export const HELM_MATCH_METRICS = ['exact_match', 'quasi_exact_match'] as const;
export type HelmMatchMetric = (typeof HELM_MATCH_METRICS)[number];

// Python's `string.punctuation`.
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
// Python's `\b` is Unicode-aware; JavaScript's is ASCII-only even with the `u` flag, so the word
// boundary is spelled out with look-arounds over letters, digits and the underscore.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/** HELM's `normalize_text` (with articles removed, as `quasi_exact_match` calls it). */
export function helmNormalizeText(text: string): string {
  const lower = text.toLowerCase();
  let noPunct = '';
  for (const ch of lower) if (!PUNCTUATION.has(ch)) noPunct += ch;
  return noPunct.replace(ARTICLES, ' ').split(/\s+/u).filter(Boolean).join(' ');
}

const strip = (s: string) => s.trim();

/**
 * The normalisation the importer applies before comparing label and gold. In a
 * multiple-choice-joint run the label and gold are letters and HELM looks the letter up exactly
 * (after `strip`) in the output mapping, so letters are only trimmed whatever the metric; the
 * quasi rule applies to free-text (generation) runs, where label and gold are texts.
 */
export function helmNormaliser(metric: HelmMatchMetric, letters: boolean): (s: string) => string {
  return metric === 'quasi_exact_match' && !letters ? helmNormalizeText : strip;
}
