/**
 * Pages that follow the screen (issue 39): a forest plot drawn at 844 px and then narrowed to
 * 390 px (a phone turned upright) is drawn again at the new width, its svg inside its box and its
 * 100 % tick label inside the svg; the axis page's title and the slogan are apart.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserMissing, openPage, PHONE } from '../helpers/browser.js';
import { dashboardApp } from './dashboard-app.js';
import { clippedTexts } from './dashboard-marks.js';
import { overlappingTexts, pollUntil } from './page-audit.js';
import { pricedCorpus } from './priced-corpus.js';

const LANDSCAPE = { width: 844, height: 390 } as const;

/** The svg of a figure against the box it is drawn in, and where its "100%" tick label sits. */
function plotFit(page: Page, figure: string) {
  return page.evaluate(`(() => {
    const f = document.querySelector('${figure}');
    const canvas = f.querySelector('.dash-canvas');
    const svg = canvas.querySelector(':scope > svg');
    const s = svg.getBoundingClientRect();
    const c = canvas.getBoundingClientRect();
    const tick = [...svg.querySelectorAll('text')].find((t) => t.textContent === '100%');
    const t = tick ? tick.getBoundingClientRect() : null;
    return {
      svg: Math.round(s.width),
      box: canvas.clientWidth,
      boxRight: Math.round(c.right),
      tickRight: t ? Math.round(t.right) : null,
      svgRight: Math.round(s.right),
    };
  })()`) as Promise<{ svg: number; box: number; boxRight: number; tickRight: number | null; svgRight: number }>;
}

describe('plots redraw when the screen changes width', { skip: browserMissing() }, () => {
  const { app } = dashboardApp();
  let base = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  for (const [path, figure] of [
    ['/dashboard', 'figure.dash-plot'],
    ['/dashboard/axes/governance', 'figure[data-plot="plot-axis-models"]'],
    ['/dashboard/axes/governance', 'figure[data-plot="plot-axis-pairs"]'],
  ] as const)
    it(`${path} ${figure}: drawn at 844 px, then at 390 px after the turn, nothing cut`, async () => {
      const { page, errors } = await openPage(LANDSCAPE);
      await page.goto(base + path);
      await page.waitForSelector(`${figure}[data-drawn="true"] svg`);
      const wide = await plotFit(page, figure);
      await page.setViewportSize(PHONE);
      // The redraw follows the resize within a frame or two; wait for it, then say what was seen.
      await pollUntil(
        page,
        `(() => { const c = document.querySelector('${figure} .dash-canvas'); const s = c.querySelector(':scope > svg'); return s && s.getBoundingClientRect().width <= c.clientWidth; })()`,
      );
      const narrow = await plotFit(page, figure);
      assert.ok(wide.svg > narrow.box, `drawn wider than a phone's box first (${wide.svg} px)`);
      assert.ok(narrow.svg <= narrow.box, `svg ${narrow.svg} px in a ${narrow.box} px box after the turn`);
      if (figure !== 'figure[data-plot="plot-axis-pairs"]') {
        assert.notEqual(narrow.tickRight, null, 'the 100% tick label is drawn');
        assert.ok(
          narrow.tickRight! <= narrow.svgRight,
          `the 100% tick label ends inside the svg (${JSON.stringify(narrow)})`,
        );
      }
      assert.deepEqual(await clippedTexts(page), [], 'no text of any plot is cut');
      assert.deepEqual(errors, []);
    });
});

describe('the accuracy-against-cost plot redraws when the screen changes width', { skip: browserMissing() }, () => {
  const { app } = dashboardApp({ corpus: pricedCorpus() });
  const figure = 'figure[data-plot="plot-axis-cost"]';
  it('drawn at 844 px, then at 390 px after the turn: inside its box, its names inside the frame, nothing cut', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { page, errors } = await openPage(LANDSCAPE);
    await page.goto(`${base}/dashboard/axes/governance`);
    await page.waitForSelector(`${figure}[data-drawn="true"] svg`);
    const wide = await plotFit(page, figure);
    await page.setViewportSize(PHONE);
    await pollUntil(
      page,
      `(() => { const c = document.querySelector('${figure} .dash-canvas'); const s = c.querySelector(':scope > svg'); return s && s.getBoundingClientRect().width <= c.clientWidth; })()`,
    );
    const narrow = await plotFit(page, figure);
    assert.ok(wide.svg > narrow.box, `drawn wider than a phone's box first (${wide.svg} px)`);
    assert.ok(narrow.svg <= narrow.box, `svg ${narrow.svg} px in a ${narrow.box} px box after the turn`);
    // Every name stays inside the plot's frame (right of the y axis, above the x axis).
    const outside = (await page.evaluate(`(() => {
      const svg = document.querySelector('${figure} svg');
      const s = svg.getBoundingClientRect();
      const names = [...svg.querySelectorAll('.axis-cost-names text')];
      return { count: names.length, out: names.filter((t) => { const r = t.getBoundingClientRect(); return r.left < s.left + 48 || r.right > s.right || r.bottom > s.bottom - 40; }).map((t) => t.textContent) };
    })()`)) as { count: number; out: string[] };
    assert.ok(outside.count > 0, 'names are drawn at 390 px');
    assert.deepEqual(outside.out, [], 'every name inside the frame');
    assert.deepEqual(await clippedTexts(page), [], 'no text of any plot is cut');
    assert.deepEqual(await overlappingTexts(page), [], 'no two texts of a plot overlap');
    assert.deepEqual(errors, []);
  });
});

describe('the axis page heading', () => {
  const { app } = dashboardApp();
  it("keeps the axis title apart from the slogan (it ran 'copa Measurement, not certification')", async () => {
    const board = JSON.parse((await app.inject('/api/gspc')).body) as {
      axes: { axis: string; kind: string; title?: string }[];
    };
    const titled = board.axes.filter((a) => a.kind === 'model-comparison' && a.title);
    assert.ok(titled.length > 0, 'the demo has titled comparison axes');
    for (const a of titled) {
      const body = (await app.inject(`/dashboard/axes/${a.axis}`)).body;
      const title = /<p class="axis-subtitle" id="axis-title">([^<]*)<\/p>/.exec(body);
      assert.ok(title, `${a.axis}: the title is its own paragraph`);
      assert.equal(
        title[1],
        a.title!.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&#39;').replace(/"/g, '&quot;'),
      );
      assert.match(body, /<p class="note" id="axis-slogan">Measurement, not certification; a TIE is not a win\.<\/p>/);
    }
  });
});
