/**
 * `GET /api/items` (`svc.gspc-items/0.1`, issue 41 item 4, decisions IX1-IX5): a pair's 2×2
 * counts equal `/api/models`'s a, b, c for every tested demo pair; following `next_cursor` reads
 * each discordant item of a side exactly once, in item order, every page within 64 kB; one item
 * gives every model's outcome, label and response; operator strings full of markup come back as
 * JSON text unchanged; responses are cut at 2,000 characters and say so; errors carry stable
 * codes; described in OpenAPI; read in-process with the bytes the route sends.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { buildApp } from '../../src/app.js';
import { bodyBytes } from '../../src/serve/documents/document.js';
import { PAGE_BYTES } from '../../src/serve/documents/items.js';
import { demoCorpus } from '../helpers/tmp.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';
import { serveCorpus } from '../helpers/served-corpus.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

const serve = serveCorpus;

const MARKUP_MODEL = 'x/<script>alert("1")</script>&amp;';
const MARKUP_GOLD = '<b>yes</b>&"\'';
const MARKUP_RESPONSE = '<img src=x onerror="alert(1)"> </textarea>\u2028 &lt; ok';

/**
 * One axis `quiz`, 300 items, labels MARKUP_GOLD and `no`, gold MARKUP_GOLD: m/one right on items
 * i % 3 !== 0, m/two on even items, MARKUP_MODEL on the first 150 (unparsed on item 299), m/late
 * has rows on the first 10 items only; m/one's row of q/298 spells its `response` key with an escape. Every response is 1,500 characters (item 7's 2,500:
 * cut), so a side's discordant items take several 64 kB pages.
 */
function explorerCorpus(): string {
  const rows: string[] = [];
  for (let i = 0; i < 300; i++) {
    const item = `q/${String(i).padStart(3, '0')}`;
    const response = (m: string) => `${MARKUP_RESPONSE} ${m} ${item} `.padEnd(i === 7 ? 2500 : 1500, '.');
    const row = (model: string, right: boolean | null) =>
      rows.push(
        JSON.stringify({
          item,
          model,
          gold: MARKUP_GOLD,
          label: right === null ? null : right ? MARKUP_GOLD : 'no',
          response: response(model),
        }),
      );
    row('m/one', i % 3 !== 0);
    // The key spelt with an escape, as JSON allows: still read as the row's response.
    if (i === 298) rows[rows.length - 1] = rows.at(-1)!.replace('"response":', '"\\u0072esponse":');
    row('m/two', i % 2 === 0);
    row(MARKUP_MODEL, i === 299 ? null : i < 150);
    if (i < 10) row('m/late', true);
  }
  return writeQuizCorpus({ rows, issuer: 'Items test issuer (registry 1)', labels: [MARKUP_GOLD, 'no'] });
}

const q = (params: Record<string, string>) => `/api/items?${new URLSearchParams(params)}`;

/** Every page of a query from no cursor to null: the items in order, and each page's size. */
async function allPages(app: ReturnType<typeof buildApp>, params: Record<string, string>) {
  const items: any[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r: Awaited<ReturnType<typeof app.inject>> = await app.inject({
      url: q({ ...params, ...(cursor !== null && { cursor }) }),
    });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const doc = r.json();
    assert.equal(doc.page.from, items.length);
    items.push(...doc.items);
    assert.equal(doc.page.to, items.length);
    sizes.push(r.rawPayload.length);
    cursor = doc.page.next_cursor;
    assert.ok(++pages < 1000, 'the cursor never ends');
  } while (cursor !== null);
  return { items, sizes, pages };
}

