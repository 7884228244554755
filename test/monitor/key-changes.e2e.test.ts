/**
 * The rules of a key change, through `gspc monitor` (issue 36, "Done when": a rotation, a
 * revocation by the root and a root rotation are each accepted, and a revocation without the
 * root, a transition signed by a stranger and a chain that skips a key are each refused, by
 * `gspc verify`, the browser and the monitor). `gspc verify` and the browser are
 * test/verify/keys-from-host.e2e.test.ts, a board rotation through the monitor is
 * key-rotation.e2e.test.ts; this file is the other five through the monitor, around one origin
 * (test/helpers/host-views.ts: fixed keys, the identity root included, every change signed with
 * core functions) and one monitor that pinned it:
 * - the three forged histories, served by the DID's host itself and by mirrors beside an honest
 *   host: an alert for each, and the state never holds their keys (its pins stay the origin's);
 * - the origin's honest root rotation, then a revocation signed by the root it made current, each
 *   published as the next release: accepted, and pinned.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BOARD_KEY, ROOT_KEY } from '../../src/core/evidence/signer.js';
import { hostOrigin, proxy } from '../helpers/host-views.js';
import { tempDir } from '../helpers/tmp.js';
import { alertsFor, type Json, kinds, monitorOnce } from './board.js';

const origin = await hostOrigin();
const { url: ORIGIN, did: DID, K, board1, root1 } = origin;
const BOARD = `${DID}#${BOARD_KEY}`;
const ROOT = `${DID}#${ROOT_KEY}`;
const state = (dir: string): Json => JSON.parse(readFileSync(join(dir, 'monitor.json'), 'utf8'));
const stateText = (dir: string): string => readFileSync(join(dir, 'monitor.json'), 'utf8');
/** The state but for when it was written. */
const memory = (dir: string): Json => ({ ...state(dir), checked_at: undefined });
/** The monitor's state after its first clean poll of the origin: every case starts from (a copy of) it. */
const pinned = tempDir();
/** A copy of the pinned state, for a case that must not change it. */
const copyOfPinned = (): string => {
  const dir = tempDir();
  cpSync(join(pinned, 'monitor.json'), join(dir, 'monitor.json'));
  return dir;
};

before(async () => {
  const first = await monitorOnce([ORIGIN], pinned);
  assert.deepEqual([first.status, kinds(first.lines)], [0, ['ok']], JSON.stringify(first.lines));
  assert.equal(state(pinned).pinned.methods[BOARD], K.board.x);
  assert.equal(state(pinned).pinned.methods[ROOT], K.root.x);
});

describe('gspc monitor refuses the forged key histories, and never learns their keys', () => {
  for (const { what, transitions, board, why } of origin.forged) {
    it(`served by the DID's host itself: ${what}`, async () => {
      origin.present(origin.keyDocs(board, transitions));
      const dir = copyOfPinned();
      const before = memory(dir);
      const r = await monitorOnce([ORIGIN], dir);
      assert.equal(r.status, 1, JSON.stringify(r.lines));
      const host = r.lines.find((l) => l.alert === 'did_host_invalid');
      assert.equal(host?.view, `${ORIGIN}/.well-known/did.json`, JSON.stringify(r.lines));
      assert.match(host.detail, /^its key transitions do not hold: /);
      assert.match(host.detail, why);
      const view = r.lines.find((l) => l.view === ORIGIN);
      assert.equal(view?.alert, 'checkpoint_invalid', JSON.stringify(r.lines));
      assert.match(view.detail, why);
      assert.deepEqual(memory(dir), before, 'nothing is learnt: not the keys, not the checkpoint');
      for (const t of transitions) assert.ok(!stateText(dir).includes(t.new_x), 'the forged key is not in the state');
    });
  }

  it('presented by mirrors beside the honest DID host: an alert for each mirror, none for the origin; the pins stay the origin’s', async () => {
    origin.present();
    const mirrors = await Promise.all(
      origin.forged.map((f) =>
        proxy(
          () => origin.base.url,
          () => origin.keyDocs(f.board, f.transitions),
        ),
      ),
    );
    const dir = copyOfPinned();
    const pins = state(dir).pinned;
    const r = await monitorOnce([ORIGIN, ...mirrors.map((m) => m.url)], dir);
    assert.equal(r.status, 1);
    assert.deepEqual(alertsFor(r.lines, ORIGIN), [], JSON.stringify(r.lines));
    for (const [i, { why }] of origin.forged.entries()) {
      const alerts = r.lines.filter((l) => l.view === mirrors[i]!.url);
      assert.deepEqual(
        alerts.map((l) => l.alert),
        ['checkpoint_invalid'],
        JSON.stringify(r.lines),
      );
      assert.match(alerts[0].detail, /^the key transitions do not hold: /);
      assert.match(alerts[0].detail, why);
    }
    assert.deepEqual(state(dir).pinned, pins);
    for (const f of origin.forged) assert.ok(!stateText(dir).includes(f.board.x));
    // The same monitor, the mirrors gone: the origin is judged ok under the pins it kept.
    const again = await monitorOnce([ORIGIN], dir);
    assert.deepEqual([again.status, kinds(again.lines)], [0, ['ok']], JSON.stringify(again.lines));
  });
});

describe('gspc monitor accepts the origin’s honest key changes, each published with the next release, and pins them', () => {
  const rootRotation = origin.rotation(ROOT_KEY, 1, K.root, root1);

  it('a rotation of the identity root, signed by the old and the new root', async () => {
    const release = origin.publish(K.board, [rootRotation], root1);
    await origin.serve(K.board, root1, [rootRotation], release);
    const r = await monitorOnce([ORIGIN], pinned);
    assert.deepEqual([r.status, kinds(r.lines)], [0, ['ok']], JSON.stringify(r.lines));
    const pins = state(pinned).pinned;
    assert.equal(pins.methods[ROOT], root1.x, 'the new root is pinned');
    assert.equal(pins.methods[`${ROOT}~1`], K.root.x, 'the old one as the retired root');
    assert.equal(pins.methods[BOARD], K.board.x);
    assert.equal(pins.transitions.length, 1);
    assert.equal(state(pinned).last.size, release.evidence.log.entries.length);
  });

  it('then a revocation of the board key, signed by the root that rotation made current and the new key', async () => {
    const size = state(pinned).last.size;
    const revocation = origin.revocation(size, board1, root1);
    const release = origin.publish(board1, [rootRotation, revocation], root1);
    await origin.serve(board1, root1, [rootRotation, revocation], release);
    const r = await monitorOnce([ORIGIN], pinned);
    assert.deepEqual([r.status, kinds(r.lines)], [0, ['ok']], JSON.stringify(r.lines));
    const pins = state(pinned).pinned;
    assert.equal(pins.methods[BOARD], board1.x, 'the new board key is pinned');
    assert.equal(pins.methods[`${BOARD}~1`], K.board.x, 'the revoked one as the retired key');
    assert.equal(pins.methods[ROOT], root1.x);
    assert.equal(pins.transitions.length, 2);
    assert.equal(state(pinned).last.size, release.evidence.log.entries.length);
  });
});
