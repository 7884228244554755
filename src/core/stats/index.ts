/**
 * The board's statistics core: pure functions, no I/O, clock, randomness or environment.
 * Wilson intervals for accuracies, the exact McNemar test for separation, and confusion counts
 * for classification axes.
 */
export { WILSON_Z_95, wilsonInterval } from './wilson.js';
export {
  SEPARATION_ALPHA,
  mcnemarExact,
  mcnemarExactDecision,
  type McNemarResult,
} from './mcnemar.js';
export { confusionCounts, macroF1, type LabelledPair } from './classification.js';
