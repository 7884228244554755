/**
 * /dashboard/axes/<slug> (issue 29): every model-comparison axis of the demo has a page whose two
 * tables hold exactly what /api/models?axis=<slug> serves, whose lead sentence states the
 * leader's difference and MDD from that document, and which the measured tab links to; an
 * unknown or facts axis is a 404 page naming the axes there are. In headless Chromium: the forest
 * plot has one interval per model with a parsed response and its tie-group letters, the matrix
 * one cell per ordered pair with every SEPARATED public pair marked, no name is clipped, nothing
 * scrolls sideways at 1280 or 390 px; screenshots axis-<slug>-desktop|phone.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { dashboardApp } from './dashboard-app.js';
import { clippedTexts, overflowingTables, pageWidth } from './dashboard-marks.js';
import { htmlView, pageView, type Row, type View } from './dashboard-view.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
type Json = any;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

/** A numeric cell: the served value exactly in data-value ('' when absent). */
function value(row: Row, i: number): string | null {
  return row.cells[i]!.value;
}
const num = (x: number | null | undefined) => (x === null || x === undefined ? '' : String(x));
/** A model's tie groups as the page prints them: run together up to 26 groups, apart past (issue 39). */
const lettersOf = (doc: Json, m: Json) => ((m.tie_groups ?? []) as string[]).join(doc.groups <= 26 ? '' : ' ');

function expectAxisPage(v: View, doc: Json): void {
  const models = v.tables['axis-models']!;
  assert.deepEqual(
    models.map((r) => r.data['model']),
    doc.models.map((m: Json) => m.model),
    'every model, in the ranking order',
  );
  doc.models.forEach((m: Json, i: number) => {
    const r = models[i]!;
    assert.equal(r.data['own'], String(m.own), `${m.model} own`);
    assert.equal(r.data['letters'], lettersOf(doc, m), `${m.model} letters`);
    assert.equal(value(r, 1), num(m.rank), `${m.model} rank`);
    assert.equal(value(r, 2), (m.tie_groups ?? []).join(','), `${m.model} tie groups`);
    assert.equal(
      value(r, 3),
      m.not_separated === null ? '' : JSON.stringify(m.not_separated),
      `${m.model} not_separated`,
    );
    assert.equal(value(r, 4), num(m.accuracy), `${m.model} accuracy`);
    if (m.accuracy !== null) assert.equal(r.cells[4]!.text, pct(m.accuracy));
    assert.equal(value(r, 5), m.interval ? JSON.stringify(m.interval) : '', `${m.model} interval`);
    assert.deepEqual([value(r, 6), value(r, 7), value(r, 8)], [num(m.k), num(m.parsed), num(m.unparsed)]);
    if (m.own) assert.match(r.cells[0]!.text, / own\b/, 'an own model is marked');
  });
  assert.equal(v.fields['m'], String(doc.m));
  assert.equal(v.fields['n'], String(doc.n));
  if (doc.bank_state) {
    // A refused bank: every pair UNTESTED for one reason, said once (issue 39); no pairs table.
    assert.equal(v.tables['axis-pairs'], undefined, 'no pairs table for a refused bank');
    return;
  }
  const pairs = v.tables['axis-pairs']!;
  assert.equal(pairs.length, doc.pairs.length, 'every pair');
  doc.pairs.forEach((p: Json, i: number) => {
    const r = pairs[i]!;
    const what = `${p.first} vs ${p.second}`;
    assert.deepEqual([r.data['first'], r.data['second'], r.data['state']], [p.first, p.second, p.state], what);
    assert.ok(r.cells[1]!.text.startsWith(p.state), `${what} state text`);
    if (p.state === 'UNTESTED') assert.ok(r.cells[1]!.text.includes(p.reason), `${what} reason`);
    assert.equal(value(r, 2), num(p.n_pairs), `${what} n_pairs`);
    assert.equal(value(r, 3), p.b === undefined ? '' : JSON.stringify([p.b, p.c]), `${what} b, c`);
    assert.equal(value(r, 4), num(p.p), `${what} p`);
    assert.equal(value(r, 5), num(p.p_holm), `${what} p_holm`);
    assert.equal(value(r, 6), num(p.difference), `${what} difference`);
    if (p.difference !== undefined) assert.equal(r.cells[6]!.text, points(p.difference));
    assert.equal(value(r, 7), p.difference_interval ? JSON.stringify(p.difference_interval) : '', `${what} interval`);
    assert.equal(value(r, 8), num(p.mdd), `${what} mdd`);
    assert.equal(value(r, 9), num(p.n_needed), `${what} n_needed`);
    // Where the normal approximation fails, the cell says why (issue 39).
    if (p.state !== 'UNTESTED' && p.mdd === null)
      assert.ok(r.cells[8]!.text.includes(p.mdd_reason), `${what} mdd_reason`);
  });
}

