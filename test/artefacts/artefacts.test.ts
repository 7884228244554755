/** produceArtefact: the delivered bytes, their address, the free door, and the bazaar examples matching what is produced. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uuidV5 } from '../../src/core/evidence/oscal-assessment.js';
import { GspcError } from '../../src/core/errors.js';
import type { ProductKey } from '../../src/core/pricing/products.js';
import { produceArtefact } from '../../src/payments/artefacts.js';
import { freeDoorPreview, outputExample } from '../../src/payments/feed-preview.js';
import { BASE, context, sha256Hex } from './fixture.js';

const QUERIES: Record<ProductKey, Record<string, string>> = {
  free_door: {},
  request_attestation: { subject: 'demo/atlas-70b' },
  evidence_bundle: { obligation: 'article-53', bundle: '1' },
  eunomia_data: { feed: '1' },
};

/** Every member the example names exists in the artefact, at every depth (lists: their first element). */
function missingIn(actual: unknown, example: unknown, path = '$'): string[] {
  if (example === null || typeof example !== 'object') return [];
  if (Array.isArray(example))
    return Array.isArray(actual) && actual.length > 0 && example.length > 0
      ? missingIn(actual[0], example[0], `${path}[0]`)
      : [];
  if (actual === null || typeof actual !== 'object') return [path];
  return Object.entries(example).flatMap(([k, v]) =>
    k in actual ? missingIn((actual as Record<string, unknown>)[k], v, `${path}.${k}`) : [`${path}.${k}`],
  );
}

describe('produceArtefact', () => {
  it('delivers JSON plus a newline, addressed by the SHA-256 of exactly those bytes', () => {
    for (const key of Object.keys(QUERIES) as ProductKey[]) {
      const a = produceArtefact(key, QUERIES[key], context());
      assert.equal(a.body.toString('utf8'), `${JSON.stringify(a.artefact)}\n`, key);
      assert.equal(a.sha256, sha256Hex(a.body), key);
      assert.equal(a.contentType, 'application/json; charset=utf-8');
      assert.deepEqual(JSON.parse(a.body.toString('utf8')), a.artefact, key);
    }
  });

  it('answers the free door with its preview (nothing to sign)', () => {
    assert.deepEqual(produceArtefact('free_door', {}, context()).artefact, freeDoorPreview(BASE));
  });

  it('refuses an obligation the release does not offer', () => {
    assert.throws(
      () => produceArtefact('evidence_bundle', { obligation: 'gdpr', bundle: '1' }, context()),
      (e: unknown) =>
        e instanceof GspcError &&
        e.code === 'bad_query' &&
        (e.details?.known as string[] | undefined)?.includes('article-50') === true,
    );
  });

  it("has bazaar output examples with exactly the artefacts' top-level members, and no member the artefact lacks", () => {
    for (const key of ['request_attestation', 'evidence_bundle', 'eunomia_data'] as const) {
      const artefact = produceArtefact(key, QUERIES[key], context()).artefact;
      const example = outputExample(key, BASE);
      assert.deepEqual(Object.keys(example).sort(), Object.keys(artefact).sort(), key);
      assert.deepEqual(missingIn(artefact, example), [], key);
    }
  });

  it("derives OSCAL UUIDs by RFC 4122 version 5 (Python's uuid5 vector)", () => {
    assert.equal(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'python.org'), '886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });
});
