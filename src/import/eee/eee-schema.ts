/**
 * The official Every Eval Ever schemas (v0.3.0, vendored unchanged in `schemas/every-eval-ever/`,
 * schemas/README.md), compiled once. They declare JSON Schema draft-07, so ajv's default class
 * compiles them (not Ajv2020). Two relaxations, both about the schema files rather than the
 * records: the root's `version` annotation is declared as a keyword, and `strictTypes` is off
 * because the upstream schema writes `not: {type: null}` inside typed objects and untyped
 * `required` blocks, which ajv's strict mode rejects as schema style (the records are still
 * validated in full). `gspc import eee` reads with it and `gspc export eee` checks its output.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

export const EEE_SCHEMA_VERSION = '0.3.0';

const SCHEMA_DIR = fileURLToPath(new URL('../../../schemas/every-eval-ever/', import.meta.url));

let compiled: { instance: ValidateFunction; aggregate: ValidateFunction } | undefined;

function validators(): { instance: ValidateFunction; aggregate: ValidateFunction } {
  if (compiled === undefined) {
    const ajv = new Ajv.default({ allErrors: true, strictTypes: false, allowUnionTypes: true });
    ajv.addKeyword('version');
    const load = (f: string) => JSON.parse(readFileSync(`${SCHEMA_DIR}${f}`, 'utf8')) as object;
    compiled = {
      instance: ajv.compile(load('instance_level_eval.schema.json')),
      aggregate: ajv.compile(load('eval.schema.json')),
    };
  }
  return compiled;
}

/**
 * ajv's errors as short sentences. The `if` of a conditional only says that its `then` failed,
 * which the `then` error already says, so it is left out.
 */
function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? [])
    .filter((e) => e.keyword !== 'if')
    .map((e) => `${e.instancePath || '(record)'} ${e.message ?? 'is invalid'}`);
}

/** The schema errors of an instance-level record (empty when it is valid). */
export function instanceErrors(value: unknown): string[] {
  const v = validators().instance;
  return v(value) ? [] : describe(v.errors);
}

/** The schema errors of an aggregate record (empty when it is valid). */
export function aggregateErrors(value: unknown): string[] {
  const v = validators().aggregate;
  return v(value) ? [] : describe(v.errors);
}
