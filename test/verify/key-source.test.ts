/**
 * Where the verifiers' keys come from (src/core/verify/key-source.ts, issue 36), as functions:
 * the did:web host rule restated for the browser is did.ts's; a host that cannot be read, or
 * answers another DID's document or a history that does not verify, leaves the keys
 * UNVERIFIABLE_KEY; a reader's anchor of another DID is refused; a VALID card under unanchored
 * keys is not VALID. And the identity root signs nothing but key changes: a card, a root, an
 * agent card, an offer or receipt, or a board it signed is refused by every verifier, whatever
 * key the DID document lists for it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { verifyCompactJws } from '../../src/core/crypto/receipt-verifier.js';
import { didDocument, didDocumentUrl } from '../../src/core/evidence/did.js';
import { KEY_TRANSITION_SCHEMA, signTransition, transitionsDocument } from '../../src/core/evidence/key-transition.js';
import { buildRoot } from '../../src/core/evidence/public-root.js';
import { BOARD_KEY, ROOT_KEY } from '../../src/core/evidence/signer.js';
import { signReceipt } from '../../src/core/pricing/offer-receipt.js';
import { signAgentCard, verifyAgentCard } from '../../src/core/verify/agent-card-signature.js';
import { keysOfDidDocument, verifyCard, type CardVerdict } from '../../src/core/verify/card-verifier.js';
import {
  anchorKeys,
  anchoredVerdict,
  anchorOfDidDocument,
  didHostBase,
  type KeyDocuments,
} from '../../src/core/verify/key-source.js';
import { verifyRootRecord } from '../../src/core/verify/root-verifier.js';
import { resolveInMethods } from '../../src/core/crypto/jws-verifier.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';
import { healthy, keyOf, liveOf, published, type Key } from '../helpers/host-views.js';

const DID = 'did:web:board.example';
const K = {
  board: keyOf(DID, BOARD_KEY, 1),
  cards: [keyOf(DID, 'card-attestation-1', 2), keyOf(DID, 'card-attestation-2', 3)] as [Key, Key],
  root: keyOf(DID, ROOT_KEY, 4),
};
const doc = didDocument(DID, published([K.board, ...K.cards, K.root]));
const view: KeyDocuments = { didDocument: doc };
const anchor = (answer: Parameters<typeof anchorKeys>[3]) => anchorKeys(nodeVerifyCrypto, view, [], answer, 'HINT');

describe('where the keys come from', () => {
  it('the browser’s did:web host rule is did.ts’s: http only for localhost', () => {
    for (const did of [
      'did:web:board.example',
      'did:web:localhost%3A8080',
      'did:web:localhost',
      'did:web:a.b.example%3A8443',
    ])
      assert.equal(`${didHostBase(did)}/.well-known/did.json`, didDocumentUrl(did), did);
    for (const bad of ['did:key:z6Mk', 'did:web:', 'did:web:a/b', 42, undefined])
      assert.equal(didHostBase(bad), undefined);
  });

  it('a host that cannot be read, answers another DID’s document, or a history that does not verify: UNVERIFIABLE_KEY', async () => {
    const down = await anchor({
      kind: 'host',
      answer: { ok: false, url: 'u', reason: 'u could not be read: ECONNREFUSED' },
    });
    assert.equal(down.anchor.state, 'UNVERIFIABLE_KEY');
    assert.match(
      down.anchor.detail,
      /^UNVERIFIABLE_KEY: the keys could not be anchored: u could not be read: ECONNREFUSED; .*\(HINT\)$/,
    );
    assert.equal(down.docs, view, "the view's own keys are used for the other checks");
    const other = didDocument('did:web:other.example', published([K.board]));
    const wrong = await anchor({ kind: 'host', answer: { ok: true, url: 'u', docs: { didDocument: other } } });
    assert.match(wrong.anchor.detail, /^UNVERIFIABLE_KEY: .*is not the DID document of did:web:board\.example/);
    const stranger = keyOf(DID, BOARD_KEY, 66);
    const b1 = keyOf(DID, BOARD_KEY, 5);
    const forged = signTransition(
      {
        schema: KEY_TRANSITION_SCHEMA,
        did: DID,
        fragment: BOARD_KEY,
        sequence: 1,
        kind: 'rotation',
        old_x: K.board.x,
        new_x: b1.x,
        at: '2026-11-03T00:00:00Z',
      },
      stranger,
      b1,
    );
    const host = {
      didDocument: didDocument(DID, published([b1, ...K.cards, K.root]), [forged]),
      transitions: transitionsDocument(DID, [forged]),
    };
    const broken = await anchor({ kind: 'host', answer: { ok: true, url: 'u', docs: host } });
    assert.match(
      broken.anchor.detail,
      /^UNVERIFIABLE_KEY: the keys could not be anchored: the key transitions of the DID's host \(u\) do not verify: .*retired key's signature/,
    );
  });

  it('a reader’s anchor of another DID, or of other keys, is refused; of these keys, VALID', async () => {
    const mine = anchorOfDidDocument(doc, 'saved');
    const theirs = anchorOfDidDocument(didDocument('did:web:other.example', published([K.board])), 'theirs');
    assert.ok(!('problem' in mine) && !('problem' in theirs));
    assert.equal((await anchor({ kind: 'reader', anchor: mine })).anchor.state, 'VALID');
    assert.match(
      (await anchor({ kind: 'reader', anchor: theirs })).anchor.detail,
      /^theirs is did:web:other\.example's/,
    );
    const anyKey = { describe: 'a key', byFragment: new Map(), anyFragment: [K.root.x] };
    assert.match(
      (await anchor({ kind: 'reader', anchor: anyKey })).anchor.detail,
      /#board-attestation-1: none of its keys/,
    );
    assert.deepEqual(anchorOfDidDocument({ id: DID }, 'x'), {
      problem: 'not a DID document (no id, no verificationMethod)',
    });
  });

  it('a VALID card under keys that are not anchored is not VALID; an INVALID one stays INVALID', () => {
    const v: CardVerdict = { sha256: 'a', result: 'VALID', reasons: [], checks: [] };
    const unanchored = { ok: false, state: 'UNVERIFIABLE_KEY' as const, detail: 'UNVERIFIABLE_KEY: why' };
    assert.deepEqual(anchoredVerdict(v, unanchored), {
      ...v,
      result: 'UNVERIFIABLE_KEY',
      reasons: ['key_anchor: UNVERIFIABLE_KEY: why'],
    });
    const bad: CardVerdict = { ...v, result: 'INVALID', reasons: ['signature: x'] };
    assert.equal(anchoredVerdict(bad, unanchored), bad);
    assert.equal(anchoredVerdict(v, { ok: true, state: 'VALID', detail: '' }), v);
  });
});

describe('the identity root signs nothing but key changes', () => {
  const data = tempDir();
  const signing = { did: DID, boardKey: healthy(K.board), publishedKeys: published([K.board, ...K.cards, K.root]) };
  const release = loadRelease(publishRelease(demoCorpus, data, signing).dir);
  const card = [...release.evidence.cards.values()][0]!;
  const keys = keysOfDidDocument(doc);
  const rootKid = `${DID}#${ROOT_KEY}`;

  it('a card, a root, an agent card, a receipt the root signed: each refused, saying why', async () => {
    const { cardBodyOf, sealCard } = await import('../../src/core/evidence/card.js');
    const body = { ...(cardBodyOf(card as never) as Record<string, unknown>), signer: rootKid };
    for (const signer of [rootKid, `${rootKid}~1`]) {
      const sealed = sealCard({ ...body, signer } as never, healthy(K.root));
      const ctx = {
        keys: new Map([...keys, [`${rootKid}~1`, K.root.publicKey]]),
        root: null,
        rootSignatureValid: false,
        withdrawn: new Map(),
        superseded: new Map(),
        proofFor: () => undefined,
      };
      const v = await verifyCard(sealed, ctx, nodeVerifyCrypto);
      const sig = v.checks.find((c) => c.check === 'signature')!;
      assert.equal(sig.ok, false);
      assert.equal(sig.detail, `signed by ${signer}: the identity root authorises key changes and signs nothing else`);
    }
    const root = buildRoot([card.sha256], '2026-11-01T00:00:00Z', DID, healthy({ ...K.root, kid: rootKid }));
    assert.match((await verifyRootRecord(root, keys, nodeVerifyCrypto)).detail, /identity root .* signs nothing else/);
    const agent = signAgentCard({ name: 'board' }, { ...K.root, kid: rootKid });
    assert.match(verifyAgentCard(agent, doc).detail, /identity root .* signs nothing else/);
    const jws = signReceipt(
      {
        network: 'eip155:8453',
        resourceUrl: 'https://board.example/api/x',
        payer: '0x1',
        issuedAt: 1,
        transaction: '0xab',
      },
      { kid: rootKid, sign: (m) => Buffer.from(K.root.sign(m)) },
    ).signature;
    const r = await verifyCompactJws(jws, async (kid) => resolveInMethods(doc.verificationMethod, kid));
    assert.equal(r.result, 'INVALID');
    assert.match(r.reason, /identity root authorises key changes and signs nothing else/);
  });

  it('POST /api/verify refuses a card the root signed', async () => {
    const app = buildApp({ state: new ServedState(release, liveOf(DID, K)), logLevel: 'silent' });
    const { cardBodyOf, sealCard } = await import('../../src/core/evidence/card.js');
    const sealed = sealCard(
      { ...(cardBodyOf(card as never) as Record<string, unknown>), signer: rootKid } as never,
      healthy(K.root),
    );
    const answer = (await app.inject({ method: 'POST', url: '/api/verify', payload: sealed })).json();
    await app.close();
    assert.equal(answer.results[0].result, 'INVALID');
    assert.match(answer.results[0].reasons.join(';'), /signature: signed by .*#identity-root: the identity root/);
  });
});
