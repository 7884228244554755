/**
 * Slices on an axis page (issue 41 item 2), served HTML without a browser: a row per slice (at
 * most 50, the rest counted with a link to the list), each with its items, leader, leader group,
 * too-small state and a link to its document, every value /api/slices's; the family rule said
 * with its m; a tag full of markup is text; an axis whose rows carry no tags has no section.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SlicesDocument } from '../../src/core/board/slices-document-shape.js';
import { SLICE_ROWS, slicesSection } from '../../src/pages/dashboard-axis-slices.js';
import { demoApp } from '../helpers/app.js';
import { BIG_TAG, slicesCorpus } from '../helpers/slices-corpus.js';

const attr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('the slices section of an axis page', async () => {
  const { app } = demoApp(slicesCorpus(true));
  const list = (await app.inject('/api/slices?axis=quiz')).json() as SlicesDocument;
  const body = (await app.inject('/dashboard/axes/quiz')).body;

  it('lists 50 slices, those that can separate first, with their values, and counts the rest', () => {
    assert.match(body, /<h2 id="axis-slices-heading">Slices<\/h2>/);
    const rows = [...body.matchAll(/<tr data-slice="([^"]*)"( data-too-small="")?>/g)];
    assert.equal(rows.length, SLICE_ROWS);
    const ordered = [...list.slices.filter((s) => !s.too_small), ...list.slices.filter((s) => s.too_small)];
    assert.deepEqual(
      rows.map((r) => [r[1], r[2] !== undefined]),
      ordered.slice(0, SLICE_ROWS).map((s) => [attr(s.tag), s.too_small]),
    );
    assert.match(
      body,
      /<p class="note" id="axis-slices-more">11 more slices in <a href="\/api\/slices\?axis=quiz">the list<\/a>, every one too small to separate anything\./,
    );
    assert.match(
      body,
      new RegExp(
        `id="axis-slices-family" data-m="${list.family.m}">.*one Holm family across all 61 slices \\(m = ${list.family.m};`,
      ),
    );
  });

  it('a slice that can separate is shown even when 50 too-small ones come before it in tag order', () => {
    const big = list.slices.find((s) => !s.too_small)!;
    const late: SlicesDocument = { ...list, slices: [...list.slices.filter((s) => s !== big), big] };
    const section = String(slicesSection(late));
    const first = /<tr data-slice="([^"]*)"/.exec(section)![1];
    assert.equal(first, attr(big.tag));
    assert.equal([...section.matchAll(/<tr data-slice=/g)].length, SLICE_ROWS);
  });

  it("a slice's row: items, leader, the leader group, too small and the link; markup is text", () => {
    const big = list.slices[0]!;
    assert.equal(big.tag, BIG_TAG);
    const tr = new RegExp(`<tr data-slice="${attr(BIG_TAG)}">([\\s\\S]*?)</tr>`).exec(body)![1]!;
    assert.ok(!tr.includes('<b>'), 'the tag is escaped');
    assert.match(tr, /data-label="Slice" scope="row">big &lt;b&gt;&amp;&quot;<\/th>/);
    assert.match(tr, /data-label="Items" class="num" data-value="100">100</);
    assert.match(tr, new RegExp(`data-label="Leader">${big.leader!.replace('/', '/<wbr>')}<`));
    assert.ok(tr.includes(`href="${attr(big.document)}">document</a>`), tr);
    assert.match(tr, /data-label="Too small">no</);
    const small = /<tr data-slice="t\/00" data-too-small="">([\s\S]*?)<\/tr>/.exec(body)![1]!;
    assert.match(small, /data-label="Too small">yes: no public pair has 6 or more discordant items/);
  });

  it('an axis without tags has no section', async () => {
    const plain = demoApp(slicesCorpus(false)).app;
    const page = (await plain.inject('/dashboard/axes/quiz')).body;
    assert.equal((await plain.inject('/dashboard/axes/quiz')).statusCode, 200);
    assert.ok(!page.includes('axis-slices'));
  });
});
