import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attestationPreview, MAX_RESERVE, previewReleaseOf } from '../../src/payments/attestation-preview.js';
import { demoApp } from '../helpers/app.js';

const { state } = demoApp();
const release = previewReleaseOf(state.current().release);
const BASE = 'http://localhost:8080';

describe('request_attestation preview', () => {
  it('reserves the active signed cards of a model (case-insensitive), at most 24, and states the interop references apart', () => {
    const model = release.active.find((c) => c.surface === 'board.measurement')!.subject;
    const p = attestationPreview(release, model.toUpperCase(), undefined, BASE) as Record<string, any>;
    const expected = release.active.filter((c) => c.subject === model && c.sig_ed25519 !== null);
    assert.ok(expected.length > 0);
    assert.equal(p.signed_cards_on_file, expected.length);
    assert.deepEqual(
      p.cards.map((c: { sha256: string }) => c.sha256),
      expected.slice(0, MAX_RESERVE).map((c) => c.sha256),
    );
    assert.equal(p.axis, null);
    assert.equal(p.axis_known, null);
    assert.equal(p.interop_collection.included_in_paid_reserve, false);
    assert.equal(p.interop_collection.root_integrity, 'BYTE_MATCHES_UNSIGNED_POINTER');
    assert.equal(p.interop_collection.root_active_leaves, release.root.leaf_count);
    assert.equal(p.corpus_as_of, release.as_of);
  });

  it('narrows to one axis, says whether the axis is known, and matches a card by its id', () => {
    const card = release.active.find((c) => c.surface === 'board.measurement')!;
    const p = attestationPreview(release, card.subject, card.axis, BASE) as Record<string, any>;
    assert.equal(p.axis_known, true);
    assert.ok(p.cards.every((c: { axis: string }) => c.axis === card.axis));
    const byId = attestationPreview(release, card.sha256.slice(0, 16), undefined, BASE) as Record<string, any>;
    assert.deepEqual(
      byId.cards.map((c: { sha256: string }) => c.sha256),
      [card.sha256],
    );
    const unknown = attestationPreview(release, card.subject, 'no-such-axis', BASE) as Record<string, any>;
    assert.equal(unknown.axis_known, false);
    assert.equal(unknown.signed_cards_on_file, 0);
  });
});
