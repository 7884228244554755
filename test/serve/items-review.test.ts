/**
 * Review R2 of the item explorer (`/api/items` and its page, issue 41 item 4), each defect found
 * with the test that shows it:
 * - an item id of 201-512 characters (the corpus allows 512) was linked from the pair page but
 *   refused by both the page and the document (every query value was capped at 200);
 * - a side's discordant list was found again by a pass over every item at each read (decision
 *   R2-1): now kept under its cursor scope, so a page read after the first costs its entries only;
 * - the response index parsed 2,048 lines between looks at the clock whatever their size, and a
 *   page parsed a long row's whole line again at each read (decision R2-2).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { ItemTable } from '../../src/core/board/item-table.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { discordantList } from '../../src/serve/documents/discordant-lists.js';
import { buildSteps } from '../../src/serve/documents/item-responses.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';
import { tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

function serve(rows: string[]) {
  const signing = testSigning();
  const release = publishRelease(writeQuizCorpus({ rows }), tempDir(), signing.inputs).dir;
  const state = new ServedState(loadRelease(release), liveSigning(signing));
  const app = buildApp({ state, logLevel: 'silent' });
  after(() => app.close());
  return app;
}

const row = (item: string, model: string, right: boolean, response?: string) =>
  JSON.stringify({ item, model, gold: 'A', label: right ? 'A' : 'B', ...(response !== undefined && { response }) });

describe('the item explorer, review R2', () => {
  it('cuts a long label and gold at 500 characters, a gold list at 20, and says so: a page stays bounded', async () => {
    const rows: string[] = [];
    const goldList = Array.from({ length: 30 }, (_, i) => `G${i}`.padEnd(600, 'g'));
    for (let i = 0; i < 20; i++)
      rows.push(
        JSON.stringify({ item: `q/${i}`, model: 'm/one', gold: goldList, label: goldList[0] }),
        JSON.stringify({ item: `q/${i}`, model: 'm/two', gold: goldList, label: 'W'.repeat(200_000) }),
      );
    const signing = testSigning();
    const release = publishRelease(writeQuizCorpus({ rows, labels: goldList }), tempDir(), signing.inputs).dir;
    const app = buildApp({ state: new ServedState(loadRelease(release), liveSigning(signing)), logLevel: 'silent' });
    after(() => app.close());
    const doc = (await app.inject({ url: '/api/items?axis=quiz&first=m/one&second=m/two' })).json();
    assert.ok(JSON.stringify(doc).length <= 65536, 'a page within 64 KiB');
    const e = doc.items[0];
    assert.equal(e.gold.length, 20);
    assert.ok(e.gold.every((g: string) => g.length === 500));
    assert.equal(e.gold_truncated, true);
    assert.deepEqual([e.first.label.length, e.first.label_truncated], [500, true]);
    assert.deepEqual([e.second.label, e.second.label_truncated], ['W'.repeat(500), true]);
    const one = (await app.inject({ url: '/api/items?axis=quiz&item=q/0' })).json();
    assert.equal(one.gold_truncated, true);
    assert.ok(one.models.every((m: any) => m.label.length === 500 && m.label_truncated === true));
    const page = await app.inject({ url: '/dashboard/axes/quiz/items?first=m/one&second=m/two' });
    assert.equal(page.statusCode, 200);
    assert.ok(page.rawPayload.length < 1_000_000, `an explorer page of ${page.rawPayload.length} bytes`);
    assert.match(page.body, /\(cut: the published rows hold it whole\)/);
    // A short label is given whole, with no mark.
    const short = serve([row('s/1', 'm/one', true), row('s/1', 'm/two', false)]);
    const plain = (await short.inject({ url: '/api/items?axis=quiz&first=m/one&second=m/two' })).json();
    assert.deepEqual(plain.items[0].second, { label: 'B' });
    assert.equal(plain.items[0].gold_truncated, undefined);
  });

  it('answers an item id of 512 characters, which the pair page links, in the page and the document', async () => {
    const long = `i/${'x'.repeat(510)}`;
    const app = serve([
      row(long, 'm/one', true),
      row(long, 'm/two', false),
      row('short', 'm/one', true),
      row('short', 'm/two', true),
    ]);
    const pair = await app.inject({ url: '/dashboard/axes/quiz/items?first=m/one&second=m/two' });
    assert.equal(pair.statusCode, 200);
    const link = /href="([^"]*items\?item=[^"]*)"/.exec(pair.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(link !== undefined, 'the pair page links the item');
    const page = await app.inject({ url: link });
    assert.equal(page.statusCode, 200, page.body.slice(0, 200));
    assert.match(page.body, /data-model="m\/one" data-outcome="correct"/);
    const doc = await app.inject({ url: `/api/items?${new URLSearchParams({ axis: 'quiz', item: long })}` });
    assert.equal(doc.statusCode, 200, doc.body.slice(0, 200));
    assert.equal(doc.json().item, long);
    // Past the corpus's own limit, and for every other parameter past 200, still a 400.
    const over = await app.inject({ url: `/api/items?${new URLSearchParams({ axis: 'quiz', item: `${long}y` })}` });
    assert.deepEqual([over.statusCode, over.json().code], [400, 'bad_query']);
    assert.match(over.json().error, /longer than 512/);
    const model = await app.inject({
      url: `/api/items?${new URLSearchParams({ axis: 'quiz', first: 'm'.repeat(201), second: 'm/two' })}`,
    });
    assert.match(model.json().error, /'first' is longer than 200/);
  });

  it('keeps a side list under its key: the pass over every item is made once, not once a page', () => {
    const table = new ItemTable();
    for (let i = 0; i < 1000; i++) {
      table.add({ item: `q/${i}`, model: 'a', gold: 'A', label: i % 3 === 0 ? 'B' : 'A' }, i * 2 + 1);
      table.add({ item: `q/${i}`, model: 'b', gold: 'A', label: i % 2 === 0 ? 'A' : 'B' }, i * 2 + 2);
    }
    const first = discordantList('scope-r2-a', table, 'a', 'b', 'first');
    assert.equal(discordantList('scope-r2-a', table, 'a', 'b', 'first'), first, 'the same list, not a new pass');
    // a right (i % 3 !== 0) and b wrong (odd): the b items, and their count is b.
    const expected = [...Array(1000).keys()].filter((i) => i % 3 !== 0 && i % 2 === 1);
    assert.deepEqual([...first.items], expected);
    assert.equal(first.counts.b, expected.length);
    const second = discordantList('scope-r2-b', table, 'a', 'b', 'second');
    assert.deepEqual(
      [...second.items],
      [...Array(1000).keys()].filter((i) => i % 3 === 0 && i % 2 === 0),
    );
    assert.equal(second.counts.c, second.items.length);
    // Bounded: after 300 other scopes, the first is built again (a new object, the same items).
    for (let k = 0; k < 300; k++) discordantList(`scope-r2-fill-${k}`, table, 'a', 'b', 'first');
    const again = discordantList('scope-r2-a', table, 'a', 'b', 'first');
    assert.notEqual(again, first);
    assert.deepEqual([...again.items], expected);
    assert.equal(table.indexOf('q/999'), 999);
    assert.equal(table.indexOf('nope'), -1);
  });

  it('indexes long responses in steps of about a megabyte, cutting each once', async () => {
    // 120 rows, 60 of 300 kB responses: 18 MB of rows, one step before (2,048 lines a step).
    const rows: string[] = [];
    for (let i = 0; i < 60; i++) {
      const item = `q/${i}`;
      rows.push(row(item, 'm/one', true, `${item} `.padEnd(300_000, 'r')));
      rows.push(row(item, 'm/two', i % 2 === 0, `${item} two`));
    }
    const bytes = Buffer.from(`${rows.join('\n')}\n`);
    const table = new ItemTable();
    rows.forEach((r, i) => table.add(JSON.parse(r), i + 1));
    const steps = buildSteps(bytes, table);
    let yields = 0;
    let done = steps.next();
    for (; !done.done; done = steps.next()) yields++;
    // About a megabyte a step (a line is never split: four 300 kB lines make one): none before.
    assert.ok(yields >= 12, `${yields} steps for ${bytes.length} bytes`);
    const ix = done.value!;
    assert.equal(ix.long.size, 60, 'each long line cut once, when indexed');
    const app = serve(rows);
    const r = await app.inject({ url: '/api/items?axis=quiz&first=m/one&second=m/two' });
    assert.equal(r.statusCode, 200);
    const doc = r.json();
    assert.equal(doc.items.length, 30);
    assert.equal(doc.items[0].item, 'q/1');
    assert.equal(doc.items[0].first.response.length, 2000);
    assert.equal(doc.items[0].first.response_truncated, true);
    assert.ok(doc.items[0].first.response.startsWith('q/1 rrr'));
    assert.deepEqual(doc.items[0].second, { label: 'B', response: 'q/1 two' });
  });
});
