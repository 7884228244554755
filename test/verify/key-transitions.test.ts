/**
 * Following key transitions (src/core/verify/key-transitions.ts, issue 30): a chain of two
 * rotations of the board key and one of the agent-card key verifies and gives the key of each
 * log size; every way a record can lie is refused with what is wrong: a field changed after
 * signing, a signature by another key, a broken chain, a gap in the sequence, a record the log
 * does not hold or holds out of order, another DID, and a chain that does not end at the key the
 * DID document serves.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import {
  KEY_TRANSITION_SCHEMA,
  signTransition,
  transitionId,
  type KeyTransition,
} from '../../src/core/evidence/key-transition.js';
import type { KeyFragment, Signer } from '../../src/core/evidence/signer.js';
import { checkTransitions, keyAtSize } from '../../src/core/verify/key-transitions.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';

const DID = 'did:web:board.example';

function signer(n: number): Signer & { x: string } {
  const pair = keyPairFromSeed(Buffer.alloc(32, n));
  return {
    kid: `${DID}#k`,
    publicKey: pair.publicKey,
    x: pair.publicKey.toString('base64url'),
    sign: (m) => sign(pair.privateKey, m),
  };
}

function rotation(fragment: KeyFragment, sequence: number, from: Signer & { x: string }, to: Signer & { x: string }) {
  return signTransition(
    {
      schema: KEY_TRANSITION_SCHEMA,
      did: DID,
      fragment,
      sequence,
      kind: 'rotation',
      old_x: from.x,
      new_x: to.x,
      at: `2026-11-0${sequence}T00:00:00Z`,
    },
    from,
    to,
  );
}

const [b1, b2, b3, c1, c2] = [1, 2, 3, 4, 5].map(signer) as [
  ReturnType<typeof signer>,
  ReturnType<typeof signer>,
  ReturnType<typeof signer>,
  ReturnType<typeof signer>,
  ReturnType<typeof signer>,
];
const t1 = rotation('board-attestation-1', 1, b1, b2);
const t2 = rotation('card-attestation-2', 1, c1, c2);
const t3 = rotation('board-attestation-1', 2, b2, b3);
const CURRENT = new Map([
  ['board-attestation-1', b3.x],
  ['card-attestation-2', c2.x],
]);
// A log: cards, t1 at leaf 3, cards, t2 and t3 at leaves 6 and 7, cards.
const card = (n: number) => n.toString(16).padStart(64, '0');
const LOG = [
  card(1),
  card(2),
  card(3),
  transitionId(t1),
  card(4),
  card(5),
  transitionId(t2),
  transitionId(t3),
  card(6),
];

const check = (ts: unknown[], log = LOG, current = CURRENT, did = DID) =>
  checkTransitions(nodeVerifyCrypto, ts, did, current, log);

describe('key transitions', () => {
  it('transitions the log does not hold yet came after the release: its checkpoints keep the key before them', async () => {
    const v = await check([t1, t2, t3], LOG.slice(0, 7));
    assert.ok(v.ok, JSON.stringify(v));
    assert.equal(v.unlogged, 1);
    const chain = v.epochs.get('board-attestation-1');
    assert.equal(keyAtSize(chain, 7, 'none'), b2.x, 'a release of 7 entries was signed by b2, not b3');
    assert.equal(keyAtSize(chain, 3, 'none'), b1.x);
  });

  it('a valid chain verifies and says which board key signs a checkpoint of each size', async () => {
    const v = await check([t1, t2, t3]);
    assert.ok(v.ok, JSON.stringify(v));
    assert.deepEqual(v.ids, [t1, t2, t3].map(transitionId));
    const board = v.epochs.get('board-attestation-1');
    // Sizes 1..3 cover no transition (leaf 3 is the fourth entry): the first key.
    assert.deepEqual(
      [1, 3, 4, 7, 8, 9].map((size) => keyAtSize(board, size, 'current')),
      [b1.x, b1.x, b2.x, b2.x, b3.x, b3.x],
    );
    assert.equal(keyAtSize(undefined, 5, 'current'), 'current', 'keys that never changed');
  });

  const refusals: [string, () => unknown[], RegExp, string[]?, Map<string, string>?, string?][] = [
    [
      'a field changed after signing',
      () => [{ ...t1, at: '2026-12-01T00:00:00Z' }, t2, t3],
      /transition 1 .*the retired key's signature does not verify/,
    ],
    [
      'signed by another key than the one it retires',
      () => [{ ...t1, sig_old: b3.sign(Buffer.from('x')).toString('hex') }, t2, t3],
      /transition 1 .*the retired key's signature does not verify/,
    ],
    [
      'the new key never signed it',
      () => [{ ...t1, sig_new: t1.sig_old }, t2, t3],
      /transition 1 .*the new key's signature does not verify/,
    ],
    [
      'a chain that skips a key',
      () => [t1, t2, rotation('board-attestation-1', 2, b1, b3)],
      /transition 3: board-attestation-1 retires .*, but its key then was/,
      [card(1), transitionId(t1), transitionId(t2), transitionId(rotation('board-attestation-1', 2, b1, b3))],
    ],
    ['a gap in the sequence', () => [rotation('board-attestation-1', 2, b1, b2)], /sequence 2, expected 1/],
    [
      'a transition the log holds after one it does not',
      () => [t1, t2, t3],
      /transition 3 \([0-9a-f]{16}\): logged, after a transition the log does not hold/,
      [...LOG.slice(0, 6), LOG[7]!, card(6)],
    ],
    [
      'transitions logged out of order',
      () => [t1, t2, t3],
      /transition 3: logged before the transition preceding it/,
      [transitionId(t1), transitionId(t3), transitionId(t2)],
    ],
    [
      'a record of another DID',
      () => [t1],
      /transition 1: for did:web:board\.example, not did:web:other\.example/,
      LOG,
      CURRENT,
      'did:web:other.example',
    ],
    [
      'a chain that does not end at the served key',
      () => [t1, t2],
      /board-attestation-1: the transitions end at .*, but the DID document serves/,
    ],
    ['an unknown field', () => [{ ...t1, note: 'x' } as KeyTransition], /transition 1: unknown field note/],
  ];
  for (const [what, records, expected, log, current, did] of refusals)
    it(`refuses ${what}`, async () => {
      const v = await check(records(), log ?? LOG, current ?? CURRENT, did ?? DID);
      assert.equal(v.ok, false);
      assert.match((v as { detail: string }).detail, expected);
    });
});
