/**
 * The item explorer in headless Chromium (issue 41 item 4, "done when": tested in Chromium with a
 * model id and a response full of markup). On explorer-corpus.ts, whose model ids, item ids,
 * gold, labels and responses hold `<script>`, `"><img onerror>`, closing tags, U+202E and a
 * 400-character word: no script runs (no dialog, `window.__xss` never set, no script element),
 * no element is injected (no img, one h1), every text reads literally (each response box's text
 * is the response with its hidden characters as `\uXXXX`), axe-core finds nothing serious or
 * critical, and every table and response box fits at 1280 and 390 px; the heat-map cell of a
 * pair opens that pair's explorer, row model first.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { shownText } from '../../src/pages/inert-text.js';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { dashboardApp } from './dashboard-app.js';
import { pageWidth } from './dashboard-marks.js';
import { explorerCorpus, GOLD, itemId, MODEL_A, MODEL_B, responseOf } from './explorer-corpus.js';
import { axeViolations, pollUntil, unfitTables } from './page-audit.js';

const { app } = dashboardApp({ corpus: explorerCorpus() });
const explorer = (q: Record<string, string>) => `/dashboard/axes/quiz/items?${new URLSearchParams(q)}`;

/** What the page did with the operator's markup, read in the page. */
const INJECTED_JS = `(() => ({
  xss: window.__xss === undefined ? null : String(window.__xss),
  scripts: document.scripts.length,
  imgs: document.images.length,
  h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
  first: document.querySelector('[data-field="first"]')?.textContent ?? null,
  item: document.querySelector('[data-field="item"]')?.textContent ?? null,
  responses: [...document.querySelectorAll('pre.xp-response')].map((p) => p.textContent),
  items: [...document.querySelectorAll('#xp-items tbody tr, #xp-models tbody tr')].map((tr) => tr.querySelector('th').textContent),
  labels: [...document.querySelectorAll('#xp-items tbody tr td:nth-of-type(2), #xp-models tbody tr td:nth-of-type(3)')].map((td) => td.textContent),
  golds: [...document.querySelectorAll('#xp-items tbody tr td:nth-of-type(1)')].map((td) => td.textContent),
  // A response box wider than it shows scrolls sideways: the layout was broken by its text.
  wideBoxes: [...document.querySelectorAll('pre.xp-response')].filter((p) => p.scrollWidth > p.clientWidth + 1).length,
  boxesOutside: [...document.querySelectorAll('pre.xp-response')].filter((p) => p.getBoundingClientRect().right > document.querySelector('main').getBoundingClientRect().right + 1).length,
}))()`;

interface Injected {
  xss: string | null;
  scripts: number;
  imgs: number;
  h1: string[];
  first: string | null;
  item: string | null;
  responses: string[];
  items: string[];
  labels: string[];
  golds: string[];
  wideBoxes: number;
  boxesOutside: number;
}

const WIDTHS = [
  [DESKTOP, '1280'],
  [PHONE, '390'],
] as const;

/** Opens `path`, records any dialog (alert) the page opens, and reads what it shows. */
async function open(base: string, path: string, viewport: { width: number; height: number }, status = 200) {
  const { page, errors, offOrigin } = await openPage(viewport);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const res = await page.goto(base + path);
  assert.equal(res?.status(), status, path);
  const seen = (await page.evaluate(INJECTED_JS)) as Injected;
  return { page, errors, offOrigin, dialogs, seen };
}

async function fits(page: Page, what: string): Promise<void> {
  const problems = [
    ...(await axeViolations(page)),
    ...(await unfitTables(page)).map((t) => `table wider than its box: ${t}`),
  ];
  const w = await pageWidth(page);
  if (w.scroll > w.view) problems.push(`the page scrolls sideways: ${w.scroll} > ${w.view}`);
  assert.deepEqual(problems, [], `${what}:\n${problems.join('\n')}`);
}

