/**
 * The thief of a revoked key (issue 36, review findings 1-3), around one origin
 * (test/helpers/host-views.ts). The board key K.board is revoked, trusting the first release's
 * log, and the revocation is published with the next release. The thief, who kept K.board,
 * publishes another log under the origin's URL, signed by K.board, and serves it elsewhere:
 * - the origin up: gspc verify, the thief's POST /api/verify (as a replica) and its page in the
 *   browser are INVALID, never VALID ("the view lags"); a lagging replica that still signs live
 *   answers with the revoked key is refused too (docs/operations.md, "The day a key leaks");
 * - the origin down, with a DID document the reader saved after the revocation: INVALID;
 * - the origin down, with bare --trust-key keys: a copy that names the stolen card key its
 *   identity root and "revokes" the board key with it is INVALID; the root is anchored only by
 *   name (identity-root=<key>), and the origin's own revocation is then VALID.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BOARD_KEY, ROOT_KEY } from '../../src/core/evidence/signer.js';
import { thumbprintInput } from '../../src/core/verify/key-anchor.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { browserMissing, verifyServedInBrowser } from '../helpers/browser.js';
import { gspc } from '../helpers/cli.js';
import { monitorOnce } from '../monitor/board.js';
import { editedDemo } from '../helpers/edited-demo.js';
import { hostOrigin, keyOf, liveOf, proxy, serveState, type Key } from '../helpers/host-views.js';
import { tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- reports and answers as JSON */
type Json = any;

const origin = await hostOrigin();
const { url: ORIGIN, did: DID, K, board1, front, release: release1 } = origin;
const trusted = release1.evidence.log.entries.length;
const rev = origin.revocation(trusted, board1);
const release2 = origin.publish(board1, [rev]);
await origin.serve(board1, K.root, [rev], release2);

// The thief's log: another corpus published under the origin's URL, signed by the revoked key.
const thiefRelease = loadRelease(
  publishRelease(editedDemo(), tempDir(), origin.signedBy(K.board), { publicUrl: ORIGIN }).dir,
);
const thief = await serveState(thiefRelease, liveOf(DID, K), ORIGIN, true);
// A replica that has not pulled the release published with the revocation.
const lagging = await serveState(release1, liveOf(DID, K), ORIGIN, true);
const saved = join(tempDir(), 'did-post.json');
const pinnedState = tempDir();

