/**
 * /dashboard (issue 7): each tab's tables hold the values the service serves (plain HTTP, no
 * JavaScript), and in headless Chromium each tab draws its plot with one mark per data row, a
 * TIE never marked as a win, no console error, nothing from another origin, no page-level
 * horizontal scroll at phone width; screenshots dashboard-<tab>-desktop|phone.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { PAGE_CSP } from '../../src/pages/layout.js';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { dashboardApp, servedDocs } from './dashboard-app.js';
import {
  expectCompute,
  expectMeasured,
  expectProvenance,
  expectRegulators,
  railStateCounts,
} from './dashboard-expect.js';
import { htmlView, pageView, type View } from './dashboard-view.js';
import { clippedTexts, overflowingTables, pageWidth, plotMarks, type Marks } from './dashboard-marks.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
type Docs = Record<string, any>;
const TABS = ['measured', 'regulators', 'provenance', 'compute'] as const;

function expectTab(tab: (typeof TABS)[number], v: View, d: Docs): void {
  if (tab === 'measured') expectMeasured(v, d.board);
  if (tab === 'regulators') expectRegulators(v, d.regulation, d.obligations, d.previews as Map<string, any>);
  if (tab === 'provenance') expectProvenance(v, d as any);
  if (tab === 'compute') expectCompute(v, d.compute, d.fabric);
}

describe('dashboard over plain HTTP (no JavaScript)', () => {
  const { app } = dashboardApp();
  let docs: Docs;
  before(async () => {
    docs = (await servedDocs(async (p) => JSON.parse((await app.inject(p)).body))) as Docs;
  });

  for (const tab of TABS) {
    it(`?tab=${tab}: the tables hold the served values, with captions and header scopes`, async () => {
      const r = await app.inject(`/dashboard?tab=${tab}`);
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(r.headers['content-security-policy'], PAGE_CSP);
      assert.equal(r.body.match(/<h1[\s>]/g)?.length, 1);
      assert.match(r.body, new RegExp(`<a href="[^"]*" data-tab="${tab}" aria-current="page">`));
      for (const table of r.body.match(/<table[\s\S]*?<\/table>/g)!) {
        assert.match(table, /<caption>/);
        assert.match(table, /<th scope="col"/);
      }
      assert.match(
        r.body,
        /<figure class="plot dash-plot"[\s\S]*?<p class="note dash-fallback">[\s\S]*?<a href="#dash-/,
        'without JavaScript the figure points at its table',
      );
      assert.match(r.body, /<script type="application\/json" id="dashboard-data">/);
      expectTab(tab, htmlView(r.body), docs);
    });
  }

  it('the default tab is measured, and its island holds the plotted values', async () => {
    const r = await app.inject('/dashboard');
    assert.equal(r.statusCode, 200);
    expectMeasured(htmlView(r.body), docs.board);
    const island = JSON.parse(
      /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(r.body)![1]!,
    );
    const withInterval = docs.board.axes.filter((a: any) => a.kind === 'model-comparison' && a.interval);
    assert.deepEqual(
      island.rows.map((x: any) => [x.axis, x.accuracy, x.lo, x.hi, x.separation, x.n]),
      withInterval.map((a: any) => [a.axis, a.accuracy, a.interval[0], a.interval[1], a.separation, a.n]),
    );
    const without = docs.board.axes.filter((a: any) => a.kind === 'model-comparison' && !a.interval);
    assert.deepEqual(
      island.noResult.map((x: any) => [x.axis, x.n]),
      without.map((a: any) => [a.axis, a.n]),
    );
    assert.ok(
      without.some((a: any) => a.status === 'UNMEASURED'),
      'the demo has an UNMEASURED comparison row',
    );
  });

  it('the legend says a TIE is not a win and UNTESTED is not a tie', async () => {
    const body = (await app.inject('/dashboard')).body;
    assert.match(body, /<li data-legend="TIE">[\s\S]*?a tie is not a win/);
    assert.match(body, /<li data-legend="UNTESTED">[\s\S]*?not a tie/);
  });

  for (const [url, why] of [
    ['/dashboard?tab=leaders', "unknown dashboard tab 'leaders'"],
    ['/dashboard?tab=measured&sort=accuracy', "unknown query parameter 'sort'"],
    ['/dashboard?tab=measured&tab=compute', "query parameter 'tab' is given more than once"],
    ['/dashboard?tab=', "query parameter 'tab' is empty"],
  ] as const) {
    it(`${url} → 400 HTML naming the known tabs`, async () => {
      const r = await app.inject(url);
      assert.equal(r.statusCode, 400);
      assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
      assert.ok(r.body.includes(why.replace(/'/g, '&#39;')), r.body);
      for (const t of TABS) assert.match(r.body, new RegExp(`<code>${t}</code>`));
    });
  }

  it('without the metered products, the obligations still list their axes and say the preview was not read', async () => {
    const { app: plain } = dashboardApp({ products: false });
    const r = await plain.inject('/dashboard?tab=regulators');
    assert.equal(r.statusCode, 200);
    const obligations = JSON.parse((await plain.inject('/peritem/obligations.json')).body);
    const v = htmlView(r.body);
    expectRegulators(v, JSON.parse((await plain.inject('/api/regulation')).body), obligations, new Map());
  });
});

describe('dashboard in headless Chromium', { skip: browserMissing() }, () => {
  const { app, fabric } = dashboardApp({ probe: true });
  let base = '';
  let docs: Docs;
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // The rails observed on this very server, once: their states then hold for the whole suite.
    fabric.retarget(base);
    await fabric.refresh();
    docs = (await servedDocs(async (p) => (await fetch(base + p)).json())) as Docs;
  });

  function expectPlot(tab: (typeof TABS)[number], m: Marks): void {
    assert.equal(m.svg, 1, 'one svg inside figure.plot');
    if (tab === 'measured') {
      const rows = docs.board.axes.filter(
        (a: any) => a.kind === 'model-comparison' && a.status === 'MEASURED' && a.interval,
      );
      assert.ok(rows.length > 0);
      assert.equal(m.intervals, rows.length, 'one interval mark per model-comparison row with an interval');
      assert.equal(m.leaders, rows.length);
      for (const s of ['SEPARATED', 'TIE', 'UNTESTED'] as const) {
        const these = rows.filter((a: any) => a.separation === s);
        assert.equal(m.intervalsBy[s], these.length, s);
        // Filled only for a SEPARATED public leader; a TIE or UNTESTED mark is always hollow.
        assert.deepEqual(
          m.fills[s],
          these.map((a: any) => (s === 'SEPARATED' && a.leader !== undefined ? '#0a6b2b' : '#ffffff')),
          `${s} fills`,
        );
        assert.deepEqual(
          m.stateTexts[s],
          these.map(
            (a: any) =>
              `${s === 'SEPARATED' && a.leader !== undefined ? '▲ ' : ''}${s}${a.leader === undefined ? '*' : ''} · n=${a.n}`,
          ),
        );
      }
      assert.ok(
        rows.some((a: any) => a.separation === 'TIE'),
        'the demo has a TIE row',
      );
      for (const t of m.stateTexts.TIE) assert.ok(!t.includes('▲'), 'a TIE is never marked as a win');
      assert.equal(m.basis, rows.filter((a: any) => a.separation_evidence?.next_best).length);
      const without = docs.board.axes.filter((a: any) => a.kind === 'model-comparison' && !a.interval);
      assert.deepEqual(
        m.noResult,
        without.map(
          (a: any) =>
            `${a.status !== 'MEASURED' ? a.status : a.bank_state !== undefined ? `${a.separation} · ${a.bank_state}` : a.public_leader_state} · n=${a.n} · no result`,
        ),
      );
    }
    if (tab === 'regulators') {
      assert.equal(m.deadlines, docs.regulation.deadlines.length);
      assert.equal(m.inForce, docs.regulation.counts.in_force);
      assert.equal(m.upcoming, docs.regulation.counts.upcoming);
    }
    if (tab === 'provenance') {
      assert.equal(m.cells, docs.matrix.counts.represented_axes);
      const per = new Map<string, number>();
      for (const c of docs.matrix.cells) per.set(c.axis, (per.get(c.axis) ?? 0) + 1);
      assert.deepEqual(
        m.barLabels,
        [...per].map(([a, n]) => `${a}: ${n}`),
      );
    }
    if (tab === 'compute')
      assert.deepEqual(
        m.barLabels,
        railStateCounts(docs.fabric).map(([s, n]) => `${s}: ${n}`),
      );
  }

  for (const tab of TABS) {
    for (const [viewport, size] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      it(`?tab=${tab} at ${size} width: plot and tables equal the served values`, async () => {
        const { page, errors, offOrigin } = await openPage(viewport);
        const r = await page.goto(`${base}/dashboard?tab=${tab}`);
        assert.equal(r?.status(), 200);
        await page.waitForSelector('figure.plot[data-drawn="true"] svg', { timeout: 15_000 });
        expectPlot(tab, await plotMarks(page));
        expectTab(tab, await pageView(page), docs);
        assert.equal(
          await page.locator('figure.plot .dash-fallback').count(),
          0,
          'the no-script note is replaced by the plot',
        );
        const w = await pageWidth(page);
        assert.ok(w.scroll <= w.view, `no page-level horizontal scroll (${w.scroll} > ${w.view})`);
        assert.deepEqual(await clippedTexts(page), [], 'no name or label in the plot is clipped');
        // Issue 29: the measured tables fit the screen, as a table at 1280 px and as cards at 390 px.
        if (tab === 'measured') assert.deepEqual(await overflowingTables(page), [], 'no table scrolls sideways');
        await screenshot(page, `dashboard-${tab}-${size}`);
        assert.deepEqual(errors, []);
        assert.deepEqual(offOrigin, []);
      });
    }
  }
});
