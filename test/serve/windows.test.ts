/**
 * `GET /api/windows?axis=` (`svc.gspc-windows/0.1`, issue 41 item 3) through the app: the worked
 * example's figures (docs/methodology.md §13), keyless prepared bytes with an ETag (304) and the
 * same bytes in-process, its query checked, an unknown or facts axis 404 `unknown_axis`, an
 * aggregate-only axis 404 `not_found`; described in OpenAPI, mirrored by gspc export static. The
 * demo (no dates, no cards) tests nothing and says why on every axis; its board is unchanged.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NO_DATES } from '../../src/core/board/windows-document.js';
import { mirrorDocuments } from '../../src/mirror.js';
import type { ServiceContext } from '../../src/serve/context.js';
import { bodyBytes, type DocumentRequest } from '../../src/serve/documents/document.js';
import { warmAxisDocuments } from '../../src/serve/documents/warm-axis-documents.js';
import { bytesFor as windowsBytes, windowsDocumentEntry } from '../../src/serve/documents/windows.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';
import { demoCorpus } from '../helpers/tmp.js';
import { windowsCorpus } from '../helpers/windows-corpus.js';
import { serveCorpus } from '../helpers/served-corpus.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

const serve = serveCorpus;

describe('GET /api/windows', () => {
  const worked = serve(windowsCorpus());

  it("gives the worked example's figures, read beside /api/models", async () => {
    const r = await worked.app.inject({ url: '/api/windows?axis=quiz' });
    assert.equal(r.statusCode, 200);
    const doc = r.json();
    assert.equal(doc.schema, 'svc.gspc-windows/0.1');
    assert.deepEqual(doc.sources, { models: '/api/models?axis=quiz', cards: '/peritem/models.json' });
    const ab = doc.pairs.find((p: any) => p.first === 'w/a' && p.second === 'w/b');
    assert.deepEqual(
      [ab.state, ab.later_cutoff, ab.n_pairs, ab.a, ab.b, ab.c, ab.p, ab.p_holm],
      ['SEPARATED', '2024-05-15', 16, 6, 8, 0, 2 / 256, 2 / 256],
    );
    const models = (await worked.app.inject({ url: '/api/models?axis=quiz' })).json();
    assert.deepEqual(
      doc.pairs.map((p: any) => [p.first, p.second]),
      models.pairs.map((p: any) => [p.first, p.second]),
    );
    const lead = doc.lead[0];
    const full = models.pairs.find((p: any) => p.first === 'w/a' && p.second === 'w/b');
    assert.deepEqual([lead.full.difference, lead.full.n_pairs], [full.difference, full.n_pairs]);
    assert.equal(doc.models.find((m: any) => m.model === 'w/c').after_cutoff, null);
    assert.match(doc.summary, /on the 16 items dated after both knowledge cutoffs/);
  });

  it('is a keyless release document: ETag and 304, CORS open, the same bytes in-process', async () => {
    const r = await worked.app.inject({ url: '/api/windows?axis=quiz' });
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    // Serialised a chunk of pairs at a time: exactly what JSON.stringify writes.
    assert.equal(r.body, JSON.stringify(r.json()));
    const again = await worked.app.inject({
      url: '/api/windows?axis=quiz',
      headers: { 'if-none-match': r.headers.etag },
    });
    assert.equal(again.statusCode, 304);
    const got = await worked.read.documents.readPath('/api/windows?axis=quiz');
    assert.ok(got.ok);
    assert.ok(bodyBytes(got.body).equals(r.rawPayload));
  });

  it('refuses a missing axis (400 bad_query), an unknown one (404 unknown_axis), another parameter', async () => {
    const none = await worked.app.inject({ url: '/api/windows' });
    assert.deepEqual([none.statusCode, none.json().code, none.json().known], [400, 'bad_query', ['quiz']]);
    const unknown = await worked.app.inject({ url: '/api/windows?axis=nope' });
    assert.deepEqual([unknown.statusCode, unknown.json().code, unknown.json().known], [404, 'unknown_axis', ['quiz']]);
    assert.equal((await worked.app.inject({ url: '/api/windows?axis=quiz&slice=x' })).json().code, 'bad_query');
  });

  it('is in OpenAPI and mirrored by gspc export static, byte for byte', async () => {
    const openapi = (await worked.app.inject({ url: '/openapi.json' })).json();
    assert.ok(openapi.paths['/api/windows'], '/api/windows is described');
    const docs = await mirrorDocuments(worked.options);
    const mirrored = docs.find((d) => d.path === '/api/windows?axis=quiz');
    assert.ok(mirrored, '/api/windows?axis=quiz is mirrored');
    assert.ok(mirrored.body.equals((await worked.app.inject({ url: '/api/windows?axis=quiz' })).rawPayload));
  });

  it('without dates or without cards, tests no pair and says why', async () => {
    const undated = serve(windowsCorpus({ dates: false }));
    const d = (await undated.app.inject({ url: '/api/windows?axis=quiz' })).json();
    assert.deepEqual([d.dated_items, d.dates_reason, d.m], [0, NO_DATES, 0]);
    assert.ok(d.pairs.every((p: any) => p.state === 'UNTESTED' && p.n_pairs === undefined));
    const uncarded = serve(windowsCorpus({ cards: null }));
    const c = (await uncarded.app.inject({ url: '/api/windows?axis=quiz' })).json();
    assert.equal(c.sources.cards, null);
    assert.ok(c.pairs.every((p: any) => p.state === 'UNTESTED' && /^no knowledge cutoff for /.test(p.reason)));
    assert.match(c.summary, /^No knowledge cutoff for w\/a \(the leader\)/);
  });
});

/** 40 models × 2,000 dated items, every model with a cutoff: 780 pairs, a build of many slices. */
function largerCorpus(): string {
  const rows: string[] = [];
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  for (let i = 0; i < 2000; i++)
    for (let m = 0; m < 40; m++)
      rows.push(
        JSON.stringify({
          item: `i${i}`,
          model: `l/m${m}`,
          gold: 'A',
          label: next() < 0.5 + m / 100 ? 'A' : 'B',
          item_date: `2024-${String((i % 12) + 1).padStart(2, '0')}`,
        }),
      );
  const dir = writeQuizCorpus({ rows });
  const models = Array.from({ length: 40 }, (_, m) => ({ model: `l/m${m}`, knowledge_cutoff: `2024-0${(m % 6) + 1}` }));
  writeFileSync(join(dir, 'models.json'), JSON.stringify({ schema: 'svc.gspc-corpus-models/1', models }));
  return dir;
}

