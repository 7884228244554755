/**
 * `GET /api/cost?axis=` (`svc.gspc-cost/0.2`, issue 40 item 4) as a registry document: keyless,
 * prepared bytes with an ETag (304), the same bytes in-process, its query checked, an unknown or
 * facts axis 404 `unknown_axis`; described in OpenAPI; `prices.json` published and listed in the
 * manifest (role `prices`); a release with prices verifies as gspc verify checks it; gspc export
 * static mirrors the document per axis and the price list. On the demo (no tokens, no prices)
 * every model is listed with no cost and the reason, never 0.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mirrorDocuments } from '../../src/mirror.js';
import { bodyBytes } from '../../src/serve/documents/document.js';
import { dirSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { handCorpus } from '../helpers/cost-corpus.js';
import { demoCorpus } from '../helpers/tmp.js';
import { serveCorpus } from '../helpers/served-corpus.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

const serve = serveCorpus;

describe('GET /api/cost', () => {
  const hand = serve(handCorpus());

  it('is a keyless release document: ETag and 304, CORS open, the same bytes in-process', async () => {
    const r = await hand.app.inject({ url: '/api/cost?axis=quiz' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.json().schema, 'svc.gspc-cost/0.2');
    const again = await hand.app.inject({ url: '/api/cost?axis=quiz', headers: { 'if-none-match': r.headers.etag } });
    assert.equal(again.statusCode, 304);
    const got = await hand.read.documents.readPath('/api/cost?axis=quiz');
    assert.ok(got.ok);
    assert.ok(bodyBytes(got.body).equals(r.rawPayload));
  });

  it('refuses a missing axis (400 bad_query), an unknown one (404 unknown_axis with the known), another parameter', async () => {
    const none = await hand.app.inject({ url: '/api/cost' });
    assert.deepEqual([none.statusCode, none.json().code, none.json().known], [400, 'bad_query', ['quiz']]);
    const unknown = await hand.app.inject({ url: '/api/cost?axis=nope' });
    assert.deepEqual([unknown.statusCode, unknown.json().code, unknown.json().known], [404, 'unknown_axis', ['quiz']]);
    assert.equal((await hand.app.inject({ url: '/api/cost?axis=quiz&model=x' })).json().code, 'bad_query');
  });

  it('publishes prices.json byte for byte, in the manifest with role prices and the sha256 the document names', async () => {
    const doc = (await hand.app.inject({ url: '/api/cost?axis=quiz' })).json();
    const file = await hand.app.inject({ url: '/peritem/prices.json' });
    assert.equal(file.statusCode, 200);
    assert.equal(JSON.parse(file.body).schema, 'svc.gspc-corpus-prices/1');
    const manifest = (await hand.app.inject({ url: '/peritem/manifest.json' })).json();
    const entry = manifest.files.find((f: { url: string }) => f.url === '/peritem/prices.json');
    assert.deepEqual([entry.role, entry.sha256], ['prices', doc.prices.sha256]);
    assert.equal(doc.prices.url, '/peritem/prices.json');
  });

  it('is in OpenAPI; verifies as gspc verify checks a release; mirrored by gspc export static with prices.json', async () => {
    const openapi = (await hand.app.inject({ url: '/openapi.json' })).json();
    assert.ok(openapi.paths['/api/cost'], '/api/cost is described');
    const report = await verifyRelease(dirSource(hand.release));
    assert.ok(
      report.ok,
      report.checks
        .filter((c) => !c.ok)
        .map((c) => `${c.check}: ${c.detail}`)
        .join(' | '),
    );
    const docs = await mirrorDocuments(hand.options);
    const cost = docs.find((d) => d.path === '/api/cost?axis=quiz');
    assert.ok(cost, '/api/cost?axis=quiz is mirrored');
    assert.ok(cost.body.equals((await hand.app.inject({ url: '/api/cost?axis=quiz' })).rawPayload));
    assert.ok(
      docs.some((d) => d.path === '/peritem/prices.json'),
      '/peritem/prices.json is mirrored',
    );
  });
});

describe('the demo release (no tokens, no price list)', () => {
  const demo = serve(demoCorpus);

  it('lists every model of each comparison axis with no cost and says why; facts axes are 404', async () => {
    const axes = (await demo.app.inject({ url: '/api/gspc' })).json().axes as any[];
    const comparison = axes.filter((a) => a.kind === 'model-comparison').map((a) => a.axis);
    assert.ok(comparison.length > 3);
    for (const axis of comparison) {
      const doc = (await demo.app.inject({ url: `/api/cost?axis=${axis}` })).json();
      const models = (await demo.app.inject({ url: `/api/models?axis=${axis}` })).json();
      assert.equal(doc.prices, null, axis);
      assert.deepEqual(
        doc.models.map((m: any) => m.model),
        models.models.map((m: any) => m.model),
      );
      for (const m of doc.models) {
        assert.equal(m.cost, null, `${axis} ${m.model}: no cost, never 0`);
        assert.match(m.cost_reason, /no price/);
      }
      assert.equal(doc.cheapest_not_separated, null);
      assert.equal(typeof doc.cheapest_reason, 'string');
    }
    const facts = axes.find((a) => a.kind === 'deterministic-facts');
    assert.equal((await demo.app.inject({ url: `/api/cost?axis=${facts.axis}` })).statusCode, 404);
  });
});
