/**
 * Confusion counts and macro-F1 for classification axes. Unparsed responses (label `null`) are
 * counted apart and are never treated as a prediction, right or wrong (research/evals.md §0.4).
 */

/** One graded item: the gold label and the model's parsed label, `null` when unparsed. */
export interface LabelledPair {
  gold: string;
  label: string | null;
}

/**
 * Binary confusion counts for one model against one positive label. `tp + fp + tn + fn` is the
 * number of parsed items; `unparsed` counts the rest. `precision` and `recall` are `null` when
 * their denominator is 0 — null means "no value", never zero.
 */
export interface ConfusionCounts {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  unparsed: number;
  /** tp / (tp + fp); null when the model predicted nothing positive. */
  precision: number | null;
  /** tp / (tp + fn); null when no parsed item is actually positive. */
  recall: number | null;
}

/**
 * Counts a binary confusion matrix over `pairs`, iterating them once. Predicted positive means
 * `label === positiveLabel`; actually positive means `gold === positiveLabel` (exact string
 * equality, no normalisation: that is the adapter's job). A `null` label is counted in
 * `unparsed` and in nothing else.
 */
export function confusionCounts(pairs: Iterable<LabelledPair>, positiveLabel: string): ConfusionCounts {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  let unparsed = 0;
  for (const { gold, label } of pairs) {
    if (label === null) {
      unparsed++;
      continue;
    }
    const predicted = label === positiveLabel;
    const actual = gold === positiveLabel;
    if (predicted) {
      if (actual) tp++;
      else fp++;
    } else if (actual) fn++;
    else tn++;
  }
  return {
    tp,
    fp,
    tn,
    fn,
    unparsed,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
  };
}

/**
 * Macro-averaged F1 over `labels` on the parsed pairs (unparsed ones are skipped), iterating
 * `pairs` once. Per label, one-vs-rest: F1 = 2·tp / (2·tp + fp + fn), which is 0, not missing,
 * when the label is predicted or present but never both together. A label that no parsed item
 * has as gold and none predicts has no F1 and is left out of the mean; the result is `null`
 * when no label qualifies (including an empty `labels`). Duplicate entries in `labels` count
 * once. A parsed label outside `labels` predicts none of them, so it is a miss (fn) for its
 * gold label; a gold outside `labels` only adds false positives to the label predicted for it.
 */
export function macroF1(pairs: Iterable<LabelledPair>, labels: readonly string[]): number | null {
  const counts = new Map<string, { tp: number; fp: number; fn: number }>();
  for (const label of labels) counts.set(label, { tp: 0, fp: 0, fn: 0 });
  for (const { gold, label } of pairs) {
    if (label === null) continue;
    if (label === gold) {
      const hit = counts.get(label);
      if (hit) hit.tp++;
      continue;
    }
    const predicted = counts.get(label);
    if (predicted) predicted.fp++;
    const actual = counts.get(gold);
    if (actual) actual.fn++;
  }
  let sum = 0;
  let qualifying = 0;
  for (const { tp, fp, fn } of counts.values()) {
    const denominator = 2 * tp + fp + fn;
    if (denominator === 0) continue;
    sum += (2 * tp) / denominator;
    qualifying++;
  }
  return qualifying === 0 ? null : sum / qualifying;
}
