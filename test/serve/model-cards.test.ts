/**
 * `GET /api/model-cards` (`svc.gspc-model-cards/0.1`, issue 40): every measured model with what
 * the corpus's models.json states about it, served keyless and read-only by the registry, the
 * same bytes in-process, `models.json` published and listed in the per-item manifest, a model id
 * full of markup carried as JSON text, and the board's rows unchanged by a card.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mirrorDocuments } from '../../src/mirror.js';
import { dirSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { bodyBytes } from '../../src/serve/documents/document.js';
import { demoCorpus } from '../helpers/tmp.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';
import { serveCorpus } from '../helpers/served-corpus.js';

/** Markup, quotes, an ampersand, a backslash and a non-ASCII letter: no white space, so a valid id. */
const MARKUP = `<script>alert("x")</script><img/src=x/onerror=alert('y')>&amp;\\é`;
const PLAIN = 'lab/plain-7b';

/** A two-model corpus of three items; with `cards`, a models.json holding them. */
function corpus(cards?: unknown[]): string {
  const rows = ['1', '2', '3'].flatMap((item) =>
    [PLAIN, MARKUP].map((model, i) =>
      JSON.stringify({ item, model, gold: 'A', label: i === 0 || item === '1' ? 'A' : 'B' }),
    ),
  );
  const dir = writeQuizCorpus({ rows });
  if (cards)
    writeFileSync(
      join(dir, 'models.json'),
      JSON.stringify({ schema: 'svc.gspc-corpus-models/1', models: cards }, null, 2),
    );
  return dir;
}

const serve = serveCorpus;

const CARD = {
  model: MARKUP,
  organisation: '<b>Lab</b> & "Co"',
  open_weights: false,
  parameters: 7_000_000_000,
  knowledge_cutoff: '2024-03',
  revision: ['main', 'v2'],
  url: 'https://example.org/<x>?a="1"&b=2',
};

describe('GET /api/model-cards', () => {
  const withCards = serve(corpus([CARD]));

  it('lists every measured model in id order, each card as the corpus states it, absent fields absent', async () => {
    const r = await withCards.app.inject({ url: '/api/model-cards' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.ok(typeof r.headers.etag === 'string');
    const doc = r.json();
    assert.equal(doc.schema, 'svc.gspc-model-cards/0.1');
    assert.equal(doc.as_of, '2026-11-01T00:00:00Z');
    assert.equal(doc.source.url, '/peritem/models.json');
    assert.equal(doc.with_card, 1);
    const { model: _, ...card } = CARD;
    // The markup id sorts first ('<' is below 'l'); its text comes back exactly, as JSON.
    assert.deepEqual(doc.models, [
      { model: MARKUP, axes: ['quiz'], card },
      { model: PLAIN, axes: ['quiz'], card: {} },
    ]);
    assert.ok(!r.body.includes('<script>alert("x")'), 'quotes are escaped inside the JSON string');
    assert.equal(r.headers['access-control-allow-origin'], '*');
  });

  it('publishes models.json byte for byte, listed in the per-item manifest with its sha256', async () => {
    const doc = (await withCards.app.inject({ url: '/api/model-cards' })).json();
    const file = await withCards.app.inject({ url: '/peritem/models.json' });
    assert.equal(file.statusCode, 200);
    assert.deepEqual(JSON.parse(file.body).models, [CARD]);
    const manifest = (await withCards.app.inject({ url: '/peritem/manifest.json' })).json();
    const entry = manifest.files.find((f: { url: string }) => f.url === '/peritem/models.json');
    assert.deepEqual([entry.role, entry.sha256], ['model-cards', doc.source.sha256]);
  });

  it('is read in-process with the same bytes, takes no query, answers 304 on its ETag', async () => {
    const r = await withCards.app.inject({ url: '/api/model-cards' });
    const got = await withCards.read.documents.readPath('/api/model-cards');
    assert.ok(got.ok);
    assert.ok(bodyBytes(got.body).equals(r.rawPayload));
    assert.equal((await withCards.app.inject({ url: '/api/model-cards?model=x' })).json().code, 'bad_query');
    const again = await withCards.app.inject({ url: '/api/model-cards', headers: { 'if-none-match': r.headers.etag } });
    assert.equal(again.statusCode, 304);
  });

  it('a release with models.json verifies as gspc verify checks it; gspc export static mirrors the document and the file', async () => {
    const report = await verifyRelease(dirSource(withCards.release));
    assert.ok(
      report.ok,
      report.checks
        .filter((c) => !c.ok)
        .map((c) => `${c.check}: ${c.detail}`)
        .join(' | '),
    );
    const docs = await mirrorDocuments(withCards.options);
    const cards = docs.find((d) => d.path === '/api/model-cards');
    assert.ok(cards, '/api/model-cards is mirrored');
    assert.ok(cards.body.equals((await withCards.app.inject({ url: '/api/model-cards' })).rawPayload));
    assert.ok(
      docs.some((d) => d.path === '/peritem/models.json'),
      '/peritem/models.json is mirrored',
    );
  });

  it('without models.json: every model listed with an empty card, source null; the board is the same but for the manifest hash', async () => {
    const without = serve(corpus());
    const doc = (await without.app.inject({ url: '/api/model-cards' })).json();
    assert.equal(doc.source, null);
    assert.equal(doc.with_card, 0);
    assert.deepEqual(
      doc.models.map((m: { model: string; card: object }) => [m.model, m.card]),
      [
        [MARKUP, {}],
        [PLAIN, {}],
      ],
    );
    // A card changes no figure of the board: only the manifest hash, which covers every published
    // file (decision MC6). Everything else is equal, byte for byte once that hash is set aside.
    const [a, b] = await Promise.all(
      [without, withCards].map(async (s) => (await s.app.inject({ url: '/api/gspc' })).body),
    );
    const hashOf = (t: string) => JSON.parse(t).measured_on.peritem_sha256 as string;
    assert.notEqual(hashOf(a!), hashOf(b!));
    // Set aside: that hash, and the signature over the board (each service here has its own key).
    const rest = (t: string) => {
      const d = JSON.parse(t);
      d.measured_on.peritem_sha256 = '';
      d.site_attestation.sig = '';
      return JSON.stringify(d);
    };
    assert.equal(rest(a!), rest(b!));
  });
});

describe('the demo release', () => {
  it('serves /api/model-cards with every measured demo model and no card (the demo has no models.json)', async () => {
    const { app } = serve(demoCorpus);
    const doc = (await app.inject({ url: '/api/model-cards' })).json();
    assert.equal(doc.source, null);
    assert.ok(doc.models.length >= 5);
    assert.ok(
      doc.models.every((m: { card: object; axes: string[] }) => Object.keys(m.card).length === 0 && m.axes.length > 0),
    );
  });
});
