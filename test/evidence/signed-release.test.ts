/**
 * The signed evidence of a release, end to end over HTTP: DID document, cards, matrix, root,
 * proofs, the board attestation, free verification of cards and receipts, and fail-closed
 * behaviour when a key is unhealthy.
 */
import assert from 'node:assert/strict';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import canonicalize from 'canonicalize';
import { keyPairFromSeed, sign, verify } from '../../src/core/crypto/ed25519.js';
import { signCompactJws } from '../../src/core/crypto/jws.js';
import { attestationPreimage } from '../../src/core/evidence/site-attestation.js';
import { sealCard, type CardBody } from '../../src/core/evidence/card.js';
import { keysOfDidDocument } from '../../src/core/verify/card-verifier.js';
import { signingContext } from '../../src/keys/signing.js';
import { demoApp, TEST_DID_HOST, testSigning } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const signing = testSigning();
const { app, dir } = demoApp(undefined, signing);
const get = async (url: string) => {
  const r = await app.inject({ method: 'GET', url });
  assert.equal(r.statusCode, 200, `${url}: ${r.body.slice(0, 200)}`);
  return r;
};
const verifyCards = (payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/verify', payload: payload as object });

describe('signed evidence', () => {
  it('publishes a did:web document listing the board and card keys, and the identity root apart from them', async () => {
    const doc = (await get('/.well-known/did.json')).json();
    assert.equal(doc.id, 'did:web:localhost%3A8080');
    assert.deepEqual(
      doc.verificationMethod.map((m: { id: string }) => m.id.split('#')[1]),
      ['board-attestation-1', 'card-attestation-1', 'card-attestation-2', 'identity-root'],
    );
    // The root authorises key changes (issue 36): never an assertion method, so nothing it signed reads as the board's.
    assert.deepEqual(
      doc.assertionMethod.map((m: string) => m.split('#')[1]),
      ['board-attestation-1', 'card-attestation-1', 'card-attestation-2'],
    );
    assert.deepEqual(doc.capabilityInvocation, [`${doc.id}#identity-root`]);
    for (const m of doc.verificationMethod) assert.deepEqual(Object.keys(m.publicKeyJwk).sort(), ['crv', 'kty', 'x']);
  });

  it('signs the board: site_attestation verifies from the served bytes, and one changed byte breaks it', async () => {
    const r = await get('/api/gspc');
    const board = JSON.parse(r.body);
    assert.equal(board.site_attestation.signer, `${signing.did}#board-attestation-1`);
    assert.equal(board.site_attestation.alg, 'Ed25519');
    assert.equal(board.measured_on.living_stamp.verification_state, 'VERIFIED');
    const key = keysOfDidDocument((await get('/.well-known/did.json')).json()).get(board.site_attestation.signer)!;
    const sig = Buffer.from(board.site_attestation.sig, 'hex');
    assert.ok(verify(key, attestationPreimage(board), sig));
    const tampered = JSON.parse(r.body.replace('"separated_leads":3', '"separated_leads":4'));
    assert.notDeepEqual(tampered, board);
    assert.ok(!verify(key, attestationPreimage(tampered), sig));
  });

  it('issues a card per measured cell; the matrix counts them; withdrawn cards are not counted', async () => {
    const matrix = (await get('/signed/card-matrix.json')).json();
    const bundle = (await get('/cards-bundle.json')).json();
    assert.equal(matrix.counts.cells, bundle.cards.length);
    assert.equal(matrix.counts.cells_with_outer_signatures, matrix.counts.cells);
    assert.equal(matrix.counts.models, 5);
    assert.ok(!matrix.cells.some((c: { axis: string }) => c.axis === 'detector-interop'));
    const withdrawals = (await get('/ledgers/withdrawals.json')).json();
    assert.equal(withdrawals.entries.length, 3);
    assert.ok(withdrawals.entries.every((e: { axis: string }) => e.axis === 'detector-interop'));
    const root = (await get('/root.json')).json();
    assert.equal(root.leaf_count, matrix.counts.cells);
    const card = (await get(matrix.cells[0].url)).json();
    assert.equal(card.url, `/cards/${card.sha256.slice(0, 16)}.json`);
    assert.match(card.public_framing, /not certification/);
    assert.equal(
      card.computed_from.url.startsWith('/peritem/') || card.computed_from.url.startsWith('/evidence/'),
      true,
    );
  });

  it('the board names a leader only when its card is signed', async () => {
    const board = (await get('/api/gspc')).json();
    assert.equal(board.axes.find((a: { axis: string }) => a.axis === 'governance').leader, 'demo/atlas-70b');
  });

  it('POST /api/verify: a real card is VALID, by body and by id', async () => {
    const bundle = (await get('/cards-bundle.json')).json();
    const r = await verifyCards({ cards: bundle.cards.slice(0, 3) });
    assert.equal(r.statusCode, 200);
    const out = r.json();
    assert.equal(out.summary.valid, 3, JSON.stringify(out.results[0]));
    assert.equal(out.root.signature, 'VALID');
    const byId = (await verifyCards({ ids: [bundle.cards[0].sha256.slice(0, 16)] })).json();
    assert.equal(byId.results[0].result, 'VALID');
  });

  it('POST /api/verify: tampered, re-signed with a wrong key, withdrawn and not-under-root cards are INVALID with the reason', async () => {
    const bundle = (await get('/cards-bundle.json')).json();
    const card = bundle.cards[0];
    const tampered = { ...card, subject: `${card.subject}x` };
    const other = keyPairFromSeed(Buffer.alloc(32, 7));
    const body = Object.fromEntries(
      Object.entries(card).filter(([k]) => !['sha256', 'url', 'sig_ed25519', 'unsigned_reason'].includes(k)),
    );
    const wrongKey = { ...card, sig_ed25519: sign(other.privateKey, Buffer.from(canonicalize(body)!)).toString('hex') };
    const withdrawnId = (await get('/ledgers/withdrawals.json')).json().entries[0].sha256;
    // A card really signed by this service, but not one of this release: not under this root.
    const key = signing.inputs.boardKey;
    assert.ok(key.healthy);
    const foreign = sealCard({ ...(body as unknown as CardBody), as_of: '2026-01-01T00:00:00Z' }, key);
    const out = (await verifyCards({ cards: [tampered, wrongKey, foreign] })).json();
    assert.match(out.results[0].reasons.join(), /content_address: hash mismatch/);
    assert.match(out.results[1].reasons.join(), /signature: bad signature/);
    assert.equal(out.results[2].reasons.length, 2);
    assert.equal(out.results[2].reasons[0], 'under_root: not under the current root');
    assert.match(out.results[2].reasons[1], /^in_log: not in the log localhost:8080\/log at checkpoint size \d+$/);
    const w = (await verifyCards({ ids: [withdrawnId] })).json();
    assert.match(w.results[0].reasons.join(), /not_withdrawn: withdrawn: refused bank/);
    assert.match(w.results[0].reasons.join(), /under_root: not under the current root/);
  });

  it('serves an inclusion proof for each active card, and 404s other ids', async () => {
    const matrix = (await get('/signed/card-matrix.json')).json();
    const p = (await get(`/cards/${matrix.cells[5].sha256.slice(0, 16)}.proof.json`)).json();
    assert.equal(p.sha256, matrix.cells[5].sha256);
    assert.equal(p.leaf_count, matrix.counts.cells);
    assert.equal((await app.inject({ method: 'GET', url: '/cards/0000000000000000.proof.json' })).statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url: '/cards/nope.json' })).statusCode, 404);
  });

  it('POST /api/verify rejects malformed bodies with 400', async () => {
    for (const payload of [[], { cards: [] }, { something: 1 }, { ids: ['xyz'] }]) {
      const r = await verifyCards(payload);
      assert.equal(r.statusCode, 400, JSON.stringify(payload));
      assert.equal(r.json().code, 'bad_body');
    }
    const notJson = await app.inject({
      method: 'POST',
      url: '/api/verify',
      headers: { 'content-type': 'application/json' },
      payload: '{"cards": [',
    });
    assert.equal(notJson.statusCode, 400);
  });

  it('POST /api/verify takes at most 4 MiB (issue 38): a larger body is a 413 body_too_large before it is parsed', async () => {
    const over = await app.inject({
      method: 'POST',
      url: '/api/verify',
      headers: { 'content-type': 'application/json' },
      payload: `{"ids": ["${'a'.repeat(4 * 1024 * 1024)}"]}`,
    });
    assert.equal(over.statusCode, 413);
    assert.equal(over.json().code, 'body_too_large');
    const under = await app.inject({
      method: 'POST',
      url: '/api/verify',
      headers: { 'content-type': 'application/json' },
      payload: `{"ids": ["${'a'.repeat(3 * 1024 * 1024)}"]}`,
    });
    assert.equal(under.statusCode, 400, 'read and parsed: an id that names no card');
  });

  it('POST /api/receipts/verify: VALID, tampered INVALID, kid not listed INVALID, foreign DID UNVERIFIABLE_KEY', async () => {
    const board = signing.inputs.boardKey;
    assert.ok(board.healthy);
    // A receipt's fields (payer, issuedAt): any other payload is not VALID as a receipt (issue 37).
    const jws = signCompactJws(
      {
        version: 1,
        network: 'eip155:8453',
        resourceUrl: 'http://x/api/y',
        payer: '0x1',
        issuedAt: 1,
        transaction: '0xabc',
      },
      { kid: board.signer.kid, sign: board.signer.sign },
    );
    const check = async (j: string) =>
      (await app.inject({ method: 'POST', url: '/api/receipts/verify', payload: { jws: j } })).json();
    assert.equal((await check(jws)).result, 'VALID');
    const [h, p, s] = jws.split('.');
    const flipped = `${h}.${p}.${s!.slice(0, -2)}${s!.slice(-2) === 'AA' ? 'BA' : 'AA'}`;
    assert.equal((await check(flipped)).result, 'INVALID');
    const unlisted = signCompactJws({ a: 1 }, { kid: `${signing.did}#no-such-key`, sign: board.signer.sign });
    assert.match((await check(unlisted)).reason, /not listed among verification methods/);
    const foreign = signCompactJws(
      { a: 1 },
      { kid: 'did:web:example.org#board-attestation-1', sign: board.signer.sign },
    );
    assert.equal((await check(foreign)).result, 'UNVERIFIABLE_KEY');
    const bad = await app.inject({ method: 'POST', url: '/api/receipts/verify', payload: { nope: 1 } });
    assert.equal(bad.statusCode, 400);
  });

  it('release files are byte-identical across two publishes with the same keys', () => {
    const again = demoApp(undefined, testSigning(signing.keyDir));
    assert.equal(again.dir.split('/').pop(), dir.split('/').pop());
  });
});