/** The lead sentence must carry the leader–basis pair's numbers, as the document gives them. */
function expectLead(lead: string, doc: Json, row: Json): void {
  const ev = row.separation_evidence;
  if (!ev?.next_best) {
    assert.match(lead, /^No lead to state/);
    return;
  }
  const p = doc.pairs.find(
    (x: Json) =>
      (x.first === ev.leader.model && x.second === ev.next_best.model) ||
      (x.second === ev.leader.model && x.first === ev.next_best.model),
  );
  const d = (p.first === ev.leader.model ? 1 : -1) * p.difference;
  assert.ok(lead.startsWith(`${ev.leader.model} ${d >= 0 ? 'leads' : 'trails'} ${ev.next_best.model} by `), lead);
  assert.ok(lead.includes(`by ${Math.abs(d * 100).toFixed(1)} points`), lead);
  // Both accuracies on the shared items (issue 39), the leader's first.
  const [acc1, acc2] = [
    p.a + (p.first === ev.leader.model ? p.b : p.c),
    p.a + (p.first === ev.leader.model ? p.c : p.b),
  ];
  assert.ok(
    lead.includes(`: ${pct(acc1 / p.n_pairs)} against ${pct(acc2 / p.n_pairs)} on the ${p.n_pairs} items`),
    lead,
  );
  if (p.mdd === null) assert.ok(lead.includes('what gap this n could have seen is not estimated'), lead);
  else assert.ok(lead.includes(`smaller than ${(p.mdd * 100).toFixed(1)} points`), lead);
}

