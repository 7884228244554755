/**
 * Who may change a key (issue 36, src/core/verify/key-transitions.ts) and where the keys are
 * anchored (src/core/verify/key-anchor.ts). Accepted: a rotation both keys sign, a revocation
 * the identity root in force signs, a rotation of the root both roots sign, and an issue-30
 * revocation a later adoption by the root endorses. Refused: a revocation without the root (the
 * attack of a copy of the public files), one signed by a root that is not the one in force, a
 * transition a stranger signs, a chain that skips a key, an adoption by another root, an
 * endorsement of nothing. Anchoring: a view must be a prefix of its DID host's history, and a
 * reader's older anchor reaches new keys only through changes it can vouch for.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalBytesStrict } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import {
  KEY_TRANSITION_SCHEMA,
  signAdoption,
  signRevocation,
  signTransition,
  transitionId,
  type TransitionRecord,
} from '../../src/core/evidence/key-transition.js';
import type { Signer, TransitionFragment } from '../../src/core/evidence/signer.js';
import { agreesWithHost, anchoredSince, thumbprintInput, type KeyHistory } from '../../src/core/verify/key-anchor.js';
import { checkTransitions } from '../../src/core/verify/key-transitions.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';

const DID = 'did:web:board.example';
const BOARD = 'board-attestation-1';
const ROOT = 'identity-root';

type Key = Signer & { x: string };
function key(n: number): Key {
  const pair = keyPairFromSeed(Buffer.alloc(32, n));
  const x = pair.publicKey.toString('base64url');
  return { kid: `${DID}#k${n}`, publicKey: pair.publicKey, x, sign: (m) => sign(pair.privateKey, m) };
}
const [b1, b2, b3, r1, r2, stranger] = [1, 2, 3, 10, 11, 66].map(key) as [Key, Key, Key, Key, Key, Key];

const rotate = (fragment: TransitionFragment, sequence: number, from: Key, to: Key, by: [Key, Key] = [from, to]) =>
  signTransition(
    {
      schema: KEY_TRANSITION_SCHEMA,
      did: DID,
      fragment,
      sequence,
      kind: 'rotation',
      old_x: from.x,
      new_x: to.x,
      at: '2026-11-02T00:00:00Z',
    },
    by[0],
    by[1],
  );
const revokeBody = (sequence: number, from: Key, to: Key, root: Key) => ({
  schema: KEY_TRANSITION_SCHEMA as typeof KEY_TRANSITION_SCHEMA,
  did: DID,
  fragment: BOARD as typeof BOARD,
  sequence,
  kind: 'revocation' as const,
  old_x: from.x,
  new_x: to.x,
  at: '2026-11-03T00:00:00Z',
  revoked_x: from.x,
  compromised_since: '2026-11-02T12:00:00Z',
  trusted_size: 0,
  trusted_root: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  root_x: root.x,
});
const revoke = (sequence: number, from: Key, to: Key, root: Key, signingRoot = root) =>
  signRevocation(revokeBody(sequence, from, to, root), signingRoot, to);
/** The issue-30 format: the new key alone signs. */
function legacyRevoke(sequence: number, from: Key, to: Key) {
  const { root_x: _, trusted_root: _r, ...body } = revokeBody(sequence, from, to, r1);
  return { ...body, sig_new: to.sign(canonicalBytesStrict(body)).toString('hex') };
}
const adopt = (root: Key, endorses: string[], signer = root) =>
  signAdoption(
    {
      schema: KEY_TRANSITION_SCHEMA,
      did: DID,
      fragment: ROOT,
      kind: 'adoption',
      root_x: root.x,
      endorses,
      at: '2026-11-04T00:00:00Z',
    },
    signer,
  );

const check = (ts: TransitionRecord[] | unknown[], board: Key, root: Key | undefined) =>
  checkTransitions(
    nodeVerifyCrypto,
    ts,
    DID,
    new Map([[BOARD, board.x], ...(root ? [[ROOT, root.x] as [string, string]] : [])]),
    (ts as TransitionRecord[]).map((t) => transitionId(t)),
    root?.x,
  );