describe('GET /api/items on the demo', () => {
  const demo = serve(demoCorpus);

  it('gives every tested pair of an axis the a, b and c of /api/models, and its b and c items across pages', async () => {
    const models = (await demo.app.inject({ url: '/api/models?axis=care' })).json();
    const tested = models.pairs.filter((p: any) => p.state !== 'UNTESTED');
    assert.ok(tested.length >= 3, 'the demo axis has tested pairs');
    for (const pair of tested) {
      for (const side of ['first', 'second'] as const) {
        const params = { axis: 'care', first: pair.first, second: pair.second, side };
        const r = await demo.app.inject({ url: q(params) });
        const doc = r.json();
        assert.equal(doc.schema, 'svc.gspc-items/0.1');
        assert.deepEqual(
          [doc.counts.n_pairs, doc.counts.a, doc.counts.b, doc.counts.c],
          [pair.n_pairs, pair.a, pair.b, pair.c],
          `${pair.first} vs ${pair.second}`,
        );
        const { items } = await allPages(demo.app, params);
        assert.equal(items.length, side === 'first' ? pair.b : pair.c);
        for (const it of items) {
          const [win, lose] = side === 'first' ? [it.first, it.second] : [it.second, it.first];
          assert.equal(win.label, it.gold, `${it.item}: the winning side's label is the gold`);
          assert.notEqual(lose.label, it.gold);
          assert.equal('response' in win, false, 'the demo rows carry no response: none is made up');
        }
      }
    }
    const one = (
      await demo.app.inject({ url: q({ axis: 'care', first: tested[0].first, second: tested[0].second }) })
    ).json();
    assert.deepEqual(one.responses.available, false);
    assert.match(one.responses.reason, /labels only/);
  });

  it('is keyless, the same bytes in-process, and described in OpenAPI', async () => {
    const url = q({ axis: 'care', item: 'care/0002' });
    const r = await demo.app.inject({ url });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    const got = await demo.read.documents.readPath(url);
    assert.ok(got.ok);
    assert.ok(bodyBytes(got.body).equals(r.rawPayload));
    const doc = r.json();
    // demo/corpus/peritem/care.jsonl's four rows of care/0002, in model-id order.
    assert.deepEqual(
      doc.models.map((m: any) => [m.model, m.outcome, m.label]),
      [
        ['demo/atlas-70b', 'correct', 'escalate'],
        ['demo/borealis-34b', 'unparsed', null],
        ['demo/cirrus-8b', 'correct', 'escalate'],
        ['demo/dune-8b-ft', 'correct', 'escalate'],
      ],
    );
    // The operator's own model is flagged, as /api/models flags it.
    const own = (await demo.app.inject({ url: q({ axis: 'conformance', item: 'conformance/0001' }) })).json();
    assert.deepEqual(
      own.models.filter((m: any) => m.own).map((m: any) => m.model),
      ['svc/sentinel-1'],
    );
    const ownPair = await demo.app.inject({
      url: q({ axis: 'conformance', first: 'svc/sentinel-1', second: 'demo/atlas-70b' }),
    });
    assert.equal(ownPair.json().own, true);
    const openapi = (await demo.app.inject({ url: '/openapi.json' })).json();
    assert.ok(openapi.paths['/api/items'], '/api/items is described');
  });
});

