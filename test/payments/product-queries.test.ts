import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { GspcError } from '../../src/core/errors.js';
import { readQuery } from '../../src/serve/query.js';
import { parseProductQuery, queryJsonSchema, queryParameters } from '../../src/payments/product-queries.js';
import type { ProductKey } from '../../src/core/pricing/products.js';

const OBLIGATIONS = ['article-50', 'article-53', 'dora', 'cra'];
const parse = (key: ProductKey, qs: string) =>
  parseProductQuery(key, readQuery(`/x?${qs}`, queryParameters(key)), OBLIGATIONS);
const bad = (re: RegExp, known?: string[]) => (e: unknown) =>
  e instanceof GspcError &&
  e.code === 'bad_query' &&
  re.test(e.message) &&
  (known === undefined || JSON.stringify(e.details?.known) === JSON.stringify(known));

describe('product queries', () => {
  it('accepts the documented parameters', () => {
    assert.deepEqual(parse('request_attestation', 'subject=atlas-70b&axis=jail'), {
      subject: 'atlas-70b',
      axis: 'jail',
    });
    assert.deepEqual(parse('evidence_bundle', 'obligation=article-50&bundle=1'), {
      obligation: 'article-50',
      bundle: '1',
    });
    assert.deepEqual(parse('evidence_bundle', 'obligation=dora&invoice=gbp&commissioned_by=Acme%20Ltd'), {
      obligation: 'dora',
      invoice: 'gbp',
      commissioned_by: 'Acme Ltd',
    });
    assert.deepEqual(parse('eunomia_data', 'feed=1'), { feed: '1' });
    assert.deepEqual(parse('free_door', ''), {});
  });

  it('refuses missing or invalid parameters with a 400 that says which, before any challenge', () => {
    assert.throws(() => parse('request_attestation', ''), bad(/^subject: required/));
    assert.throws(() => parse('request_attestation', 'subject=m&axis=Bad_Slug'), bad(/^axis/));
    assert.throws(() => parse('eunomia_data', 'feed=2'), bad(/^feed/));
    assert.throws(() => parse('eunomia_data', 'feed=1&extra=1'), bad(/unknown query parameter 'extra'/));
    assert.throws(
      () => parse('evidence_bundle', 'obligation=article-99&bundle=1'),
      bad(/unknown obligation 'article-99'/, OBLIGATIONS),
    );
    assert.throws(() => parse('evidence_bundle', 'obligation=dora&invoice=gbp'), bad(/commissioned_by/));
    assert.throws(() => parse('evidence_bundle', 'obligation=dora&invoice=usd&commissioned_by=Acme'), bad(/^invoice/));
  });

  it('describes each query as JSON Schema 2020-12 that accepts exactly what the parser accepts', () => {
    const ajv = new Ajv2020.default({ strict: false });
    const schema = queryJsonSchema('request_attestation');
    const check = ajv.compile(schema);
    assert.equal(check({ subject: 'atlas-70b' }), true);
    assert.equal(check({ subject: 'atlas-70b', axis: 'jail' }), true);
    assert.equal(check({}), false);
    assert.equal(check({ subject: 'x', other: '1' }), false);
    assert.deepEqual(queryJsonSchema('eunomia_data'), {
      type: 'object',
      properties: { feed: { type: 'string', const: '1' } },
      required: ['feed'],
      additionalProperties: false,
    });
  });
});
