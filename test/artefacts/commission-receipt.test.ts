/** The commission receipt of request_attestation: content address, signature, reserve and proofs, checked independently. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CARD_V0_SCHEMA } from '../../src/core/evidence/card-v0-schemas.js';
import {
  COMMISSION_UNMEASURED,
  commissionReceipt,
  RESERVE_LIMIT,
  verifyCommissionReceipt,
  type CommissionReceipt,
} from '../../src/core/evidence/commission-receipt.js';
import { verifyDupInclusion } from '../../src/core/evidence/merkle/dup-root.js';
import { leafHash } from '../../src/core/evidence/merkle/hash.js';
import { productByKey } from '../../src/core/pricing/products.js';
import { matchingCards, MAX_RESERVE } from '../../src/payments/attestation-preview.js';
import { produceArtefact } from '../../src/payments/artefacts.js';
import { AS_OF, context, rawBoardPublicKey, release, rootJson, sealHolds, unhealthy, wideRelease } from './fixture.js';

const model = release.active.find((c) => c.surface === 'board.measurement' && c.sig_ed25519 !== null)!.subject;
const receiptFor = (subject: string, over: Parameters<typeof context>[0] = {}, axis?: string) =>
  produceArtefact('request_attestation', { subject, ...(axis ? { axis } : {}) }, context(over))
    .artefact as unknown as CommissionReceipt;

/** Inclusion under the signed root, with merkle_root and leaf_count read from /root.json (never from the proof). */
function includedUnder(
  sha: string,
  proof: { leaf_index: number; proof: string[] },
  root: { merkle_root: string; leaf_count: number },
): boolean {
  return verifyDupInclusion(
    leafHash(Buffer.from(sha, 'hex')),
    proof.leaf_index,
    root.leaf_count,
    proof.proof.map((h) => Buffer.from(h, 'hex')),
    Buffer.from(root.merkle_root, 'hex'),
  ).ok;
}