describe('key health (fail closed)', () => {
  it('a key readable by others, a missing key and a mismatched key are unhealthy with reasons', () => {
    const s = testSigning();
    chmodSync(join(s.keyDir, 'board-attestation-1.key'), 0o644);
    rmSync(join(s.keyDir, 'card-attestation-1.key'));
    writeFileSync(join(s.keyDir, 'card-attestation-2.key'), `${Buffer.alloc(32, 9).toString('base64url')}\n`, {
      mode: 0o600,
    });
    const h = signingContext(s.keyDir, TEST_DID_HOST).keys.health;
    assert.match(h[0]!.reason!, /readable or writable by group or others/);
    assert.match(h[1]!.reason!, /missing/);
    assert.match(h[2]!.reason!, /does not match the published public key/);
  });

  it('with an unhealthy board key nothing is signed: cards and root carry null and a reason, leaders are withheld', async () => {
    const s = testSigning();
    chmodSync(join(s.keyDir, 'board-attestation-1.key'), 0o644);
    const { app: unsigned } = demoApp(undefined, { ...signingContext(s.keyDir, TEST_DID_HOST), keyDir: s.keyDir });
    const board = (await unsigned.inject({ method: 'GET', url: '/api/gspc' })).json();
    assert.equal(board.site_attestation.sig, undefined);
    assert.equal(board.measured_on.living_stamp.verification_state, 'UNSIGNED');
    const gov = board.axes.find((a: { axis: string }) => a.axis === 'governance');
    assert.equal('leader' in gov, false);
    assert.equal(gov.public_leader_state, 'NO_SIGNED_CARD');
    const root = (await unsigned.inject({ method: 'GET', url: '/root.json' })).json();
    assert.equal(root.sig_ed25519, null);
    assert.match(root.unsigned_reason, /unhealthy/);
    const matrix = (await unsigned.inject({ method: 'GET', url: '/signed/card-matrix.json' })).json();
    assert.equal(matrix.counts.cells_with_outer_signatures, 0);
    void tempDir;
  });
});
