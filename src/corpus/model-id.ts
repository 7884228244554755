/**
 * What a model id may be, in one place for the per-item rows, the corpus schemas and the status
 * files: 1 to 200 characters, no white space, no control characters, and no bidirectional
 * controls (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which let an id display as another
 * (a right-to-left override in a terminal, a feed reader or a page): found by the review of
 * issue 39, where a 201-character id was also refused as "without spaces".
 */
import { z } from 'zod';

export const MODEL_ID_MAX = 200;
const FORBIDDEN = /[\s\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Why `v` is not a model id, or undefined when it is one. */
export function modelIdProblem(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length === 0) return 'must be a model id: a non-empty string';
  if (v.length > MODEL_ID_MAX) return `must be a model id of at most ${MODEL_ID_MAX} characters (it has ${v.length})`;
  if (FORBIDDEN.test(v)) return 'must be a model id without spaces, control characters or bidirectional controls';
  return undefined;
}

/** The same rule as a zod schema. */
export const modelIdSchema = z.string().superRefine((v, ctx) => {
  const problem = modelIdProblem(v);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});
