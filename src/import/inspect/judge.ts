/**
 * Whether a scorer grades with a model (an LLM acting as judge). A MEASURED axis is graded by
 * deterministic predicates only, so such a run is refused for it. Detected from what the log
 * states about the scorer, never from its results:
 * - the name of Inspect's model-graded scorers (`model_graded_qa`, `model_graded_fact`);
 * - a scorer option, result param or metadata key naming a grader model (`grader_model`,
 *   `judge_model`, `grader`, `judge`, `model`, `models`), as Every Eval Ever's
 *   `data_with_llm_scoring.json` has (`simpleqa_scorer` with `grader_model`
 *   google/gemini-2.0-flash-001).
 */

type Params = Record<string, unknown>;

const GRADED_BY_MODEL = new Set(['model_graded_qa', 'model_graded_fact']);
const GRADER_KEYS = ['grader_model', 'judge_model', 'grader', 'judge', 'model', 'models'];

/** A short description of the grader model ("model_graded_fact", "grader_model google/…"), or null. */
export function judgeOf(scorer: string, ...settings: Params[]): string | null {
  const base = scorer.slice(scorer.lastIndexOf('/') + 1);
  if (GRADED_BY_MODEL.has(base)) return `the scorer ${base} is graded by a model`;
  for (const s of settings)
    for (const key of GRADER_KEYS) {
      const value = s[key];
      if (value === undefined || value === null || value === false) continue;
      return `the scorer ${scorer} names a grader model (${key} ${describe(value)})`;
    }
  return null;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as Params)['model'] === 'string')
    return (value as Params)['model'] as string;
  return JSON.stringify(value).slice(0, 80);
}
