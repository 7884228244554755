/**
 * Contamination windows on an axis page (issue 41 item 3), served HTML without a browser: the
 * "clean" lead beside the full one with n, each value /api/windows's exactly (`data-value`); a
 * model without a cutoff named ("no knowledge cutoff for X"), its pairs UNTESTED, never clean; an
 * axis without item dates says "No item dates on this axis" and shows no figure; an axis with
 * aggregate results only says it has no rows; markup in a model id is text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WindowsDocument } from '../../src/core/board/windows-document.js';
import { windowsSection } from '../../src/pages/dashboard-axis-windows.js';
import { demoApp } from '../helpers/app.js';
import { MARKUP_THIRD, windowsCorpus } from '../helpers/windows-corpus.js';
import { htmlView } from './dashboard-view.js';

const text = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const paragraph = (body: string, id: string) => {
  const m = new RegExp(`<p [^>]*id="${id}"[^>]*>([\\s\\S]*?)</p>`).exec(body);
  return m ? text(m[1]!) : undefined;
};

describe('the contamination-window section of an axis page', async () => {
  const { app } = demoApp(windowsCorpus({ third: MARKUP_THIRD }));
  const doc = (await app.inject('/api/windows?axis=quiz')).json() as WindowsDocument;
  const body = (await app.inject('/dashboard/axes/quiz')).body;

  it('shows the lead after both cutoffs beside the whole-axis lead, with n, the values the document gives', () => {
    assert.match(body, /<h2 id="axis-windows-heading">Contamination windows<\/h2>/);
    assert.equal(paragraph(body, 'axis-windows-summary'), doc.summary);
    assert.match(
      doc.summary,
      /^w\/a against w\/b \(rank 2\) on the 16 items dated after both knowledge cutoffs \(after 2024-05-15\) that both answered: \+50\.0 points/,
    );
    const rows = htmlView(body).tables['axis-windows']!;
    assert.deepEqual(
      rows.map((r) => r.data['model']),
      doc.lead.map((r) => r.model),
    );
    const [, full, window] = rows[0]!.cells;
    assert.equal(full!.value, String(doc.lead[0]!.full.difference));
    assert.equal(window!.value, String(doc.lead[0]!.window.difference));
    assert.match(full!.text, /^\+35\.5 points \(n = 31\) SEPARATED$/);
    assert.match(window!.text, /^\+50\.0 points \(\+18\.2 to \+70\.2; n = 16, after 2024-05-15\) SEPARATED$/);
  });

  it('names a model without a cutoff, its pair UNTESTED and not clean; markup in its id is text', () => {
    assert.equal(
      paragraph(body, 'axis-windows-cutoffs'),
      `No knowledge cutoff for ${MARKUP_THIRD}: its pairs are UNTESTED here, not clean.`,
    );
    const third = htmlView(body).tables['axis-windows']!.find((r) => r.data['model'] === MARKUP_THIRD)!;
    assert.equal(third.cells[2]!.value, '');
    assert.equal(third.cells[2]!.text, `UNTESTED no knowledge cutoff for ${MARKUP_THIRD}: no window to test`);
    assert.ok(!body.includes('<img/src=x'), 'no markup from a model id reaches the page');
  });

  it('says "No item dates on this axis" and shows no figure when the items carry none', async () => {
    const undated = demoApp(windowsCorpus({ dates: false })).app;
    const page = (await undated.inject('/dashboard/axes/quiz')).body;
    assert.equal(
      paragraph(page, 'axis-windows-summary'),
      "No item dates on this axis: no lead is tested on items after the models' knowledge cutoffs, and none is called clean.",
    );
    assert.equal(htmlView(page).tables['axis-windows'], undefined);
  });

  it('on the demo: no dates on axes with rows, and no rows on the aggregate-only axis', async () => {
    const { app: demo } = demoApp();
    const governance = (await demo.inject('/dashboard/axes/governance')).body;
    assert.match(paragraph(governance, 'axis-windows-summary')!, /^No item dates on this axis/);
    const continuity = (await demo.inject('/dashboard/axes/continuity')).body;
    assert.match(paragraph(continuity, 'axis-windows-summary')!, /^No per-item rows on this axis/);
  });

  it('the section alone: a leader without a cutoff is said, never a clean lead', () => {
    const section = windowsSection({
      ...doc,
      summary: 'No knowledge cutoff for <b>x</b> (the leader): its lead cannot be tested.',
      lead: [],
    }).value;
    assert.match(section, /No knowledge cutoff for &lt;b&gt;x&lt;\/b&gt; \(the leader\)/);
    assert.doesNotMatch(section, /<table/);
  });
});
