/**
 * Every page for every reader (issue 39): axe-core, run in headless Chromium over every page the
 * service serves (each dashboard tab, each axis page of the demo, methodology, pricing, the
 * verifier, and the axis 404 page) at 1280 and 390 px, finds no serious or critical violation;
 * every table fits its box or sits in a keyboard-focusable, named scroll region.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { dashboardApp } from './dashboard-app.js';
import { clippedTexts } from './dashboard-marks.js';
import {
  axeViolations,
  heatMapTexts,
  overlappingTexts,
  type HeatMapTexts,
  pollUntil,
  tableCount,
  unfitTables,
  widePlots,
} from './page-audit.js';
import { cardsCorpus } from './cards-corpus.js';
import { pricedCorpus } from './priced-corpus.js';

// The demo with model cards (cards-corpus.ts), so the Models tab shows cards, a filter and markup.
const { app } = dashboardApp({ corpus: cardsCorpus() });
/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
const board = JSON.parse((await app.inject('/api/gspc')).body) as { axes: { axis: string; kind: string }[] };
const axes = board.axes.filter((a) => a.kind === 'model-comparison').map((a) => a.axis);
// The demo with prices and token counts (priced-corpus.ts): an axis page with the accuracy-against-cost
// plot (governance), and one whose models have prices but no token counts (safety).
const { app: priced } = dashboardApp({ corpus: pricedCorpus() });
const PRICED_PAGES = ['/dashboard/axes/governance', '/dashboard/axes/safety'];

/** Every page of src/pages/page-routes.ts, with the query each one takes. */
const PAGES = [
  '/dashboard',
  '/dashboard?tab=models',
  '/dashboard?tab=models&min_params=10B',
  '/dashboard?tab=regulators',
  '/dashboard?tab=provenance',
  '/dashboard?tab=compute',
  ...axes.map((a) => `/dashboard/axes/${a}`),
  '/dashboard/axes/governance?min_params=10B',
  '/dashboard/axes/no-such-axis',
  '/methodology',
  '/pricing',
  '/gspc-verify',
  // The verifier's results (the context checks and a table of every card) are drawn by its script.
  '/gspc-verify#check-every-card',
];

/** WCAG AA for normal text: 4.5:1 (1.4.3). */
const AA = 4.5;

/** Every heat-map text under 4.5:1 against its cell, and every pair of overlapping labels. */
function heatMapProblems(h: HeatMapTexts | null): string[] {
  if (h === null) return [];
  return [
    ...h.texts.filter((t) => t.contrast < AA).map((t) => `heat-map text '${t.text}' at ${t.contrast}:1`),
    ...h.overlaps.map((o) => `heat-map labels overlap: ${o}`),
  ];
}

const WIDTHS = [
  [DESKTOP, '1280'],
  [PHONE, '390'],
] as const;

describe('every page in headless Chromium: axe-core and tables that fit', { skip: browserMissing() }, () => {
  let base = '';
  let pricedBase = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await priced.listen({ port: 0, host: '127.0.0.1' });
    pricedBase = `http://127.0.0.1:${(priced.server.address() as AddressInfo).port}`;
  });

  it('the demo has model-comparison axes to visit', () => assert.ok(axes.length > 0));

  for (const [path, corpus] of [
    ...PAGES.map((p) => [p, 'demo'] as const),
    ...PRICED_PAGES.map((p) => [p, 'priced'] as const),
  ])
    for (const [viewport, width] of WIDTHS)
      it(`${path}${corpus === 'priced' ? ' (with prices)' : ''} at ${width} px: no serious or critical axe violation, every table fits`, async () => {
        const { page } = await openPage(viewport);
        await page.goto((corpus === 'priced' ? pricedBase : base) + path);
        if (path.endsWith('#check-every-card')) {
          await page.waitForSelector('body[data-verify-ready="true"]');
          await page.click('#verify-served');
          await page.locator('#verify-result[data-state="done"]').waitFor({ timeout: 30_000 });
        }
        // The plots are drawn by a module script: wait until each figure says it is drawn.
        assert.ok(
          await pollUntil(
            page,
            `[...document.querySelectorAll('figure.dash-plot')].every((f) => f.dataset.drawn === 'true')`,
            15_000,
          ),
          'every plot is drawn',
        );
        if (corpus === 'priced') await screenshot(page, `axis-priced-${path.split('/').pop()}-${width}`);
        if (corpus === 'priced' && path.endsWith('/governance'))
          assert.ok(
            await page.evaluate(`document.querySelectorAll('#plot-axis-cost svg .axis-cost-names text').length > 0`),
            'the accuracy-against-cost plot is drawn, with names',
          );
        // Both checks are reported together, so one failure does not hide the other.
        const problems = [
          ...(await axeViolations(page)),
          ...(await unfitTables(page)).map((t) => `table wider than its box: ${t}`),
          ...(await widePlots(page)).map((p) => `plot wider than its box: ${p}`),
          ...(await clippedTexts(page)).map((t) => `plot text cut: ${t}`),
          ...(await overlappingTexts(page)).map((t) => `plot texts overlap: ${t}`),
          ...heatMapProblems(await heatMapTexts(page)),
        ];
        assert.deepEqual(problems, [], `${path} at ${width} px:\n${problems.join('\n')}`);
        if (path !== '/dashboard/axes/no-such-axis')
          assert.ok((await tableCount(page)) > 0, `${path} has tables to check`);
      });
});