describe('commission receipt (card-v0, ras.commission)', () => {
  const receipt = receiptFor(model);

  it("has the specification's fields, the product's schema id, and reserves the matching signed cards", () => {
    assert.equal(receipt.schema, CARD_V0_SCHEMA);
    assert.equal(productByKey('request_attestation').schema, CARD_V0_SCHEMA);
    assert.equal(receipt.surface, 'ras.commission');
    assert.equal(receipt.subject, model);
    assert.equal(receipt.as_of, AS_OF);
    assert.equal(receipt.signer, `${context().did}#board-attestation-1`);
    assert.equal(receipt.payload.status, 'COMMISSIONED');
    assert.equal(receipt.payload.fresh_run, 'UNMEASURED');
    assert.equal(receipt.payload.axis, null);
    assert.deepEqual(receipt.payload.commissioned_for, context().commissionedFor);
    const expected = matchingCards(release, model, undefined)
      .slice(0, MAX_RESERVE)
      .map((c) => c.sha256);
    assert.ok(expected.length > 0);
    assert.deepEqual(
      receipt.payload.reserve.map((r) => r.sha256),
      expected,
    );
    assert.equal(RESERVE_LIMIT, MAX_RESERVE);
  });

  it('recomputes its sha256 from the RFC 8785 body and verifies under the board key in the DID document', () => {
    assert.deepEqual(sealHolds(receipt as unknown as Record<string, unknown>), { address: true, signature: true });
    assert.deepEqual(verifyCommissionReceipt(receipt, rawBoardPublicKey, rootJson), { ok: true, reasons: [] });
  });

  it('carries an inclusion proof for every reserved card that verifies against root.json', () => {
    assert.deepEqual(receipt.payload.root, {
      url: '/root.json',
      merkle_root: rootJson.merkle_root,
      leaf_count: rootJson.leaf_count,
      as_of: rootJson.as_of,
    });
    for (const r of receipt.payload.reserve) {
      assert.ok(r.root_inclusion, r.sha256);
      assert.equal(r.root_inclusion.sha256, r.sha256);
      assert.ok(includedUnder(r.sha256, r.root_inclusion, rootJson), r.sha256);
    }
  });

  it('lists only fresh_run as unmeasured once every reserved card carries its proof, and each entry has a documented meaning', () => {
    assert.deepEqual(receipt.unmeasured, ['fresh_run']);
    for (const u of receipt.unmeasured) assert.ok(COMMISSION_UNMEASURED[u]);
  });

  it('fails verification when one field or one proof element is changed', () => {
    const changed = structuredClone(receipt);
    changed.payload.reserve[0]!.subject = `${changed.payload.reserve[0]!.subject}x`;
    assert.equal(sealHolds(changed as unknown as Record<string, unknown>).address, false);
    assert.equal(verifyCommissionReceipt(changed, rawBoardPublicKey, rootJson).ok, false);
    const badProof = structuredClone(receipt);
    const p = badProof.payload.reserve[0]!.root_inclusion!;
    p.proof[0] = `${p.proof[0]!.slice(0, 63)}${p.proof[0]!.endsWith('0') ? '1' : '0'}`;
    assert.equal(includedUnder(badProof.payload.reserve[0]!.sha256, p, rootJson), false);
    assert.match(
      verifyCommissionReceipt(badProof, rawBoardPublicKey, rootJson).reasons.join('\n'),
      /reserve [0-9a-f]{64}: /,
    );
  });

  it('narrows to one axis', () => {
    const card = release.active.find((c) => c.subject === model)!;
    const narrowed = receiptFor(model, {}, card.axis);
    assert.equal(narrowed.payload.axis, card.axis);
    assert.ok(narrowed.payload.reserve.length > 0 && narrowed.payload.reserve.every((r) => r.axis === card.axis));
  });

  it('with an unhealthy key: null signature and the reason, content address still holds', () => {
    const unsigned = receiptFor(model, { boardKey: unhealthy });
    assert.equal(unsigned.sig_ed25519, null);
    assert.equal(unsigned.unsigned_reason, 'the key file is readable by others');
    assert.equal(sealHolds(unsigned as unknown as Record<string, unknown>).address, true);
    assert.match(
      verifyCommissionReceipt(unsigned, rawBoardPublicKey, rootJson).reasons.join(),
      /unsigned \(the key file is readable by others\)/,
    );
  });

  it('reserves at most 24 cards when more match, each proven under that root', () => {
    const wide = wideRelease(30);
    const r = produceArtefact(
      'request_attestation',
      { subject: 'demo/wide-1b' },
      context({ release: wide.release, proofOf: wide.proofOf }),
    ).artefact as unknown as CommissionReceipt;
    assert.equal(r.payload.reserve.length, 24);
    assert.deepEqual(
      r.payload.reserve.map((e) => e.sha256),
      wide.release.active.slice(0, 24).map((c) => c.sha256),
    );
    assert.deepEqual(verifyCommissionReceipt(r, rawBoardPublicKey, wide.root), { ok: true, reasons: [] });
    // The same proofs do not verify under another root (the demo's).
    assert.equal(verifyCommissionReceipt(r, rawBoardPublicKey, rootJson).ok, false);
  });

  it('refuses more than 24 cards and a proof for another root (broken contracts)', () => {
    const wide = wideRelease(25);
    const input = {
      subject: 'demo/wide-1b',
      axis: null,
      as_of: AS_OF,
      root: { ...wide.root, as_of: '2026-11-01T00:00:00Z' },
      commissioned_for: { resource: '/x' },
    };
    assert.throws(
      () =>
        commissionReceipt(
          { ...input, reserve: wide.release.active.map((card) => ({ card, proof: undefined })) },
          unhealthy,
        ),
      RangeError,
    );
    const card = wide.release.active[0]!;
    const proof = wide.proofOf(card.sha256) as never;
    assert.throws(
      () =>
        commissionReceipt(
          { ...input, root: { ...input.root, merkle_root: rootJson.merkle_root }, reserve: [{ card, proof }] },
          unhealthy,
        ),
      /another card or another root/,
    );
  });

  it('states a missing proof: root_inclusion null and root_inclusion unmeasured', () => {
    const r = receiptFor(model, { proofOf: () => undefined });
    assert.ok(r.payload.reserve.every((e) => e.root_inclusion === null));
    assert.deepEqual(r.unmeasured, ['fresh_run', 'root_inclusion']);
    assert.match(verifyCommissionReceipt(r, rawBoardPublicKey, rootJson).reasons.join(), /no inclusion proof/);
  });

  it('is deterministic: the same inputs give the same bytes; another time gives another address', () => {
    const a = produceArtefact('request_attestation', { subject: model }, context());
    const b = produceArtefact('request_attestation', { subject: model }, context());
    assert.ok(a.body.equals(b.body));
    const later = produceArtefact('request_attestation', { subject: model }, context({ asOf: '2026-11-22T00:00:00Z' }));
    assert.notEqual((later.artefact as { sha256: string }).sha256, (a.artefact as { sha256: string }).sha256);
  });
});
