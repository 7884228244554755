/**
 * The item explorer page `/dashboard/axes/<slug>/items` (issue 41 item 4, decisions XP1-XP6), as
 * plain HTML (no JavaScript): on a corpus whose model ids, item ids, gold, labels and responses
 * are full of markup (explorer-corpus.ts), every such string is escaped and every control or
 * bidirectional character is a visible mark, never applied; a pair shows the 2×2 counts of
 * /api/items and the discordant items of each side, 20 a page, with next and previous links
 * that read every item once and come back; an item shows every model; the axis page links each
 * pair; a bad query is an HTML page with the document's status, never a stack.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shownText } from '../../src/pages/inert-text.js';
import { PAGE_ENTRIES } from '../../src/pages/item-explorer-page.js';
import { dashboardApp } from './dashboard-app.js';
import { htmlView } from './dashboard-view.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';
import { explorerCorpus, GOLD, itemId, LONG_ITEM, MODEL_A, MODEL_B, MODEL_C, responseOf } from './explorer-corpus.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

const { app } = dashboardApp({ corpus: explorerCorpus() });

const explorer = (q: Record<string, string>) => `/dashboard/axes/quiz/items?${new URLSearchParams(q)}`;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
/** What a reader sees of an element's HTML: its tags dropped, its entities read. */
const textOf = (h: string) => decode(h.replace(/<[^>]*>/g, ''));

async function get(url: string) {
  const r = await app.inject(url);
  return { status: r.statusCode, type: r.headers['content-type'], body: r.body };
}

