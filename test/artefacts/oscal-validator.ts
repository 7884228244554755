/**
 * NIST's OSCAL assessment-results schema (vendored, schemas/oscal/) compiled once. The schema is
 * draft-07, so ajv's default class compiles it (not Ajv2019/Ajv2020); it compiles in strict mode.
 * Its TokenDatatype pattern uses `\p{L}`, which needs the unicode flag: ajv's default
 * `unicodeRegExp: true` gives it, and without it every control id fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { repoRoot } from '../helpers/repo.js';

export const OSCAL_SCHEMA_PATH = join(repoRoot, 'schemas', 'oscal', 'oscal_assessment-results_schema-1.0.6.json');

const ajv = new Ajv.default({ allErrors: true });
addFormats.default(ajv);
export const validateOscal = ajv.compile(JSON.parse(readFileSync(OSCAL_SCHEMA_PATH, 'utf8')) as object);

/** The schema errors of `doc`, as short strings (empty when valid). */
export function oscalErrors(doc: unknown): string[] {
  return validateOscal(doc) ? [] : (validateOscal.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
