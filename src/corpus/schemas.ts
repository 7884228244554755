/**
 * Zod schemas of the operator's corpus files (docs/formats.md). One source for validation,
 * the TypeScript types and (later) the published JSON Schemas.
 */
import { z } from 'zod';
import { modelIdSchema } from './model-id.js';
import { ISO_UTC_INSTANT, isIsoUtcInstant } from '../core/iso-instant.js';
import { AXIS_STATUSES, FLEET_AGGREGATES } from '../core/board/model.js';

const text = z.string().trim().min(1, 'must be a non-empty string');
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = z.string().regex(SLUG, 'must be a lower-case slug (a-z, 0-9, single hyphens)');
const modelId = modelIdSchema;
/** An instant: the form, and a day and time that exist (src/core/iso-instant.ts). */
export const isoUtc = z
  .string()
  .regex(ISO_UTC_INSTANT, 'must be an ISO 8601 UTC datetime ending in Z')
  .refine(isIsoUtcInstant, 'is not a real date');
const count = z.number().int().min(0);
const fileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be a plain file name (letters, digits, . _ -)')
  .refine((s) => !s.includes('..'), 'must not contain ..');

export const boardFileSchema = z.strictObject({
  schema: z.literal('svc.gspc-corpus/1'),
  issuer: text,
  doi: text,
  as_of: isoUtc,
  measured_on: z.strictObject({ model: text, date: text, grading: text }),
  own_models: z.array(modelId).default([]),
  axes: z
    .array(slug)
    .min(1, 'must list at least one axis')
    .refine((a) => new Set(a).size === a.length, 'lists an axis twice'),
  limitations: z.array(text).default([]),
});

const axisCommon = {
  axis: slug,
  family: text,
  title: text.optional(),
  status: z.enum(AXIS_STATUSES),
  n: count.optional(),
};

const aggregateResult = z
  .strictObject({ model: modelId, correct: count, parsed: count, total: count })
  .refine((r) => r.correct <= r.parsed && r.parsed <= r.total, 'needs correct ≤ parsed ≤ total');

export const modelComparisonSchema = z.strictObject({
  ...axisCommon,
  kind: z.literal('model-comparison'),
  bench: text,
  task: text,
  dataset: text,
  labels: z
    .array(z.string().min(1))
    .refine((a) => new Set(a).size === a.length, 'lists a label twice')
    .optional(),
  base_models: z.array(modelId).optional(),
  own_models: z.array(modelId).optional(),
  positive_label: z.string().min(1).optional(),
  fleet: z.array(z.enum(FLEET_AGGREGATES)).optional(),
  harm_labels: z.array(z.string().min(1)).optional(),
  results: z.array(aggregateResult).min(1).optional(),
  /** Rows imported with `gspc import --accept-disagreement` whose harness verdict the board's grading contradicts, per model (docs/import.md). */
  import_disagreements: z.record(modelId, z.number().int().min(1)).optional(),
});

const pointer = z.string().regex(/^(\/([^~/]|~[01])*)*$/, 'must be an RFC 6901 JSON Pointer');
const predicate = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('equals'), pointer, value: z.unknown() }),
  z.strictObject({ op: z.literal('exists'), pointer }),
  z.strictObject({
    op: z.literal('matches'),
    pointer,
    pattern: z.string().refine((p) => {
      try {
        new RegExp(p, 'u');
        return true;
      } catch {
        return false;
      }
    }, 'is not a valid regular expression'),
  }),
  z.strictObject({ op: z.literal('sha256'), value: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex') }),
]);

export const deterministicFactsSchema = z.strictObject({
  ...axisCommon,
  kind: z.literal('deterministic-facts'),
  evidence: fileName.optional(),
  facts: z
    .array(z.strictObject({ id: slug, claim: text, predicate }))
    .refine((f) => new Set(f.map((x) => x.id)).size === f.length, 'has two facts with the same id'),
});

export const axisFileSchema = z.discriminatedUnion('kind', [modelComparisonSchema, deterministicFactsSchema]);

export const laneFileSchema = z.array(
  z.looseObject({
    id: text,
    lane: z.enum(['instrument-honesty', 'human-vs-ai']),
    title: text,
  }),
);

export const obligationsFileSchema = z.array(
  z.strictObject({
    id: z.string().regex(SLUG),
    control_id: z.string().regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/),
    title: text,
    obligation: text,
    regulator: text,
    counsel_confirmed: z.boolean(),
    honesty: text,
    existing_pack: text.nullable(),
    axes: z.array(z.string().regex(SLUG)),
  }),
);