async function verify(url: string, ...args: string[]) {
  const r = await gspc(['verify', url, '--json', ...args]);
  const report = JSON.parse(r.stdout) as Json;
  const check = (name: string) => report.checks.find((c: Json) => c.check === name) as Json;
  const failed = report.checks.filter((c: Json) => !c.ok);
  return { status: r.status, report, check, failed };
}
const post = async (url: string, path: string, body: unknown) =>
  (await (
    await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as Json;
const thumb = (k: Key) => createHash('sha256').update(thumbprintInput(k.x)).digest('base64url');

describe('the thief of a revoked board key, the origin up', () => {
  it('the origin, which published the revocation, is VALID', async () => {
    const v = await verify(ORIGIN);
    assert.equal(v.status, 0, JSON.stringify(v.failed));
    writeFileSync(saved, await (await fetch(`${ORIGIN}/.well-known/did.json`)).text());
  });

  it(`gspc verify of the thief's log (${thiefRelease.evidence.log.entries.length} entries, the revocation trusts ${trusted}) is INVALID`, async () => {
    const v = await verify(thief.url);
    assert.equal(v.report.verdict, 'INVALID', JSON.stringify(v.report.checks));
    assert.equal(v.status, 1);
    assert.match(v.check('key_anchor').detail, /revoked as compromised since/);
    assert.equal(v.check('log_matches_host')?.ok, false, 'the thief forks the host log');
  });

  it('its POST /api/verify, as a replica, is INVALID', async () => {
    const card = [...thiefRelease.evidence.cards.keys()][0]!;
    const answer = await post(thief.url, '/api/verify', { ids: [card] });
    assert.equal(answer.key_anchor.result, 'INVALID', JSON.stringify(answer.key_anchor));
    assert.notEqual(answer.results[0].result, 'VALID');
  });

  it('its page in the browser is INVALID', { skip: browserMissing() }, async () => {
    assert.equal((await verifyServedInBrowser(thief.url)).result, 'INVALID');
  });

  it('the thief serving the host’s DID document and transitions over its own log: the log is not the trusted one', async () => {
    const dressed = await proxy(
      () => thief.url,
      () => origin.keyDocs(board1, [rev]),
    );
    const v = await verify(dressed.url);
    assert.equal(v.report.verdict, 'INVALID');
    assert.match(
      v.check('key_anchor').detail,
      /signed by #board-attestation-1 .*revoked .*not the DID's host's: a fork of the log/,
    );
    if (!browserMissing()) assert.equal((await verifyServedInBrowser(dressed.url)).result, 'INVALID');
  });

  it('a monitor pins the origin after the revocation', async () => {
    const m = await monitorOnce([ORIGIN], pinnedState);
    assert.equal(m.status, 0, JSON.stringify(m.lines));
  });

  it('a fresh monitor watching only the thief alerts, naming the revoked key', async () => {
    const m = await monitorOnce([thief.url], tempDir());
    assert.equal(m.status, 1, JSON.stringify(m.lines));
    const alert = m.lines.find((l: Json) => l.alert === 'release_invalid');
    assert.ok(alert, JSON.stringify(m.lines));
    assert.match(alert.detail, /revoked as compromised since/);
  });

  it('a replica still signing live answers with the revoked key is refused, whatever its size (operations.md step 5)', async () => {
    const v = await verify(lagging.url);
    assert.equal(v.report.verdict, 'INVALID');
    assert.match(v.check('key_anchor').detail, new RegExp(`serves #${BOARD_KEY} ${K.board.x} as a key in force`));
    assert.equal(v.check('log_matches_host').ok, true, 'its log is a prefix of the host log');
    const answer = await post(lagging.url, '/api/verify', { ids: [[...release1.evidence.cards.keys()][0]] });
    assert.equal(answer.key_anchor.result, 'INVALID');
  });
});

describe('the origin down', () => {
  before(() => front.down());
  after(() => front.up());

  it('with the DID document saved after the revocation, the thief is INVALID', async () => {
    const v = await verify(thief.url, '--trust-did-document', saved);
    assert.equal(v.report.verdict, 'INVALID', JSON.stringify(v.report.checks));
    assert.match(v.check('key_anchor').detail, /revoked as compromised since/);
  });

  it('the monitor that pinned the origin, watching only the thief: an alert, rollback (the limit the alert table states)', async () => {
    // The monitor keeps the verified log's size and root, not its entries, and its pins do not
    // record revocations: with the origin down and no other view, a smaller fork reads as a
    // rollback, which says it cannot tell (docs/operations.md, the alert table).
    const m = await monitorOnce([thief.url], pinnedState);
    assert.equal(m.status, 1, JSON.stringify(m.lines));
    assert.deepEqual(
      m.lines.map((l: Json) => l.alert),
      ['rollback'],
    );
    assert.match(m.lines[0].detail, /cannot be told/);
  });

  it('bare --trust-key never anchors the identity root: a copy naming the stolen card key its root cannot revoke the board key', async () => {
    // The thief holds the card key K.cards[0] and the board key: it names the card key its
    // identity root and "revokes" the board key with it, to a key of its own.
    const fakeRoot = keyOf(DID, ROOT_KEY, 2);
    const own = keyOf(DID, BOARD_KEY, 77);
    const forged = origin.revocation(0, own, fakeRoot);
    const data = tempDir();
    const r = loadRelease(
      publishRelease(editedDemo(), data, origin.signedBy(own, [forged], fakeRoot), { publicUrl: ORIGIN }).dir,
    );
    const copy = await serveState(
      r,
      liveOf(DID, { board: own, cards: K.cards, root: fakeRoot }, [forged]),
      ORIGIN,
      true,
    );
    const bare = [K.board, ...K.cards, K.root].flatMap((k) => ['--trust-key', thumb(k)]);
    const v = await verify(copy.url, ...bare);
    assert.equal(v.report.verdict, 'INVALID', JSON.stringify(v.report.checks));
    assert.match(v.check('key_anchor').detail, /the anchor trusts no identity root/);
    // Named, the root anchors the origin's own revocation.
    const named = [
      ...[board1, ...K.cards].flatMap((k) => ['--trust-key', thumb(k)]),
      '--trust-key',
      `identity-root=${thumb(K.root)}`,
    ];
    const mirror = await serveState(release2, liveOf(DID, { ...K, board: board1 }, [rev]), ORIGIN, true);
    const ok = await verify(mirror.url, ...named);
    assert.equal(ok.report.verdict, 'VALID', JSON.stringify(ok.failed));
  });
});

describe('a release its revocation took back', () => {
  it('gspc verify counts none of its cards VALID beside an INVALID signed_unrevoked', async () => {
    // The origin's first release (signed by K.board) served with a revocation of K.board trusting none of it.
    origin.present(origin.keyDocs(board1, [origin.revocation(0, board1)]));
    const v = await verify(ORIGIN);
    assert.equal(v.check('signed_unrevoked').ok, false);
    assert.equal(v.report.cards.valid, 0);
    assert.equal(v.check('cards').ok, false);
    assert.match(v.check('cards').detail, /^0 of \d+ cards VALID/);
  });
});