describe('built off the request path', () => {
  const large = serve(largerCorpus());
  const req = (axis: string): DocumentRequest => ({
    params: {},
    query: new Map([['axis', axis]]),
    path: '/api/windows',
    log: { warn: () => undefined, error: () => undefined },
  });

  it('a first read waits for a build in slices while other requests are answered; once built, a read is synchronous', async () => {
    const ctx = { state: large.options.state } as unknown as ServiceContext;
    const first = windowsDocumentEntry.read(ctx, req('quiz'));
    assert.ok(first instanceof Promise, 'not built yet: the read waits for the build');
    let windowsDone = false;
    void first.then(() => {
      windowsDone = true;
    });
    // The board is answered while the windows (and the /api/models document under them) build.
    const board = await large.app.inject({ url: '/api/gspc' });
    assert.equal(board.statusCode, 200);
    assert.equal(windowsDone, false, 'the board was answered before the windows build ended');
    const body = await first;
    const again = windowsDocumentEntry.read(ctx, req('quiz'));
    assert.ok(!(again instanceof Promise), 'built: answered synchronously, as the fast path replays it');
    assert.equal(again.kind, 'prepared');
    assert.ok(bodyBytes(again).equals(bodyBytes(body)));
    const doc = JSON.parse(bodyBytes(body).toString('utf8'));
    assert.equal(doc.pairs.length, 780);
    assert.ok(doc.m > 0);
  });
});

describe('warmed after a publish', () => {
  it("a dated axis's windows are built by the warm-up, before any reader; an undated axis's are not", async () => {
    const dated = serve(windowsCorpus()).options.state.current();
    assert.ok(windowsBytes(dated, 'quiz') instanceof Promise, 'not built before the warm-up');
    const again = serve(windowsCorpus()).options.state.current();
    await warmAxisDocuments(again).done;
    assert.ok(!(windowsBytes(again, 'quiz') instanceof Promise), 'built by the warm-up');
    const undated = serve(windowsCorpus({ dates: false })).options.state.current();
    await warmAxisDocuments(undated).done;
    assert.ok(windowsBytes(undated, 'quiz') instanceof Promise, 'an undated axis is built on request');
  });
});

describe('the demo release (no item dates, no model cards)', () => {
  const demo = serve(demoCorpus);

  it('answers every comparison axis with rows, tests nothing, and refuses aggregate-only and facts axes', async () => {
    const board = (await demo.app.inject({ url: '/api/gspc' })).json();
    const comparison = board.axes.filter((a: any) => a.kind === 'model-comparison');
    let answered = 0;
    const refused: string[] = [];
    for (const row of comparison) {
      const r = await demo.app.inject({ url: `/api/windows?axis=${row.axis}` });
      const rows = (await demo.app.inject({ url: `/peritem/${row.axis}.jsonl` })).statusCode === 200;
      if (!rows) {
        // No per-item rows (aggregate results only, or not measured): nothing to date or pair.
        assert.deepEqual([r.statusCode, r.json().code], [404, 'not_found'], row.axis);
        assert.match(r.json().error, /no per-item rows: no item to date or pair/);
        assert.ok(!r.json().known.includes(row.axis));
        refused.push(row.axis);
        continue;
      }
      answered++;
      const doc = r.json();
      assert.equal(r.statusCode, 200, row.axis);
      assert.equal(doc.dates_reason, NO_DATES);
      assert.equal(doc.m, 0);
      assert.ok(doc.pairs.every((p: any) => p.state === 'UNTESTED'));
      assert.doesNotMatch(doc.summary, /points/);
    }
    assert.ok(answered >= 3);
    assert.ok(refused.includes('continuity'), 'the aggregate-only axis is refused');
    const facts = board.axes.find((a: any) => a.kind === 'deterministic-facts');
    assert.equal((await demo.app.inject({ url: `/api/windows?axis=${facts.axis}` })).json().code, 'unknown_axis');
  });
});