/** Every `<pre class="xp-response">`'s text as shown, in page order. */
const responses = (body: string) =>
  [...body.matchAll(/<pre class="xp-response"[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => textOf(m[1]!));

/** Neither a script, an img, an injected heading nor a raw bidi control came from the operator's text. */
function assertInert(body: string): void {
  assert.ok(!/<script/i.test(body), 'the page has no script element at all');
  assert.ok(!/<img/i.test(body), 'no img element');
  assert.ok(!body.includes('<h1>injected'), 'no injected heading');
  assert.ok(!/<u>|<b>yes|<i>no/.test(body), 'no operator markup as tags');
  assert.ok(!/[\u202e\u200b]/.test(body), 'no raw bidi control or zero-width space');
  assert.ok(!/\bat .*\.js:\d+/.test(body), 'no stack');
}

/** A `<dd data-field>`'s text as shown (it may hold markup of the page: `<wbr>`, `<code>`). */
const field = (body: string, name: string) =>
  textOf(new RegExp(`<dd data-field="${name}">([\\s\\S]*?)</dd>`).exec(body)?.[1] ?? '');

const rel = (body: string, which: 'next' | 'prev') =>
  decode(new RegExp(`<a rel="${which}" href="([^"]+)"`).exec(body)?.[1] ?? '') || null;

describe('the item explorer page, plain HTML', () => {
  it('a pair: the 2×2 counts of /api/items, A right and B wrong, 20 a page, every string inert', async () => {
    const json = (
      await app.inject(`/api/items?${new URLSearchParams({ axis: 'quiz', first: MODEL_A, second: MODEL_B })}`)
    ).json();
    assert.deepEqual(json.counts, { n_pairs: 70, a: 12, b: 23, c: 12, d: 23, conflicts: 0 });
    const r = await get(explorer({ first: MODEL_A, second: MODEL_B }));
    assert.equal(r.status, 200);
    assert.equal(r.type, 'text/html; charset=utf-8');
    assertInert(r.body);
    const v = htmlView(r.body);
    assert.equal(field(r.body, 'first'), MODEL_A, 'the model id shown as text');
    assert.equal(field(r.body, 'second'), MODEL_B);
    assert.ok(r.body.includes('x/&lt;script&gt;alert(1)&lt;/script&gt;'));
    const counts = v.tables['xp-counts']!.map((row) => row.cells.slice(1).map((c) => Number(c.value)));
    assert.deepEqual(counts, [
      [12, 23],
      [12, 23],
    ]);
    const rows = v.tables['xp-items']!;
    assert.equal(rows.length, PAGE_ENTRIES);
    const expected = json.items.slice(0, PAGE_ENTRIES);
    assert.deepEqual(
      rows.map((row) => row.data['item']),
      expected.map((e: any) => e.item),
      'the first 20 discordant items, in item order',
    );
    for (const [k, row] of rows.entries()) {
      const e = expected[k];
      assert.equal(row.cells[0]!.text, e.item);
      assert.equal(row.cells[1]!.text, GOLD, 'gold as text');
      assert.equal(row.cells[2]!.text, GOLD, "A's label (right)");
      assert.equal(row.cells[4]!.text, '<i>no</i>', "B's label (wrong)");
    }
    // Both responses of every item, each shown literally, its bidi override a visible mark.
    const shown = responses(r.body);
    assert.equal(shown.length, 2 * PAGE_ENTRIES);
    const index = (item: string) => Number(/(\d+)<\/u>$/.exec(item)![1]);
    expected.forEach((e: any, k: number) => {
      const i = index(e.item);
      const cut = (s: string) => (i === LONG_ITEM ? s.slice(0, 2000) : s);
      assert.equal(shown[2 * k], shownText(cut(responseOf(MODEL_A, i)), true), `A on ${e.item}`);
      assert.equal(shown[2 * k + 1], shownText(cut(responseOf(MODEL_B, i)), true), `B on ${e.item}`);
    });
    assert.ok(shown[0]!.includes('\\u202eevil reversed\\u200b'), 'the override and the zero-width space shown');
    assert.ok(r.body.includes('title="U+202E: shown, not applied"'));
    assert.ok(r.body.includes('cut at 2,000 characters'), 'the cut response says so');
    // Each item links its per-item view; the side switch names the other side.
    const itemLink = explorer({ item: itemId(2) });
    assert.ok(r.body.includes(`href="${itemLink.replace(/&/g, '&amp;')}"`), itemLink);
    assert.match(
      r.body,
      /<a aria-current="page" href="[^"]*side=first" data-side="first">A right, B wrong \(23\)<\/a>/,
    );
    assert.match(r.body, /<a href="[^"]*side=second" data-side="second">B right, A wrong \(12\)<\/a>/);
  });

  it('pages: next and previous read every discordant item once, in order, and come back', async () => {
    for (const [side, count] of [
      ['first', 23],
      ['second', 12],
    ] as const) {
      const all: any[] = [];
      let cursor: string | null = null;
      do {
        const page: any = (
          await app.inject(
            `/api/items?${new URLSearchParams({ axis: 'quiz', first: MODEL_A, second: MODEL_B, side, ...(cursor && { cursor }) })}`,
          )
        ).json();
        all.push(...page.items);
        cursor = page.page.next_cursor;
      } while (cursor !== null);
      assert.equal(all.length, count);
      const seen: string[] = [];
      const pages: string[] = [];
      let url: string | null = explorer({ first: MODEL_A, second: MODEL_B, side });
      while (url !== null) {
        const r = await get(url);
        assert.equal(r.status, 200, url);
        assertInert(r.body);
        pages.push(url);
        seen.push(...htmlView(r.body).tables['xp-items']!.map((row) => row.data['item']!));
        const prev = rel(r.body, 'prev');
        assert.equal(prev, pages.length === 1 ? null : pages.at(-2), 'previous leads back to the page before');
        url = rel(r.body, 'next');
      }
      assert.deepEqual(
        seen,
        all.map((e) => e.item),
        `side ${side}: every item once, in order`,
      );
      assert.equal(pages.length, Math.ceil(count / PAGE_ENTRIES));
      if (side === 'second') {
        // B right and A wrong: the label columns swap their meaning, not their models.
        const r = await get(pages[0]!);
        const row = htmlView(r.body).tables['xp-items']![0]!;
        assert.deepEqual([row.cells[2]!.text, row.cells[4]!.text], ['<i>no</i>', GOLD]);
        assert.match(r.body, /The items B got right and A got wrong/);
      }
    }
  });

  it('one item: every model with its outcome, label and response; reached from the pair', async () => {
    const r = await get(explorer({ item: itemId(3) }));
    assert.equal(r.status, 200);
    assertInert(r.body);
    const v = htmlView(r.body);
    assert.equal(field(r.body, 'item'), itemId(3));
    assert.equal(field(r.body, 'models_without_row'), '0');
    const rows = v.tables['xp-models']!;
    const models = [MODEL_A, MODEL_B, MODEL_C].sort();
    assert.deepEqual(
      rows.map((row) => row.data['model']),
      models,
      'every model, in model-id order',
    );
    const outcome: Record<string, string> = { [MODEL_A]: 'wrong', [MODEL_B]: 'correct', [MODEL_C]: 'correct' };
    for (const row of rows) {
      const m = row.data['model']!;
      assert.equal(row.cells[0]!.text, m);
      assert.equal(row.data['outcome'], outcome[m]);
      assert.equal(row.cells[2]!.text, outcome[m] === 'correct' ? GOLD : '<i>no</i>');
    }
    assert.deepEqual(
      responses(r.body),
      models.map((m) => shownText(responseOf(m, 3), true)),
    );
  });

  it('the axis page links each pair to its explorer; the heat map reads those links', async () => {
    const body = (await get('/dashboard/axes/quiz')).body;
    const rows = htmlView(body).tables['axis-pairs']!;
    assert.equal(rows.length, 3);
    for (const row of rows) {
      const href = explorer({ first: row.data['first']!, second: row.data['second']! }).replace(/&/g, '&amp;');
      assert.ok(body.includes(`<a class="axis-pair-items" href="${href}">the items that differ</a>`), href);
      assert.equal((await get(decode(href))).status, 200);
    }
  });

  it('is described in /openapi.json with its query', async () => {
    const doc = JSON.parse((await app.inject('/openapi.json')).body);
    const op = doc.paths['/dashboard/axes/{axis}/items']?.get;
    assert.ok(op, 'the operation');
    assert.deepEqual(
      op.parameters.map((p: any) => p.name),
      ['axis', 'first', 'second', 'side', 'item', 'cursor'],
    );
    assert.deepEqual(Object.keys(op.responses), ['200', '4XX']);
  });

  for (const [what, url, status, words] of [
    ['an unknown axis', '/dashboard/axes/nope/items?first=a&second=b', 404, "no model-comparison axis 'nope'"],
    ['an unknown model', explorer({ first: MODEL_A, second: 'm/none' }), 404, "second: no model 'm/none'"],
    ['an unknown item', explorer({ item: 'q/<none>' }), 404, 'item: no such item on this axis'],
    ['no pair or item', '/dashboard/axes/quiz/items', 400, 'first and second: both required'],
    ['first without second', explorer({ first: MODEL_A }), 400, 'first and second: both required'],
    ['one model twice', explorer({ first: MODEL_A, second: MODEL_A }), 400, 'two different models'],
    ['a third side', explorer({ first: MODEL_A, second: MODEL_B, side: 'both' }), 400, 'side: first or second'],
    ['item with a pair', explorer({ item: itemId(1), first: MODEL_A }), 400, 'item: not with first'],
    [
      'an unknown parameter',
      explorer({ first: MODEL_A, second: MODEL_B, axis: 'quiz' }),
      400,
      "unknown query parameter 'axis'",
    ],
    ['a made-up cursor', explorer({ first: MODEL_A, second: MODEL_B, cursor: '<x>' }), 400, 'cursor: expected'],
    [
      "another side's cursor",
      explorer({ first: MODEL_A, second: MODEL_B, side: 'first', cursor: '00000000.second:20' }),
      400,
      'cursor: expected',
    ],
    [
      "another pair's cursor",
      explorer({ first: MODEL_A, second: MODEL_C, cursor: '00000000.first:20' }),
      400,
      'cursor: from another release',
    ],
  ] as const)
    it(`${what}: ${status}, an HTML page saying why`, async () => {
      const r = await get(url);
      assert.equal(r.status, status, r.body.slice(0, 400));
      assert.equal(r.type, 'text/html; charset=utf-8');
      const callout = /<p class="callout" id="dash-error" data-status="(\d+)">([\s\S]*?)<\/p>/.exec(r.body);
      assert.ok(callout, 'the error callout');
      assert.equal(callout[1], String(status));
      assert.ok(textOf(callout[2]!).includes(words), textOf(callout[2]!));
      assertInert(r.body);
    });
});

describe('the item explorer on the demo', () => {
  const { app: demo } = dashboardApp();

  it("every pairs-table link of every axis page opens that pair's 2×2 counts, /api/models's a, b, c; labels only", async () => {
    const board = JSON.parse((await demo.inject('/api/gspc')).body);
    let linked = 0;
    for (const row of board.axes.filter((r: any) => r.kind === 'model-comparison')) {
      const body = (await demo.inject(`/dashboard/axes/${row.axis}`)).body;
      const models = JSON.parse((await demo.inject(`/api/models?axis=${row.axis}`)).body);
      const links = [...body.matchAll(/<a class="axis-pair-items" href="([^"]+)">/g)].map((m) => decode(m[1]!));
      if (row.axis === 'continuity') {
        assert.deepEqual(links, [], 'an aggregate-only axis has no items to link');
        continue;
      }
      if (models.bank_state) continue;
      assert.equal(links.length, models.pairs.length, row.axis);
      for (const [k, href] of links.entries()) {
        const p = models.pairs[k];
        const r = await demo.inject(href);
        assert.equal(r.statusCode, 200, href);
        const counts = htmlView(r.body).tables['xp-counts']!.map((tr) => tr.cells.slice(1).map((c) => Number(c.value)));
        if (p.n_pairs !== undefined)
          assert.deepEqual(
            counts,
            [
              [p.a, p.b],
              [p.c, p.n_pairs - p.a - p.b - p.c],
            ],
            `${row.axis} ${p.first} vs ${p.second}`,
          );
        assert.ok(r.body.includes('id="xp-no-responses"'), 'the demo rows carry no response: said once');
        assert.ok(!r.body.includes('class="xp-response"'));
        linked++;
      }
    }
    assert.ok(linked >= 10, `${linked} pairs followed`);
  });
});

describe("one item's models, paged", () => {
  // 45 models on one item (and a second item, so the axis has two): three pages of 20, 20 and 5.
  const models = Array.from({ length: 45 }, (_, i) => `m/${String(i).padStart(2, '0')}`);
  const rows = ['q/1', 'q/2'].flatMap((item) =>
    models.map((model, i) => JSON.stringify({ item, model, gold: 'A', label: i % 2 === 0 ? 'A' : 'B' })),
  );
  const { app: many } = dashboardApp({ corpus: writeQuizCorpus({ rows }) });

  it('next and previous read every model once, in model-id order, and come back', async () => {
    const seen: string[] = [];
    const pages: string[] = [];
    let url: string | null = explorer({ item: 'q/1' });
    while (url !== null) {
      const r: { statusCode: number; body: string } = await many.inject(url);
      assert.equal(r.statusCode, 200, url);
      pages.push(url);
      const rowsShown = htmlView(r.body).tables['xp-models']!;
      seen.push(...rowsShown.map((row) => row.data['model']!));
      for (const row of rowsShown)
        assert.equal(row.data['outcome'], Number(row.data['model']!.slice(2)) % 2 === 0 ? 'correct' : 'wrong');
      assert.equal(rel(r.body, 'prev'), pages.length === 1 ? null : pages.at(-2));
      url = rel(r.body, 'next');
    }
    assert.deepEqual(seen, models);
    assert.equal(pages.length, 3);
  });
});