const detail = (v: Awaited<ReturnType<typeof check>>) => (v.ok ? 'ok' : v.detail);

describe('who may change a key', () => {
  it('accepts a rotation both keys sign, a revocation the root signs, and a rotation of the root', async () => {
    const ts = [rotate(BOARD, 1, b1, b2), rotate(ROOT, 1, r1, r2), revoke(2, b2, b3, r2)];
    const v = await check(ts, b3, r2);
    assert.equal(detail(v), 'ok');
    assert.ok(v.ok && v.epochs.get(BOARD)!.at(-1)!.authorisedBy === r2.x, 'the revoking root is recorded');
    assert.ok(v.ok && v.revocations.length === 1);
  });

  it('refuses a revocation without the root: the copy-of-the-public-files attack', async () => {
    const v = await check([legacyRevoke(1, b1, b2)], b2, r1);
    assert.match(detail(v), /new key only .* no adoption by the identity-root endorses/);
  });

  it('refuses a revocation signed by a root that is not the one in force', async () => {
    assert.match(detail(await check([revoke(1, b1, b2, stranger)], b2, r1)), /but the identity-root in force then is/);
    // Claims the root of now, but a stranger signed it.
    assert.match(detail(await check([revoke(1, b1, b2, r1, stranger)], b2, r1)), /root's signature does not verify/);
    // The old root, after the root was rotated.
    const ts = [rotate(ROOT, 1, r1, r2), revoke(1, b1, b2, r1)];
    assert.match(detail(await check(ts, b2, r2)), /in force then is/);
  });

  it('refuses a revocation when the DID document lists no root', async () => {
    assert.match(detail(await check([revoke(1, b1, b2, r1)], b2, undefined)), /lists no #identity-root/);
  });

  it('refuses a transition a stranger signs and a chain that skips a key', async () => {
    assert.match(detail(await check([rotate(BOARD, 1, b1, b2, [stranger, b2])], b2, r1)), /retired key's signature/);
    assert.match(detail(await check([rotate(ROOT, 1, r1, r2, [stranger, r2])], b1, r2)), /retired key's signature/);
    const skip = [rotate(BOARD, 1, b1, b2), rotate(BOARD, 2, b1, b3)];
    assert.match(detail(await check(skip, b3, r1)), /retires .* but its key then was/);
  });

  it('refuses to revoke the root itself', async () => {
    const body = { ...revokeBody(1, r1, r2, r1), fragment: ROOT };
    const t = signRevocation(body as never, r1, r2);
    assert.match(detail(await check([t], b1, r2)), /is not revoked: it is rotated/);
  });

  it('accepts an issue-30 revocation that a later adoption by the root endorses (gspc keys migrate)', async () => {
    const legacy = legacyRevoke(1, b1, b2);
    const v = await check([legacy, adopt(r1, [transitionId(legacy as never)])], b2, r1);
    assert.equal(detail(v), 'ok');
    assert.ok(v.ok && v.epochs.get(BOARD)!.at(-1)!.authorisedBy === r1.x);
  });

  it('refuses an adoption by another root, and one endorsing no earlier transition', async () => {
    const legacy = legacyRevoke(1, b1, b2);
    const id = transitionId(legacy as never);
    assert.match(detail(await check([legacy, adopt(stranger, [id])], b2, r1)), /in force then is/);
    assert.match(detail(await check([legacy, adopt(r1, [id], stranger)], b2, r1)), /root's signature does not verify/);
    assert.match(detail(await check([legacy, adopt(r1, ['ab'.repeat(32)])], b2, r1)), /which is no earlier transition/);
    // An adoption before the revocation does not endorse it.
    assert.match(detail(await check([adopt(r1, []), legacy], b2, r1)), /no adoption by the identity-root endorses/);
  });
});

const history = async (ts: TransitionRecord[], board: Key, root: Key): Promise<KeyHistory> => {
  const v = await check(ts, board, root);
  assert.ok(v.ok, detail(v));
  return {
    ids: v.ids,
    epochs: v.epochs,
    current: new Map([
      [BOARD, board.x],
      [ROOT, root.x],
    ]),
  };
};

describe('where the keys are anchored', () => {
  const t1 = rotate(BOARD, 1, b1, b2);
  const t2 = revoke(2, b2, b3, r1);

  it('a view with the host history, or a prefix of it, agrees with its DID host', async () => {
    const host = await history([t1, t2], b3, r1);
    assert.ok(agreesWithHost(await history([t1, t2], b3, r1), host).ok);
    const lag = agreesWithHost(await history([t1], b2, r1), host);
    assert.ok(lag.ok && /lags/.test(lag.detail), lag.detail);
  });

  it('a view copied before its host adopted an identity root agrees, one serving another root does not', async () => {
    const host = await history([t1], b2, r1);
    const noRoot = agreesWithHost({ ids: host.ids, epochs: host.epochs, current: new Map([[BOARD, b2.x]]) }, host);
    assert.ok(noRoot.ok, noRoot.detail);
    const otherRoot = agreesWithHost(
      {
        ids: host.ids,
        epochs: host.epochs,
        current: new Map([
          [BOARD, b2.x],
          [ROOT, stranger.x],
        ]),
      },
      host,
    );
    assert.match(otherRoot.ok ? '' : otherRoot.detail, /#identity-root: the view serves/);
  });

  it('an impostor with keys of its own, a view ahead of its host, or a forked history does not', async () => {
    const host = await history([t1], b2, r1);
    const impostor = agreesWithHost(
      {
        ids: [],
        epochs: new Map(),
        current: new Map([
          [BOARD, stranger.x],
          [ROOT, r1.x],
        ]),
      },
      host,
    );
    assert.ok(!impostor.ok);
    assert.match(impostor.detail, /serves .* the DID's host/);
    const ahead = agreesWithHost(await history([t1, t2], b3, r1), host);
    assert.match(ahead.ok ? '' : ahead.detail, /host never changed/);
    const forked = agreesWithHost(await history([rotate(BOARD, 1, b1, b3)], b3, r1), host);
    assert.match(forked.ok ? '' : forked.detail, /is not the DID's host's/);
  });

  it("a reader's older anchor reaches new keys by rotations and by revocations a trusted root signed", async () => {
    const view = await history([t1, t2], b3, r1);
    const trusted = new Map([
      [BOARD, new Set([b1.x])],
      [ROOT, new Set([r1.x])],
    ]);
    const v = anchoredSince(view, trusted, [BOARD]);
    assert.ok(v.ok, v.detail);
    // Without the root, the revocation cannot be vouched for.
    const noRoot = anchoredSince(view, new Map([[BOARD, new Set([b1.x])]]), [BOARD]);
    assert.match(noRoot.ok ? '' : noRoot.detail, /trusts no identity root/);
    // Keys the anchor never trusted.
    const none = anchoredSince(view, new Map([[BOARD, new Set([stranger.x])]]), [BOARD]);
    assert.match(none.ok ? '' : none.detail, /none of its keys/);
  });

  it('a root rotation carries the trusted root forward; a revocation by a root before the trusted one does not count', async () => {
    const view = await history([rotate(ROOT, 1, r1, r2), revoke(1, b1, b2, r2)], b2, r2);
    assert.ok(
      anchoredSince(
        view,
        new Map([
          [BOARD, new Set([b1.x])],
          [ROOT, new Set([r1.x])],
        ]),
        [BOARD],
      ).ok,
    );
    const older = await history([revoke(1, b1, b2, r1), rotate(ROOT, 1, r1, r2)], b2, r2);
    const v = anchoredSince(
      older,
      new Map([
        [BOARD, new Set([b1.x])],
        [ROOT, new Set([r2.x])],
      ]),
      [BOARD],
    );
    assert.match(v.ok ? '' : v.detail, /did not lead to/);
  });

  it('the RFC 7638 thumbprint input of an Ed25519 key', () => {
    // RFC 8037 appendix A.3: the thumbprint of its example key.
    const x = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
    const t = createHash('sha256').update(thumbprintInput(x)).digest('base64url');
    assert.equal(t, 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });
});
