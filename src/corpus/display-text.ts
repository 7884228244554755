/**
 * Characters no operator-supplied text may hold, in one place for model ids (model-id.ts) and the
 * display text of cards, prices and run settings: control characters (C0, DEL, C1: U+009B is a
 * one-byte CSI that a terminal reads as an escape), bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069) and invisible characters (soft hyphen U+00AD, U+180E,
 * zero-width space and joiners U+200B-U+200D, word joiner and invisible operators U+2060-U+2064,
 * BOM U+FEFF). Each lets a string display as another: `Evil\u202eoC` reads as `EvilCo` backwards,
 * `Open\u200bAI` as `OpenAI` (review of issue 40: model ids refused these, card and price text did
 * not). Spaces (U+0020) are allowed in display text; model ids refuse all white space besides.
 */
import { z } from 'zod';

/** The character class, without the `/…/` (model-id.ts adds white space to it). */
export const HIDDEN_CHARS =
  '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2069\\ufeff';
const HIDDEN = new RegExp(`[${HIDDEN_CHARS}]`);

export const HIDDEN_TEXT_REASON = 'must not contain control, bidirectional or invisible characters';

/** Whether `s` holds a character of {@link HIDDEN_CHARS}. */
export function hasHiddenChars(s: string): boolean {
  return HIDDEN.test(s);
}

/** A display string of 1 to `max` characters, no leading or trailing white space, none of {@link HIDDEN_CHARS}. */
export const displayText = (max: number) =>
  z
    .string()
    .min(1, 'must be a non-empty string')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim() === s, 'must not start or end with white space')
    .refine((s) => !hasHiddenChars(s), HIDDEN_TEXT_REASON);