describe('axis pages over plain HTTP', () => {
  const { app } = dashboardApp();
  let board: Json;
  let comparisons: Json[];
  before(async () => {
    board = JSON.parse((await app.inject('/api/gspc')).body);
    comparisons = board.axes.filter((r: Json) => r.kind === 'model-comparison');
  });

  it('every model-comparison axis has a page holding its /api/models document and its lead', async () => {
    assert.ok(comparisons.length >= 5);
    for (const row of comparisons) {
      const r = await app.inject(`/dashboard/axes/${row.axis}`);
      assert.equal(r.statusCode, 200, row.axis);
      assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
      const doc = JSON.parse((await app.inject(`/api/models?axis=${row.axis}`)).body);
      expectAxisPage(htmlView(r.body), doc);
      const lead = /<p class="callout" id="axis-lead" data-field="lead">([\s\S]*?)<\/p>/.exec(r.body)![1]!;
      expectLead(lead.replace(/&#39;/g, "'"), doc, row);
      const island = JSON.parse(
        /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(r.body)![1]!,
      );
      assert.deepEqual(
        island.cells.map((c: Json) => [c.first, c.second, c.state, c.p_holm]),
        doc.bank_state ? [] : doc.pairs.map((p: Json) => [p.first, p.second, p.state, p.p_holm ?? null]),
      );
    }
  });

  it('the demo shows a SEPARATED pair, a TIE, an own model and a lead that was tested', async () => {
    const docs = await Promise.all(
      comparisons.map(async (row) => JSON.parse((await app.inject(`/api/models?axis=${row.axis}`)).body)),
    );
    const pairs = docs.flatMap((d) => d.pairs);
    for (const s of ['SEPARATED', 'TIE'])
      assert.ok(
        pairs.some((p) => p.state === s && !p.own),
        s,
      );
    assert.ok(docs.some((d) => d.models.some((m: Json) => m.own)));
  });

  it('a refused bank: every model with its counts, no rank, letters, plot or interval; the reason said (issue 39)', async () => {
    const body = (await app.inject('/dashboard/axes/detector-interop')).body;
    const doc = JSON.parse((await app.inject('/api/models?axis=detector-interop')).body);
    assert.equal(doc.bank_state, 'REFUSED_ONE_LABEL_MENU');
    const refused = /<p class="callout" id="axis-refused"[^>]*>([\s\S]*?)<\/p>/.exec(body)?.[1] ?? '';
    assert.match(refused, /^REFUSED_ONE_LABEL_MENU: the exact-label menu has fewer than two distinct labels/);
    assert.match(refused, /always answering that one label scores 100%/);
    assert.ok(!body.includes('id="plot-axis-models"'), 'no forest plot');
    assert.ok(!body.includes('id="plot-axis-pairs"'), 'no heat map');
    assert.match(body, /id="axis-pairs-refused">All 3 pairs are UNTESTED: refused: the exact-label menu/);
    const rows = htmlView(body).tables['axis-models']!;
    assert.equal(rows.length, doc.models.length);
    for (const r of rows) {
      assert.deepEqual(
        [value(r, 1), value(r, 2), value(r, 3), value(r, 4)],
        ['', '', '', ''],
        `${r.data['model']}: no rank, group, accuracy or interval`,
      );
      assert.ok(Number(value(r, 6)) > 0, 'its counts are there');
    }
  });

  it("the heat map's legend gives the UNTESTED cells' own reason (issue 39)", async () => {
    const body = (await app.inject('/dashboard/axes/continuity')).body;
    const legend = /aria-label="Matrix legend">([\s\S]*?)<\/ul>/.exec(body)![1]!;
    assert.match(legend, /UNTESTED: no published per-item rows: aggregate results cannot be paired\./);
    assert.ok(!legend.includes('no shared parsed item, or conflicting item hashes'));
  });

  it('the measured tab links each model-comparison axis to its page, and each link answers', async () => {
    const body = (await app.inject('/dashboard')).body;
    for (const row of comparisons) {
      assert.ok(body.includes(`<a href="/dashboard/axes/${row.axis}">${row.axis}</a>`), row.axis);
      assert.equal((await app.inject(`/dashboard/axes/${row.axis}`)).statusCode, 200);
    }
  });

  for (const [url, status, why] of [
    ['/dashboard/axes/no-such-axis', 404, "no model-comparison axis 'no-such-axis'"],
    ['/dashboard/axes/provenance', 404, "no model-comparison axis 'provenance'"],
    ['/dashboard/axes/safety?sort=p', 400, "unknown query parameter 'sort'"],
  ] as const) {
    it(`${url} → ${status} HTML naming the model-comparison axes`, async () => {
      const r = await app.inject(url);
      assert.equal(r.statusCode, status);
      assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
      assert.ok(r.body.includes(why.replace(/'/g, '&#39;')), r.body);
      const known = [...r.body.matchAll(/<li><a href="\/dashboard\/axes\/([^"]+)">/g)].map((m) => m[1]);
      assert.deepEqual(
        known,
        comparisons.map((c) => c.axis),
      );
    });
  }
});

const MARKS_JS = `(() => {
  const count = (sel) => [...document.querySelectorAll('figure.plot svg g' + sel)].reduce((s, g) => s + g.children.length, 0);
  const texts = (sel) => [...document.querySelectorAll('figure.plot svg g' + sel + ' > *')].map((e) => e.textContent);
  return {
    drawn: document.querySelectorAll('figure.plot[data-drawn="true"] svg').length,
    intervals: count('.axis-interval'), publicPoints: count('.axis-point-public'), ownPoints: count('.axis-point-own'),
    letters: texts('.axis-letters-mark'), noParsed: count('.axis-noparsed'),
    publicCells: count('.axis-cell-public'), ownCells: count('.axis-cell-own'), untestedCells: count('.axis-cell-untested'),
    separated: count('.axis-separated-mark'), untestedMarks: count('.axis-untested-mark'),
    pTexts: texts('.axis-p-mark'),
  };
})()`;

describe('axis pages in headless Chromium', { skip: browserMissing() }, () => {
  const { app } = dashboardApp();
  let base = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  for (const axis of ['safety', 'conformance', 'jail']) {
    for (const [viewport, size] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      it(`${axis} at ${size} width: both plots equal the served document; nothing clipped or scrolling`, async () => {
        const doc = (await (await fetch(`${base}/api/models?axis=${axis}`)).json()) as Json;
        const { page, errors, offOrigin } = await openPage(viewport);
        assert.equal((await page.goto(`${base}/dashboard/axes/${axis}`))?.status(), 200);
        await page.waitForSelector('#plot-axis-pairs[data-drawn="true"] svg', { timeout: 15_000 });
        const m = (await page.evaluate(MARKS_JS)) as Record<string, any>;
        const plotted = doc.models.filter((x: Json) => x.interval !== null);
        assert.equal(m['drawn'], 2);
        assert.equal(m['intervals'], plotted.length, 'one interval per model with a parsed response');
        assert.equal(m['publicPoints'], plotted.filter((x: Json) => !x.own).length);
        assert.equal(m['ownPoints'], plotted.filter((x: Json) => x.own).length);
        assert.deepEqual(
          m['letters'],
          plotted.map((x: Json) => (x.own ? 'own' : lettersOf(doc, x))),
          'the letters beside each model',
        );
        const tested = doc.pairs.filter((p: Json) => p.state !== 'UNTESTED');
        // Each pair drawn twice, once on each side of the diagonal.
        assert.equal(m['publicCells'], 2 * tested.filter((p: Json) => !p.own).length);
        assert.equal(m['ownCells'], 2 * tested.filter((p: Json) => p.own).length);
        assert.equal(m['untestedCells'], 2 * doc.pairs.filter((p: Json) => p.state === 'UNTESTED').length);
        assert.equal(
          m['separated'],
          2 * doc.pairs.filter((p: Json) => !p.own && p.state === 'SEPARATED').length,
          'every SEPARATED public pair marked S',
        );
        // At 1280 px the demo's cells are large enough to show their p_holm; at 390 px they are not.
        const pText = (p: number) => (p < 0.001 ? p.toExponential(0) : p.toFixed(3));
        const shown = tested.filter((p: Json) => !p.own).flatMap((p: Json) => [pText(p.p_holm), pText(p.p_holm)]);
        assert.deepEqual(
          [...m['pTexts']].sort(),
          size === 'desktop' ? shown.sort() : [],
          'the values the cells are shaded by',
        );
        expectAxisPage(await pageView(page), doc);
        assert.deepEqual(await clippedTexts(page), [], 'no model name is clipped');
        assert.deepEqual(await overflowingTables(page), [], 'no table scrolls sideways');
        const w = await pageWidth(page);
        assert.ok(w.scroll <= w.view, `no page-level horizontal scroll (${w.scroll} > ${w.view})`);
        await screenshot(page, `axis-${axis}-${size}`);
        assert.deepEqual(errors, []);
        assert.deepEqual(offOrigin, []);
      });
    }
  }
});
