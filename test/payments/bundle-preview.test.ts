import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { previewReleaseOf } from '../../src/payments/attestation-preview.js';
import { bundlePreview } from '../../src/payments/bundle-preview.js';
import { demoApp } from '../helpers/app.js';

const { state } = demoApp();
const loaded = state.current().release;
const release = { ...previewReleaseOf(loaded), merkle_root: loaded.evidence.root.merkle_root };
const article50 = loaded.corpus.obligations.find((o) => o.id === 'article-50')!;

describe('evidence_bundle preview', () => {
  it("lists the active signed cards of the obligation's axes, with the obligation described and the invoice path", () => {
    const p = bundlePreview(release, article50, undefined, 'http://localhost:8080') as Record<string, any>;
    assert.equal(p.obligation.control_id, 'EU-AI-ACT-50');
    assert.equal('axes' in p.obligation, false);
    const expected = release.active
      .filter((c) => article50.axes.includes(c.axis) && c.sig_ed25519 !== null)
      .map((c) => c.sha256);
    assert.ok(expected.length > 0);
    assert.deepEqual(
      p.cards.map((c: { sha256: string }) => c.sha256),
      expected,
    );
    assert.equal(p.relevant_signed_cards, expected.length);
    assert.equal(p.corpus.merkle_root, loaded.evidence.root.merkle_root);
    assert.match(p.relation, /never a determination/);
    assert.match(p.invoice.how, /invoice=gbp&commissioned_by=/);
  });

  it('narrows to one subject', () => {
    const model = release.active.find((c) => article50.axes.includes(c.axis))!.subject;
    const p = bundlePreview(release, article50, model, 'http://localhost:8080') as Record<string, any>;
    assert.ok(p.cards.length > 0);
    assert.ok(p.cards.every((c: { subject: string }) => c.subject === model));
    assert.equal(p.subject, model);
  });
});