describe('the item explorer in headless Chromium', { skip: browserMissing() }, () => {
  let base = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  for (const [viewport, width] of WIDTHS) {
    it(`a pair at ${width} px: markup shown as text, nothing run or injected; axe-core and fit pass`, async () => {
      const { page, errors, offOrigin, dialogs, seen } = await open(
        base,
        explorer({ first: MODEL_A, second: MODEL_B }),
        viewport,
      );
      assert.deepEqual(dialogs, [], 'no alert ran');
      assert.equal(seen.xss, null, 'no script of the operator ran');
      assert.equal(seen.scripts, 0, 'no script element');
      assert.equal(seen.imgs, 0, 'no img element');
      assert.deepEqual(seen.h1, ['Items that separate two models · quiz'], 'no injected heading');
      assert.equal(seen.first, MODEL_A, 'the model id reads literally');
      assert.equal(seen.items.length, 20);
      assert.equal(seen.items[0], itemId(2), 'the item id reads literally');
      assert.equal(seen.golds[0], GOLD);
      assert.equal(seen.labels[0], GOLD);
      // Items 2 and 4 are the first two that A got right and B got wrong; 4's responses are cut.
      assert.deepEqual(seen.responses.slice(0, 4), [
        shownText(responseOf(MODEL_A, 2), true),
        shownText(responseOf(MODEL_B, 2), true),
        shownText(responseOf(MODEL_A, 4).slice(0, 2000), true),
        shownText(responseOf(MODEL_B, 4).slice(0, 2000), true),
      ]);
      assert.equal(seen.wideBoxes, 0, 'no response box scrolls sideways: every line wraps');
      assert.equal(seen.boxesOutside, 0, 'every response box is inside the main column');
      await fits(page, `the pair at ${width} px`);
      await screenshot(page, `explorer-pair-${width}`);
      assert.deepEqual(errors, []);
      assert.deepEqual(offOrigin, []);
    });

    it(`the other side and one item at ${width} px: axe-core and fit pass, nothing injected`, async () => {
      for (const path of [
        explorer({ first: MODEL_A, second: MODEL_B, side: 'second' }),
        explorer({ item: itemId(4) }),
        explorer({ first: MODEL_A, second: 'no/such' }),
      ]) {
        const bad = path.includes('no%2Fsuch');
        const { page, errors, dialogs, seen } = await open(base, path, viewport, bad ? 404 : 200);
        assert.deepEqual(dialogs, [], path);
        assert.equal(seen.xss, null, path);
        assert.equal(seen.scripts + seen.imgs, 0, path);
        if (path.includes('item=')) {
          assert.equal(seen.item, itemId(4));
          assert.equal(seen.items.length, 3, 'every model');
          assert.ok(
            seen.responses.every((r) => r.length <= 2000 + 5 * 6),
            'the long responses are cut at 2,000 characters',
          );
        }
        assert.equal(seen.wideBoxes + seen.boxesOutside, 0, path);
        await fits(page, `${path} at ${width} px`);
        await screenshot(page, `explorer-${path.includes('item=') ? 'item' : bad ? 'error' : 'side'}-${width}`);
        // A 404 page logs its own status to the console; any other error is the page's.
        assert.deepEqual(bad ? [] : errors, []);
      }
    });
  }

  it("a heat-map cell opens its pair's explorer, its row's model first", async () => {
    const { page, errors } = await openPage(DESKTOP);
    assert.equal((await page.goto(`${base}/dashboard/axes/quiz`))?.status(), 200);
    assert.ok(
      await pollUntil(page, `document.querySelector('#plot-axis-pairs[data-drawn="true"] svg') !== null`, 15_000),
      'the heat map is drawn',
    );
    const links = (await page.evaluate(
      `[...document.querySelectorAll('#plot-axis-pairs svg rect[data-href]')].map((r) => ({ href: r.getAttribute('data-href'), title: r.querySelector('title')?.textContent ?? '' }))`,
    )) as { href: string; title: string }[];
    assert.equal(links.length, 6, 'every cell of the 3 pairs, both orientations, opens its explorer');
    // Cells that are links change nothing axe-core or the fit checks see on the axis page.
    await fits(page, 'the axis page with linked cells');
    for (const l of links) {
      const u = new URL(l.href, base);
      assert.equal(u.pathname, '/dashboard/axes/quiz/items');
      assert.ok(l.title.startsWith(`${u.searchParams.get('first')} vs ${u.searchParams.get('second')}:`), l.title);
    }
    // Click the cell in B's row and A's column (its centre, where its S or p is drawn) and follow it.
    const box = (await page.evaluate(
      `(() => { const rect = [...document.querySelectorAll('#plot-axis-pairs svg rect[data-href]')].find((x) => (x.querySelector('title')?.textContent ?? '').startsWith(${JSON.stringify(`${MODEL_B} vs ${MODEL_A}:`)})); rect.scrollIntoView({ block: 'center' }); const r = rect.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
    )) as { x: number; y: number };
    await Promise.all([page.waitForURL(/\/items\?/), page.mouse.click(box.x, box.y)]);
    const u = new URL(page.url());
    assert.equal(u.pathname, '/dashboard/axes/quiz/items');
    assert.deepEqual([u.searchParams.get('first'), u.searchParams.get('second')], [MODEL_B, MODEL_A]);
    assert.equal(await page.textContent('[data-field="first"]'), MODEL_B);
    assert.deepEqual(errors, []);
  });
});
