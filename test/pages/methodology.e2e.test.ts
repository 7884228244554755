/**
 * /methodology (issue 7): docs/methodology.md rendered server-side with heading ids and a table of
 * contents, and a "Live counts" section whose every value equals the served board's (/api/gspc).
 * A headless Chromium reads the page at desktop and phone width; plain HTTP shows the same values
 * with no JavaScript at all.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { registerMethodologyPage } from '../../src/pages/methodology-page.js';
import { renderMethodology, slugOf } from '../../src/pages/methodology-doc.js';
import type { PageContext } from '../../src/pages/page-context.js';
import { installErrorHandling } from '../../src/web/errors.js';
import { demoApp } from '../helpers/app.js';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { repoRoot } from '../helpers/repo.js';

type Board = { totals: Record<string, string | number>; measured_on: { peritem_sha256: string; peritem_rows: number } };

/** The document's section headings, read independently of the page's renderer (plain `## ` lines). */
const DOC = readFileSync(join(repoRoot, 'docs', 'methodology.md'), 'utf8');
const DOC_TITLE = /^# (.+)$/m.exec(DOC)![1]!;
const DOC_SECTIONS = [...DOC.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.replace(/[`*_]/g, '').trim());

const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('/methodology in headless Chromium', { skip: browserMissing() }, () => {
  const { app } = demoApp();
  let origin = '';
  let board: Board;
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    board = (await (await fetch(`${origin}/api/gspc`)).json()) as Board;
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows the live counts equal to /api/gspc, the headings and the contents, at ${name} width`, async () => {
      const { page, errors, offOrigin } = await openPage(viewport);
      const res = await page.goto(`${origin}/methodology`, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);

      // Every total of the served board, and only those, each with the served value.
      const shown = await page.$$eval('[data-total]', (els) =>
        els.map((e) => [e.getAttribute('data-total')!, e.textContent!.trim()]),
      );
      assert.deepEqual(shown.map(([k]) => k).sort(), Object.keys(board.totals).sort());
      for (const [k, text] of shown) assert.equal(text, String(board.totals[k!]), k);
      for (const k of [
        'public_count',
        'separation_public_count',
        'lid',
        'axes',
        'measured_axes',
        'unmeasured_axes',
        'quotable_axes',
        'items',
        'separated_leads',
        'ties',
        'untested_separations',
        'own_leaders_excluded',
      ]) {
        assert.ok(
          shown.some(([s]) => s === k),
          `${k} is quoted`,
        );
      }
      const sha = await page.textContent('[data-measured-on="peritem_sha256"]');
      assert.equal(sha, board.measured_on.peritem_sha256);
      assert.equal(await page.textContent('[data-measured-on="peritem_rows"]'), String(board.measured_on.peritem_rows));
      // The manifest link resolves, and its bytes hash to the quoted value.
      const href = await page.getAttribute('.live-counts a[href="/peritem/manifest.json"]', 'href');
      const manifest = Buffer.from(await (await fetch(`${origin}${href}`)).arrayBuffer());
      assert.equal(createHash('sha256').update(manifest).digest('hex'), sha);

      // One h1 (the document's title); the document's sections as headings with ids; the contents link to each.
      assert.deepEqual(await page.$$eval('h1', (h) => h.map((e) => e.textContent!.trim())), [
        DOC_TITLE.replace(/[`*_]/g, ''),
      ]);
      const headings = await page.$$eval('.methodology-doc :is(h2, h3)[id]', (h) =>
        h.map((e) => ({ id: e.id, text: e.textContent!.trim() })),
      );
      assert.deepEqual(
        headings.map((h) => h.text),
        DOC_SECTIONS,
      );
      const toc = await page.$$eval('nav.toc a', (a) =>
        a.map((e) => ({ href: e.getAttribute('href')!, text: e.textContent!.trim() })),
      );
      assert.deepEqual(
        toc.map((t) => t.text),
        ['Live counts', ...DOC_SECTIONS],
      );
      assert.deepEqual(
        toc.map((t) => t.href),
        ['#live-counts', ...headings.map((h) => `#${h.id}`)],
      );
      const ids = await page.$$eval('[id]', (els) => els.map((e) => e.id));
      assert.equal(new Set(ids).size, ids.length, 'ids are unique');
      for (const t of toc) assert.ok(ids.includes(t.href.slice(1)), t.href);
      await page.click(`nav.toc a[href="${toc.at(-1)!.href}"]`);
      assert.equal(new URL(page.url()).hash, toc.at(-1)!.href);

      // Tables: a caption each, and scope on every header cell.
      assert.equal(await page.$$eval('table', (t) => t.filter((e) => !e.querySelector('caption')).length), 0);
      assert.equal(await page.$$eval('th', (t) => t.filter((e) => !e.hasAttribute('scope')).length), 0);

      // Phone width: no horizontal page scroll.
      const widths = await page.evaluate<{ scroll: number; viewport: number }>(
        '({ scroll: document.scrollingElement.scrollWidth, viewport: window.innerWidth })',
      );
      assert.ok(widths.scroll <= widths.viewport, `page scrolls sideways: ${widths.scroll} > ${widths.viewport}`);
      await screenshot(page, `methodology-${name}`);
      assert.deepEqual(errors, []);
      assert.deepEqual(offOrigin, []);
    });
  }
});

describe('/methodology over plain HTTP (no JavaScript)', () => {
  const { app } = demoApp();

  it('is server-rendered HTML with every live count in it, no script, under the page CSP', async () => {
    const [r, b] = await Promise.all([
      app.inject({ method: 'GET', url: '/methodology' }),
      app.inject({ method: 'GET', url: '/api/gspc' }),
    ]);
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.match(String(r.headers['content-security-policy']), /default-src 'none'/);
    const board = b.json() as Board;
    for (const [k, v] of Object.entries(board.totals)) {
      assert.ok(r.body.includes(`data-total="${k}">${escapeText(String(v))}<`), `totals.${k} = ${v}`);
    }
    assert.ok(r.body.includes(board.measured_on.peritem_sha256));
    assert.ok(r.body.includes('href="/peritem/manifest.json"'));
    assert.doesNotMatch(r.body, /<script/);
    assert.equal(r.body.match(/<h1[ >]/g)?.length, 1);
    for (const s of DOC_SECTIONS) assert.ok(r.body.includes(`id="${slugOf(s)}"`), s);
  });

  it('refuses a query it does not read (400 bad_query), like every route of the service', async () => {
    const r = await app.inject({ method: 'GET', url: '/methodology?x=1' });
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'bad_query');
  });
});

describe('/methodology reads the board at request time', () => {
  // A stand-in served state: the page must quote whatever board bytes are served, never a typed figure.
  const board = (axes: number) => ({
    totals: { public_count: `${axes} axis · 1 measured`, axes, measured_axes: 1, items: 7 * axes },
    measured_on: {
      peritem_sha256: 'ab'.repeat(32),
      peritem_rows: 5,
      living_stamp: { verification_state: 'UNSIGNED' },
      date: 'd',
      model: 'm',
      grading: 'g',
    },
  });
  let served = board(41);
  const ctx = {
    state: {
      current: () => ({
        boards: new Map([['', { body: Buffer.from(JSON.stringify(served)) }]]),
        release: { id: 'r-test', descriptor: { as_of: '2026-01-01T00:00:00Z' } },
      }),
    },
  } as unknown as PageContext;
  const app = Fastify();
  installErrorHandling(app);
  registerMethodologyPage(app, ctx);
  after(() => app.close());

  it('follows the served bytes when they change', async () => {
    const first = await app.inject({ method: 'GET', url: '/methodology' });
    assert.ok(first.body.includes('data-total="axes">41<'));
    assert.ok(first.body.includes('data-total="items">287<'));
    served = board(42);
    const second = await app.inject({ method: 'GET', url: '/methodology' });
    assert.ok(second.body.includes('data-total="axes">42<'));
    assert.ok(second.body.includes('data-total="public_count">42 axis · 1 measured<'));
    assert.ok(!second.body.includes('data-total="axes">41<'));
  });
});

describe('rendering docs/methodology.md', () => {
  it('passes no raw HTML through, keeps only safe links, and never lets a heading take a page id', () => {
    const doc = renderMethodology(
      [
        '# Title with <b>tag</b>',
        '',
        'Intro <script>alert(1)</script> & more.',
        '',
        '<div onclick="x()">block</div>',
        '',
        '## Live counts',
        '',
        '[bad](javascript:alert(1)) [ok](/api/gspc) [rel](formats.md#x) ![img](https://example.org/x.png)',
        '',
        '## Live counts',
        '',
        '| a | b |',
        '|---|--:|',
        '| `x` | 1 |',
        '',
        '### Sub `code`',
        '',
      ].join('\n'),
    );
    assert.equal(doc.title, 'Title with <b>tag</b>');
    assert.equal(doc.titleHtml.value, 'Title with &lt;b&gt;tag&lt;/b&gt;');
    assert.ok(doc.intro.value.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!/<script|<div onclick|<b>|<img|javascript:/i.test(doc.intro.value + doc.body.value));
    assert.ok(doc.body.value.includes('<a href="/api/gspc">ok</a>'));
    assert.ok(doc.body.value.includes('<a href="formats.md#x">rel</a>'));
    assert.ok(doc.body.value.includes('[image: img]'));
    assert.deepEqual(
      doc.toc.map((t) => [t.id, t.depth]),
      [
        ['live-counts-1', 2],
        ['live-counts-2', 2],
        ['sub-code', 3],
      ],
    );
    assert.ok(doc.body.value.includes('<caption>Live counts</caption>'));
    assert.ok(doc.body.value.includes('<th scope="col" class="align-right">b</th>'));
  });
});
