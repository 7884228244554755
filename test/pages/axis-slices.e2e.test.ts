/**
 * The slices section of an axis page in headless Chromium (issue 41 item 2): on a tagged corpus
 * (test/helpers/slices-corpus.ts: 61 slices, a tag full of markup) at 1280 and 390 px, axe-core
 * finds no serious or critical violation, every table fits its box, and the section's rows are
 * there with the tag shown as text, never as markup.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { BIG_TAG, slicesCorpus } from '../helpers/slices-corpus.js';
import { dashboardApp } from './dashboard-app.js';
import { axeViolations, pollUntil, unfitTables, widePlots } from './page-audit.js';

const { app } = dashboardApp({ corpus: slicesCorpus(true) });

describe('the slices section in headless Chromium', { skip: browserMissing() }, () => {
  let base = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  for (const [viewport, width] of [
    [DESKTOP, '1280'],
    [PHONE, '390'],
  ] as const)
    it(`/dashboard/axes/quiz at ${width} px: no serious or critical axe violation, the slice table fits`, async () => {
      const { page } = await openPage(viewport);
      await page.goto(`${base}/dashboard/axes/quiz`);
      assert.ok(
        await pollUntil(
          page,
          `[...document.querySelectorAll('figure.dash-plot')].every((f) => f.dataset.drawn === 'true')`,
          15_000,
        ),
        'every plot is drawn',
      );
      await screenshot(page, `axis-slices-${width}`);
      assert.equal(await page.locator('#axis-slices tbody tr').count(), 50);
      assert.equal(await page.locator('#axis-slices tbody tr th').first().textContent(), BIG_TAG);
      assert.equal(await page.locator('#axis-slices b').count(), 0, 'the tag is text, not markup');
      const problems = [
        ...(await axeViolations(page)),
        ...(await unfitTables(page)).map((t) => `table wider than its box: ${t}`),
        ...(await widePlots(page)).map((p) => `plot wider than its box: ${p}`),
      ];
      assert.deepEqual(problems, [], problems.join('\n'));
    });
});