describe('GET /api/items with responses and markup', () => {
  const hand = serve(explorerCorpus());

  it('pages a side within 64 kB, reading each discordant item once in item order', async () => {
    // m/one right and m/two wrong: i % 3 !== 0 and i odd → 100 items.
    const { items, sizes, pages } = await allPages(hand.app, { axis: 'quiz', first: 'm/one', second: 'm/two' });
    assert.ok(pages >= 3, `${pages} pages`);
    for (const s of sizes) assert.ok(s <= PAGE_BYTES, `a page of ${s} bytes`);
    const expected = [];
    for (let i = 0; i < 300; i++) if (i % 3 !== 0 && i % 2 === 1) expected.push(`q/${String(i).padStart(3, '0')}`);
    assert.deepEqual(
      items.map((x) => x.item),
      expected,
    );
    const seven = items.find((x) => x.item === 'q/007');
    assert.equal(seven.first.response.length, 2000);
    assert.equal(seven.first.response_truncated, true);
    assert.equal(items[1].first.response_truncated, undefined);
    const reverse = await allPages(hand.app, { axis: 'quiz', first: 'm/one', second: 'm/two', side: 'second' });
    const doc = (await hand.app.inject({ url: q({ axis: 'quiz', first: 'm/one', second: 'm/two' }) })).json();
    assert.deepEqual([doc.counts.b, doc.counts.c, items.length, reverse.items.length], [100, 50, 100, 50]);
  });

  it('returns a model id, a gold label and a response full of markup as JSON text, unchanged', async () => {
    const r = await hand.app.inject({ url: q({ axis: 'quiz', first: MARKUP_MODEL, second: 'm/one', side: 'first' }) });
    assert.equal(r.statusCode, 200, r.body);
    const doc = r.json();
    assert.equal(doc.first, MARKUP_MODEL);
    const x = doc.items[0];
    assert.equal(x.gold, MARKUP_GOLD);
    assert.equal(x.first.label, MARKUP_GOLD);
    assert.ok(x.first.response.startsWith(`${MARKUP_RESPONSE} ${MARKUP_MODEL} `), x.first.response.slice(0, 120));
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  });

  it('gives one item every model with a row: outcome, label, response; the models without one counted', async () => {
    const doc = (await hand.app.inject({ url: q({ axis: 'quiz', item: 'q/299' }) })).json();
    assert.deepEqual([doc.item, doc.gold, doc.models_without_row], ['q/299', MARKUP_GOLD, 1]);
    assert.deepEqual(
      doc.models.map((m: any) => [m.model, m.outcome, m.label]),
      [
        ['m/one', 'correct', MARKUP_GOLD],
        ['m/two', 'wrong', 'no'],
        [MARKUP_MODEL, 'unparsed', null],
      ],
    );
    assert.ok(doc.models[2].response.includes(MARKUP_RESPONSE));
    assert.deepEqual(doc.responses, { available: true, max_chars: 2000 });
    const escaped = (await hand.app.inject({ url: q({ axis: 'quiz', item: 'q/298' }) })).json();
    assert.ok(escaped.models[0].response.startsWith(`${MARKUP_RESPONSE} m/one q/298`), 'an escaped key is a key');
  });

  it('refuses with stable codes: bad combinations 400, unknown axis, model or item 404', async () => {
    const code = async (params: Record<string, string>) => {
      const r = await hand.app.inject({ url: q(params) });
      return [r.statusCode, r.json().code];
    };
    assert.deepEqual(await code({}), [400, 'bad_query']);
    assert.deepEqual(await code({ axis: 'nope', item: 'q/001' }), [404, 'unknown_axis']);
    assert.deepEqual(await code({ axis: 'quiz' }), [400, 'bad_query']);
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/one' }), [400, 'bad_query']);
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/one', second: 'm/one' }), [400, 'bad_query']);
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/one', second: 'm/two', side: 'both' }), [400, 'bad_query']);
    assert.deepEqual(await code({ axis: 'quiz', item: 'q/001', first: 'm/one' }), [400, 'bad_query']);
    assert.deepEqual(await code({ axis: 'quiz', item: 'q/1000' }), [404, 'not_found']);
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/one', second: 'zz', x: 'y' }), [400, 'bad_query']);
    const unknown = (await hand.app.inject({ url: q({ axis: 'quiz', first: 'm/one', second: 'zz' }) })).json();
    assert.deepEqual([unknown.code, unknown.known_total, unknown.known.length], ['not_found', 4, 4]);
    // A cursor of another pair or side, or not a cursor at all, is refused (never misread).
    const page = (await hand.app.inject({ url: q({ axis: 'quiz', first: 'm/one', second: 'm/two' }) })).json();
    const cursor = page.page.next_cursor as string;
    assert.match(cursor, /^[0-9a-f]{8}\.first:\d+$/);
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/two', second: 'm/one', cursor }), [400, 'bad_query']);
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/one', second: 'm/two', side: 'second', cursor }), [
      400,
      'bad_query',
    ]);
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/one', second: 'm/two', cursor: 'x' }), [400, 'bad_query']);
    const past = cursor.replace(/:\d+$/, ':101');
    assert.deepEqual(await code({ axis: 'quiz', first: 'm/one', second: 'm/two', cursor: past }), [400, 'bad_query']);
  });
});
