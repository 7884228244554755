/**
 * The query of each metered product (specification, "Metered products", query parameters), as
 * zod schemas: the same schemas validate requests and, through `z.toJSONSchema` (JSON Schema
 * 2020-12), describe the input in the challenge's `extensions.bazaar`. A query that breaks them
 * is a 400 `bad_query` before any challenge; an unknown obligation lists the known ones.
 */
import { z } from 'zod';
import { GspcError } from '../core/errors.js';
import type { ProductKey } from '../core/pricing/products.js';

const SUBJECT = z.string().min(1).max(200).describe('model id, instrument id or card sha256');
const SLUG = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
  .describe('axis slug');

export const PRODUCT_QUERIES = {
  free_door: z.object({}).strict(),
  request_attestation: z.object({ subject: SUBJECT, axis: SLUG.optional() }).strict(),
  evidence_bundle: z
    .object({
      obligation: z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
        .describe('obligation id, e.g. article-50'),
      bundle: z
        .literal('1')
        .optional()
        .describe('the constant 1 for the paid bundle; without it the free preview is answered'),
      subject: SUBJECT.optional(),
      invoice: z.literal('gbp').optional().describe('ask for an invoice instead of paying in the token'),
      commissioned_by: z.string().min(2).max(200).optional().describe('the legal entity an invoice is addressed to'),
    })
    .strict(),
  eunomia_data: z.object({ feed: z.literal('1') }).strict(),
} as const satisfies Record<ProductKey, z.ZodObject>;

export type ProductQuery<K extends ProductKey> = z.infer<(typeof PRODUCT_QUERIES)[K]>;

/** The parameter names a product accepts (for the strict query reader). */
export function queryParameters(key: ProductKey): string[] {
  return Object.keys(PRODUCT_QUERIES[key].shape);
}

/**
 * Validates a product's query (already read strictly: known names, each once). `knownObligations`
 * is the corpus's list (evidence bundle only): an obligation outside it is a 400 naming the known ones.
 */
export function parseProductQuery<K extends ProductKey>(
  key: K,
  query: ReadonlyMap<string, string>,
  knownObligations: readonly string[] = [],
): ProductQuery<K> {
  const schema = PRODUCT_QUERIES[key];
  const raw = Object.fromEntries(query);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'query';
    throw new GspcError(
      'bad_query',
      `${field}: ${issue.code === 'invalid_type' && raw[field] === undefined ? 'required' : issue.message}`,
      { parameters: Object.keys(schema.shape) },
    );
  }
  const q = parsed.data as Record<string, string | undefined>;
  if (key === 'evidence_bundle') {
    if (!knownObligations.includes(q.obligation!))
      throw new GspcError('bad_query', `unknown obligation '${q.obligation}'`, { known: [...knownObligations] });
    if ((q.invoice === undefined) !== (q.commissioned_by === undefined))
      throw new GspcError('bad_query', 'an invoice request needs both invoice=gbp and commissioned_by=<legal entity>');
  }
  return parsed.data as ProductQuery<K>;
}

/** JSON Schema 2020-12 of a product's query parameters (for `extensions.bazaar`). */
// Constant per product; generating it costs ~120 µs, a fifth of a challenge (docs/performance.md §5).
const schemas = new Map<ProductKey, Record<string, unknown>>();

/** The JSON Schema 2020-12 of a product's query (shared: callers embed it, never mutate it). */
export function queryJsonSchema(key: ProductKey): Record<string, unknown> {
  let schema = schemas.get(key);
  if (!schema) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(PRODUCT_QUERIES[key]) as Record<string, unknown>;
    schema = rest;
    schemas.set(key, schema);
  }
  return schema;
}
