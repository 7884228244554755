/**
 * The `schema` of the card-v0 records resolves (issue 28: it named a placeholder host): a path
 * the service serves, `/schemas/card-v0/<name>.json`, whose JSON Schema (2020-12) every
 * commission receipt and evidence-bundle manifest card validates against, signed or not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { BUNDLE_MANIFEST_SCHEMA, CARD_V0_SCHEMA } from '../../src/core/evidence/card-v0-schemas.js';
import { produceArtefact } from '../../src/payments/artefacts.js';
import { app, context, release, unhealthy } from './fixture.js';

const ajv = new Ajv2020.default({ strict: true, allErrors: true });
addFormats.default(ajv);

async function served(path: string) {
  const r = await app.inject({ url: path });
  assert.equal(r.statusCode, 200, path);
  assert.match(String(r.headers['content-type']), /^application\/schema\+json/);
  return ajv.compile(r.json() as object);
}

describe('card-v0 schemas', () => {
  it('name no placeholder host: each is a path the service answers', () => {
    for (const s of [CARD_V0_SCHEMA, BUNDLE_MANIFEST_SCHEMA]) assert.match(s, /^\/schemas\/card-v0\/[a-z-]+\.json$/);
  });

  it('every commission receipt, signed and unsigned, validates against the served schema', async () => {
    const validate = await served(CARD_V0_SCHEMA);
    const subjects = [...new Set(release.active.map((c) => c.subject))];
    for (const over of [{}, { boardKey: unhealthy }])
      for (const subject of subjects) {
        const receipt = produceArtefact('request_attestation', { subject }, context(over)).artefact;
        assert.ok(validate(receipt), `${subject}: ${ajv.errorsText(validate.errors)}`);
        assert.equal((receipt as { schema: string }).schema, CARD_V0_SCHEMA);
      }
  });

  it("every evidence bundle's manifest card validates against the served schema", async () => {
    const validate = await served(BUNDLE_MANIFEST_SCHEMA);
    for (const obligation of ['article-50', 'article-53', 'dora', 'cra']) {
      const bundle = produceArtefact('evidence_bundle', { obligation, bundle: '1' }, context()).artefact as {
        manifest_card: unknown;
      };
      assert.ok(validate(bundle.manifest_card), `${obligation}: ${ajv.errorsText(validate.errors)}`);
    }
  });

  it('an unknown schema path is a 404', async () => {
    assert.equal((await app.inject({ url: '/schemas/card-v0/nope.json' })).statusCode, 404);
  });
});
