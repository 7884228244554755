/**
 * What a model id may be, in one place for the per-item rows, the corpus schemas and the status
 * files: 1 to 200 characters, no white space, no control characters (C0, DEL, C1: U+009B is a
 * one-byte CSI), no bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069), and no invisible characters (soft hyphen U+00AD, U+180E, zero-width space,
 * joiners U+200B-U+200D, word joiner and invisible operators U+2060-U+2064, BOM U+FEFF), which let
 * an id display as another: `demo/atlas\u200b-70b` reads as `demo/atlas-70b` (reviews of issue 39,
 * where a 201-character id was also refused as "without spaces").
 */
import { z } from 'zod';
import { HIDDEN_CHARS } from './display-text.js';

export const MODEL_ID_MAX = 200;
/** Display text's hidden characters (display-text.ts) and any white space. */
const FORBIDDEN = new RegExp(`[\\s${HIDDEN_CHARS}]`);

/** Why `v` is not a model id, or undefined when it is one. */
export function modelIdProblem(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length === 0) return 'must be a model id: a non-empty string';
  if (v.length > MODEL_ID_MAX) return `must be a model id of at most ${MODEL_ID_MAX} characters (it has ${v.length})`;
  if (FORBIDDEN.test(v)) return 'must be a model id without spaces, control, bidirectional or invisible characters';
  return undefined;
}

/** The same rule as a zod schema. */
export const modelIdSchema = z.string().superRefine((v, ctx) => {
  const problem = modelIdProblem(v);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});
