/**
 * The revocation rule (issue 30, src/core/verify/revocation.ts), at each verifier: a signature by
 * a revoked key is INVALID (reason: revoked) unless its content is among the log entries made
 * before the compromise. Cards: VALID when the log holds them before `trusted_size`, INVALID
 * when later or not at all; a retired key that was not revoked still verifies what it signed.
 * Receipts: never in the log, so INVALID whatever `issuedAt` they claim, by the reference and
 * the browser verifier alike. Transitions: a revocation is signed by the identity root and the
 * new key (issue 36), and every way it can lie is refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalJsonStrict } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed, sign, verify } from '../../src/core/crypto/ed25519.js';
import { didDocumentResolver, verifyCompactJwsWith } from '../../src/core/crypto/jws-verifier.js';
import { verifyCompactJws } from '../../src/core/crypto/receipt-verifier.js';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { didDocument } from '../../src/core/evidence/did.js';
import {
  KEY_TRANSITION_SCHEMA,
  signRevocation,
  signTransition,
  transitionId,
  type KeyTransition,
} from '../../src/core/evidence/key-transition.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import type { Signer } from '../../src/core/evidence/signer.js';
import { signReceipt } from '../../src/core/pricing/offer-receipt.js';
import {
  keysOfDidDocument,
  revocationsOfDidDocument,
  verifyCard,
  type CardVerificationContext,
} from '../../src/core/verify/card-verifier.js';
import { signAgentCard, verifyAgentCard } from '../../src/core/verify/agent-card-signature.js';
import { checkTransitions } from '../../src/core/verify/key-transitions.js';
import { didKeyResolver } from '../../src/keys/did-resolver.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';

const DID = 'did:web:board.example';
const KID = `${DID}#board-attestation-1`;
const key = (n: number): Signer & { x: string } => {
  const p = keyPairFromSeed(Buffer.alloc(32, n));
  return { kid: KID, publicKey: p.publicKey, x: p.publicKey.toString('base64url'), sign: (m) => sign(p.privateKey, m) };
};
const [k1, k2, k3] = [key(1), key(2), key(3)];
const root = { ...key(10), kid: `${DID}#identity-root` };

// k1 signed cards 0-2, was rotated (entry 3) to k2, which signed cards 4-7; k2 leaked on
// 2026-11-20, when the log had 6 entries; the revocation (entry 8) moves the board to k3.
const card = (n: number) => {
  const body = { schema: 'card-v1', signer: KID, n };
  const bytes = Buffer.from(canonicalJsonStrict(body));
  return { body, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
};
const cards = [0, 1, 2, 4, 5, 6, 7, 9].map(card);
const rotation = signTransition(
  {
    schema: KEY_TRANSITION_SCHEMA,
    did: DID,
    fragment: 'board-attestation-1',
    sequence: 1,
    kind: 'rotation',
    old_x: k1.x,
    new_x: k2.x,
    at: '2026-11-10T00:00:00Z',
  },
  k1,
  k2,
);
const revocationBody = {
  schema: KEY_TRANSITION_SCHEMA as typeof KEY_TRANSITION_SCHEMA,
  did: DID,
  fragment: 'board-attestation-1' as const,
  sequence: 2,
  kind: 'revocation' as const,
  old_x: k2.x,
  new_x: k3.x,
  at: '2026-11-25T00:00:00Z',
  revoked_x: k2.x,
  compromised_since: '2026-11-20T00:00:00.000Z',
  trusted_size: 6,
  // Not the root of the first 6 entries below: checkTransitions checks its form, the verifiers the root (trusted-log.ts).
  trusted_root: '0'.repeat(64),
  root_x: root.x,
};
const revocation = signRevocation(revocationBody, root, k3);
const entries = [
  cards[0]!.sha256,
  cards[1]!.sha256,
  cards[2]!.sha256,
  transitionId(rotation),
  cards[3]!.sha256,
  cards[4]!.sha256,
  cards[5]!.sha256,
  cards[6]!.sha256,
  transitionId(revocation),
];
const doc = didDocument(
  DID,
  [
    { fragment: 'board-attestation-1', publicKey: k3.publicKey },
    { fragment: 'identity-root', publicKey: root.publicKey },
  ],
  [rotation, revocation],
);
const tree = new MerkleTree(logLeaves(entries));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const ctx: CardVerificationContext = {
  keys: keysOfDidDocument(doc),
  revocations: revocationsOfDidDocument(doc),
  root: null,
  rootSignatureValid: false,
  withdrawn: new Map(),
  superseded: new Map(),
  proofFor: () => undefined,
  log: {
    origin: 'board.example/log',
    tree_size: tree.size,
    root_hash: hex(tree.root()),
    checkpointValid: true,
    proofFor: (sha) => {
      const i = entries.indexOf(sha);
      return i < 0 ? undefined : { leaf_index: i, tree_size: tree.size, proof: tree.inclusionProof(i).map(hex) };
    },
  },
};

async function signatureCheck(c: ReturnType<typeof card>, by: Signer) {
  const signed = { ...c.body, sha256: c.sha256, sig_ed25519: by.sign(c.bytes).toString('hex') };
  const v = await verifyCard(signed, ctx, nodeVerifyCrypto);
  return v.checks.find((x) => x.check === 'signature')!;
}

describe('the revocation rule', () => {
  it('the DID document marks the revoked key, with the instant, the trusted size and the trusted root', () => {
    const m = doc.verificationMethod.find((v) => v.id === `${KID}~2`)!;
    assert.equal(m.publicKeyJwk.x, k2.x);
    assert.deepEqual(m.retired?.revoked, {
      compromised_since: '2026-11-20T00:00:00.000Z',
      trusted_size: 6,
      trusted_root: '0'.repeat(64),
      revocation: transitionId(revocation),
    });
    assert.equal(doc.verificationMethod.find((v) => v.id === `${KID}~1`)!.retired?.revoked, undefined);
  });

  it('a card the revoked key signed that the log holds before the compromise: VALID', async () => {
    const c = await signatureCheck(cards[4]!, k2); // entry 5 of 6 trusted
    assert.equal(c.ok, true, c.detail);
    assert.match(
      c.detail,
      /revoked since 2026-11-20T00:00:00.000Z, and the log holds the card as entry 5, among the 6/,
    );
  });

  it('logged after the compromise, or not logged: INVALID (revoked)', async () => {
    const later = await signatureCheck(cards[5]!, k2); // entry 6
    assert.equal(later.ok, false);
    assert.match(
      later.detail,
      /^revoked: signed by did:web:board.example#board-attestation-1~2, which was compromised since 2026-11-20T00:00:00.000Z, and the log holds the card as entry 6, not among the 6/,
    );
    const unlogged = await signatureCheck(cards[7]!, k2);
    assert.match(unlogged.detail, /^revoked: .*the log does not show the card$/);
  });

  it('a retired key that was not revoked, and the current key, verify what they signed', async () => {
    const retired = await signatureCheck(cards[0]!, k1);
    assert.equal(retired.ok, true, retired.detail);
    assert.match(
      retired.detail,
      /under did:web:board.example#board-attestation-1~1, the key its signer had before a rotation/,
    );
    const current = await signatureCheck(cards[7]!, k3);
    assert.deepEqual([current.ok, current.detail], [true, `Ed25519 verified under ${KID}`]);
  });

  it('a receipt by the revoked key: INVALID (revoked) whatever issuedAt says, in both verifiers; one by a retired key still VALID', async () => {
    const receipt = (by: Signer, issuedAt: number) =>
      signReceipt(
        {
          network: 'eip155:8453',
          resourceUrl: 'https://board.example/api/x',
          payer: '0x1',
          issuedAt,
          transaction: '0xab',
        },
        by,
      ).signature;
    const both = async (jws: string) => {
      const service = await verifyCompactJws(
        jws,
        didKeyResolver(() => ({ did: DID, doc }), { trustedHosts: [] }),
      );
      const browser = await verifyCompactJwsWith(jws, didDocumentResolver(doc), {
        ed25519Verify: async (k, m, s) => verify(k, m, s),
      });
      assert.deepEqual([service.result, service.reason], [browser.result, browser.reason]);
      return service;
    };
    const backdated = await both(receipt(k2, Date.parse('2026-11-12T00:00:00Z') / 1000));
    assert.equal(backdated.result, 'INVALID');
    assert.match(
      backdated.reason,
      /^revoked: signed by did:web:board.example#board-attestation-1~2, which was compromised since 2026-11-20T00:00:00.000Z, and an offer or receipt is not an entry of the log/,
    );
    const early = await both(receipt(k1, Date.parse('2026-11-05T00:00:00Z') / 1000));
    assert.equal(early.result, 'VALID', early.reason);
    assert.equal((await both(receipt(k3, 1_800_000_000))).result, 'VALID');
  });
});

describe('agent cards signed before a rotation', () => {
  const agentCard = { name: 'gspc-board', url: 'https://board.example/api/a2a', version: '1' };
  it("verify under the retired key their kid had; a revoked key's card is INVALID (revoked), as it is not logged", () => {
    assert.deepEqual(verifyAgentCard(signAgentCard(agentCard, k3), doc), {
      ok: true,
      detail: `signatures[0] verified under ${KID} over the RFC 8785 form of the card without signatures`,
    });
    const early = verifyAgentCard(signAgentCard(agentCard, k1), doc);
    assert.equal(early.ok, true, early.detail);
    assert.match(
      early.detail,
      /verified under did:web:board.example#board-attestation-1~1, the key its kid had before a rotation,/,
    );
    const leaked = verifyAgentCard(signAgentCard(agentCard, k2), doc);
    assert.equal(leaked.ok, false);
    assert.match(
      leaked.detail,
      /^signatures\[0\]: revoked: signed by did:web:board.example#board-attestation-1~2, which was compromised since 2026-11-20T00:00:00.000Z, and an agent card is not an entry of the log$/,
    );
    const other = verifyAgentCard(signAgentCard(agentCard, key(9)), doc);
    assert.match(other.detail, /the signature does not verify under did:web:board.example#board-attestation-1$/);
  });
});

describe('revocation records', () => {
  const check = (ts: readonly unknown[], log = entries, current = new Map([['board-attestation-1', k3.x]])) =>
    checkTransitions(nodeVerifyCrypto, ts, DID, current, log, root.x);

  it('a rotation, then a revocation signed by the identity root and the new key: verifies and names the revoked key', async () => {
    const v = await check([rotation, revocation]);
    assert.ok(v.ok, JSON.stringify(v));
    assert.deepEqual(v.revocations, [
      {
        fragment: 'board-attestation-1',
        x: k2.x,
        compromised_since: '2026-11-20T00:00:00.000Z',
        trusted_size: 6,
        trusted_root: '0'.repeat(64),
        revocation: transitionId(revocation),
      },
    ]);
  });

  const resigned = (change: object) => {
    const t = signRevocation({ ...revocationBody, ...change }, root, k3);
    return [rotation, t, [...entries.slice(0, 8), transitionId(t)]] as [KeyTransition, KeyTransition, string[]];
  };
  const refusals: [string, () => readonly [KeyTransition, KeyTransition, string[]], RegExp][] = [
    [
      'signed by another key than the new one',
      () => [
        rotation,
        signRevocation(revocationBody, root, k2),
        entries.slice(0, 8).concat(transitionId(signRevocation(revocationBody, root, k2))),
      ],
      /the new key's signature does not verify/,
    ],
    [
      'a key the fragment never had',
      () => resigned({ revoked_x: key(9).x }),
      /revokes .*, which board-attestation-1 never had/,
    ],
    [
      'trusting entries logged after it',
      () => resigned({ trusted_size: 9 }),
      /trusts 9 entries, but the revocation is entry 8/,
    ],
    [
      'a compromise after the revocation',
      () => resigned({ compromised_since: '2026-11-26T00:00:00Z' }),
      /compromised_since is after the revocation/,
    ],
    [
      'an instant without a zone',
      () => resigned({ compromised_since: '2026-11-20T00:00:00' }),
      /not an ISO 8601 UTC instant/,
    ],
    ['a fractional trusted size', () => resigned({ trusted_size: 2.5 }), /trusted_size is not a whole number/],
  ];
  for (const [what, make, expected] of refusals)
    it(`refuses ${what}`, async () => {
      const [a, b, log] = make();
      const v = await check([a, b], log);
      assert.equal(v.ok, false);
      assert.match((v as { detail: string }).detail, expected);
    });

  it('refuses a revocation carrying the retired key signature field (a rotation field)', async () => {
    const v = await check([rotation, { ...revocation, sig_old: '00' }]);
    assert.match((v as { detail: string }).detail, /unknown field sig_old/);
  });
});
