/**
 * The contamination-window section in headless Chromium (issue 41 item 3): the axis page of the
 * methodology's worked corpus (dates, cutoffs, one model without a cutoff whose id is markup),
 * at 1280 and 390 px, has no serious or critical axe-core violation, every table fits its box, the
 * section's table holds the document's rows, and the markup id is text in the rendered page.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { MARKUP_THIRD, windowsCorpus } from '../helpers/windows-corpus.js';
import { dashboardApp } from './dashboard-app.js';
import { axeViolations, pollUntil, unfitTables } from './page-audit.js';

const { app } = dashboardApp({ corpus: windowsCorpus({ third: MARKUP_THIRD }) });

describe('the contamination-window section in Chromium', { skip: browserMissing() }, () => {
  let base = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  for (const [viewport, width] of [
    [DESKTOP, '1280'],
    [PHONE, '390'],
  ] as const)
    it(`/dashboard/axes/quiz at ${width} px: no serious or critical axe violation, every table fits, the rows are the document's`, async () => {
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
      await page.locator('#axis-windows-heading').scrollIntoViewIfNeeded();
      await screenshot(page, `axis-windows-${width}`);
      const problems = [
        ...(await axeViolations(page)),
        ...(await unfitTables(page)).map((t) => `table wider than its box: ${t}`),
      ];
      assert.deepEqual(problems, [], problems.join('\n'));
      const models = await page.evaluate(
        `[...document.querySelectorAll('#axis-windows tbody tr')].map((r) => r.dataset.model)`,
      );
      assert.deepEqual(models, ['w/b', MARKUP_THIRD]);
      const cutoffs = await page.locator('#axis-windows-cutoffs').textContent();
      assert.equal(cutoffs, `No knowledge cutoff for ${MARKUP_THIRD}: its pairs are UNTESTED here, not clean.`);
      assert.equal(await page.evaluate(`document.querySelectorAll('img[src="x"]').length`), 0);
    });
});
