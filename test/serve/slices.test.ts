/**
 * `GET /api/models?axis=&slice=` and `GET /api/slices?axis=` served through the app (issue 41
 * item 2, decisions SL1-SL8): a slice document is exactly the core's, from prepared bytes (ETag,
 * 304, answered synchronously once built); the list names every tag with its n, leader, letters,
 * too-small state and link; an unknown tag is a 404 naming the known tags (at most 50, with the
 * count); an axis whose rows carry no tags says so; the whole axis's document is unchanged by a
 * `slice` it does not carry.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelsDocument } from '../../src/core/board/models-document.js';
import type { SliceDocument, SlicesDocument } from '../../src/core/board/slices-document-shape.js';
import { slicedAxisSteps } from '../../src/core/board/slice-family.js';
import type { ModelComparisonAxis } from '../../src/core/board/model.js';
import { slicesDocumentEntry, slicesOf } from '../../src/serve/documents/slices.js';
import { warmAxisDocuments } from '../../src/serve/documents/warm-axis-documents.js';
import { BIG_TAG, slicesCorpus } from '../helpers/slices-corpus.js';
import { serveCorpus } from '../helpers/served-corpus.js';

const serve = serveCorpus;

describe('slices served', async () => {
  const { app, read, state } = serve(slicesCorpus(true));
  const { app: plain } = serve(slicesCorpus(false));
  const list = (await app.inject('/api/slices?axis=quiz')).json() as SlicesDocument;

  it('the list: every tag, n per model, leader, letters, too small and a link, in one family', () => {
    assert.equal(list.schema, 'svc.gspc-slices/0.1');
    assert.equal(list.slices.length, 61);
    assert.deepEqual(list.slices.map((s) => s.tag).slice(0, 2), [BIG_TAG, 't/00']);
    assert.equal(list.tagged_items, 127, 'q127, q128 and q129 carry no tag');
    const big = list.slices[0]!;
    assert.deepEqual(big.n, [100, 100, 100]);
    assert.equal(big.document, `/api/models?axis=quiz&slice=${encodeURIComponent(BIG_TAG)}`);
    assert.equal(big.too_small, false);
    const t = list.slices[1]!;
    assert.deepEqual([t.items, t.too_small, t.tie_groups, t.m_slice_family], [2, true, null, 0]);
    assert.equal(list.family.slices, 61);
    assert.equal(list.family.m, big.m_slice_family);
    assert.ok(list.family.m > 0);
  });

  it("a slice's document is the core's, from prepared bytes with an ETag and 304", async () => {
    const r = await app.inject(big());
    assert.equal(r.statusCode, 200);
    const doc = r.json() as SliceDocument;
    const current = state.current();
    const def = current.release.corpus.definitions.find((d) => d.axis === 'quiz') as ModelComparisonAxis;
    const table = current.release.corpus.tables.get('quiz')!;
    const steps = slicedAxisSteps(def, table, [], modelsDocument(def, table, []));
    let s = steps.next();
    while (!s.done) s = steps.next();
    assert.equal(r.body, JSON.stringify(s.value.documents.get(BIG_TAG)));
    assert.equal(doc.schema, 'svc.gspc-models/0.4');
    assert.deepEqual(doc.slice, { tag: BIG_TAG, items: 100 });
    assert.equal(doc.n, 100);
    const etag = r.headers.etag as string;
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    assert.equal((await app.inject({ url: big(), headers: { 'if-none-match': etag } })).statusCode, 304);
    // Built: the entry answers synchronously with prepared bytes (what the fast path replays).
    assert.ok(!(slicesOf(current, 'quiz') instanceof Promise));
    const body = slicesDocumentEntry.read({ state } as never, { query: new Map([['axis', 'quiz']]) } as never);
    assert.ok(!(body instanceof Promise) && body.kind === 'prepared');
    const got = await read.documents.readPath(big());
    assert.ok(got.ok && (got.value as unknown as SliceDocument).slice.tag === BIG_TAG);
  });

  it('the whole document is unchanged beside it', async () => {
    const whole = (await app.inject('/api/models?axis=quiz')).body;
    assert.equal(whole, (await plain.inject('/api/models?axis=quiz')).body);
  });

  it("warmAxisDocuments builds the whole documents, then every tagged axis's slices, before any reader", async () => {
    const fresh = serve(slicesCorpus(true));
    const p = fresh.state.current();
    assert.ok(slicesOf(p, 'quiz') instanceof Promise, 'not built before the warm-up');
    const again = serve(slicesCorpus(true)).state.current();
    assert.equal(await warmAxisDocuments(again).done, 1);
    assert.ok(!(slicesOf(again, 'quiz') instanceof Promise), 'built by the warm-up');
    assert.equal(await warmAxisDocuments(serve(slicesCorpus(false)).state.current()).done, 0);
  });

  it('errors: an unknown tag names the known ones (capped), an axis without tags says so', async () => {
    const r = await app.inject('/api/models?axis=quiz&slice=nope');
    assert.equal(r.statusCode, 404);
    const e = r.json();
    assert.equal(e.code, 'not_found');
    assert.equal(e.known.length, 50);
    assert.equal(e.known_total, 61);
    assert.equal(e.known[0], BIG_TAG);
    for (const url of ['/api/models?axis=quiz&slice=x', '/api/slices?axis=quiz']) {
      const u = await plain.inject(url);
      assert.equal(u.statusCode, 404, url);
      assert.match(u.json().error, /axis 'quiz' has no slices: no row of it carries tags/);
    }
    assert.equal((await app.inject('/api/slices?axis=nope')).json().code, 'unknown_axis');
    assert.equal((await app.inject('/api/slices')).json().code, 'bad_query');
    assert.equal((await app.inject('/api/slices?axis=quiz&slice=x')).json().code, 'bad_query');
  });
});

const big = () => `/api/models?axis=quiz&slice=${encodeURIComponent(BIG_TAG)}`;
