/**
 * The monitor's keys come from outside the views (issue 36). An impostor that published the
 * same corpus under the origin's DID with keys of its own serves a log identical to the
 * origin's, entry for entry: only its keys differ, and its own DID document vouches for them.
 * A mirror that holds only the public files "revoked" the origin's keys with a key of its own.
 * Before, the monitor learnt such keys into its state. Now each poll also reads the DID document
 * at the DID's own host: a view whose keys are not the host's is `key_mismatch`; keys unlike the
 * pinned ones are `key_changed_without_transition`; when the host cannot be read and nothing is
 * pinned, `did_host_unreachable`; and no poll with an alert pins anything.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { canonicalJsonStrict } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { formatCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { formatNote, keyId, noteSignature, SIG_TYPE_ED25519 } from '../../src/core/evidence/note/signed-note.js';
import { freePort } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';
import { alertsFor, copyOf, type Json, kinds, monitorOnce, publishBoard, serveBoard } from './board.js';

const board = await publishBoard();
/** Fresh keys, the same corpus, published for the origin's URL and served elsewhere. */
const impostor = await publishBoard({ port: board.port, serveAt: 'elsewhere' });
/** The board key a view's DID document lists. */
const boardKeyAt = async (view: string): Promise<string> =>
  ((await (await fetch(`${view}/.well-known/did.json`)).json()) as Json).verificationMethod.find((m: Json) =>
    m.id.endsWith('#board-attestation-1'),
  ).publicKeyJwk.x;
const originBoardKey = await boardKeyAt(board.origin);
const impostorBoardKey = await boardKeyAt(impostor.served);
/**
 * The key alerts among `found`. Where `gspc verify` itself anchors keys at the DID's host, the
 * full verification of an impostor fails as well (`release_invalid`): the same verdict, said twice.
 */
const keyAlerts = (found: string[]): string[] => found.filter((a) => a !== 'release_invalid');
const state = (dir: string): Json => JSON.parse(readFileSync(join(dir, 'monitor.json'), 'utf8'));
const stateText = (dir: string): string => readFileSync(join(dir, 'monitor.json'), 'utf8');

/**
 * A copy of the origin whose board key was "revoked" by a key of its own, as a holder of the
 * public files alone could write it: the revocation signed by the new key only, logged, and a
 * checkpoint over the longer log signed by the new key.
 */
async function revokingMirror(): Promise<{ url: string; key: string }> {
  const thief = keyPairFromSeed(Buffer.alloc(32, 66));
  const x = thief.publicKey.toString('base64url');
  const did: Json = await (await fetch(`${board.origin}/.well-known/did.json`)).json();
  const entriesDoc: Json = await (await fetch(`${board.origin}/log/entries.json`)).json();
  const body = {
    schema: 'svc.key-transition/1',
    did: did.id,
    fragment: 'board-attestation-1',
    sequence: 1,
    kind: 'revocation',
    old_x: originBoardKey,
    new_x: x,
    at: '2026-11-28T00:00:00Z',
    revoked_x: originBoardKey,
    compromised_since: '2026-11-27T00:00:00Z',
    trusted_size: 0,
  };
  const revocation = {
    ...body,
    sig_new: sign(thief.privateKey, Buffer.from(canonicalJsonStrict(body))).toString('hex'),
  };
  const id = createHash('sha256').update(canonicalJsonStrict(revocation)).digest('hex');
  const entries = [...entriesDoc.entries, id];
  const logName = `localhost:${board.port}/log`;
  const text = formatCheckpoint({
    origin: logName,
    size: entries.length,
    rootHash: new MerkleTree(logLeaves(entries)).root(),
    extensions: [],
  });
  const note = formatNote(text, [
    noteSignature(
      logName,
      keyId(logName, SIG_TYPE_ED25519, thief.publicKey),
      sign(thief.privateKey, Buffer.from(text)),
    ),
  ]);
  const boardMethod = did.verificationMethod.find((m: Json) => m.id.endsWith('#board-attestation-1'));
  const forged = {
    ...did,
    verificationMethod: [
      ...did.verificationMethod.map((m: Json) =>
        m === boardMethod ? { ...m, publicKeyJwk: { ...m.publicKeyJwk, x } } : m,
      ),
      {
        ...boardMethod,
        id: `${boardMethod.id}~1`,
        retired: { fragment: 'board-attestation-1', sequence: 1, at: body.at, transition: id },
      },
    ],
  };
  const url = await copyOf(board.origin, async (path) => {
    if (path === '/.well-known/did.json') return Buffer.from(JSON.stringify(forged));
    if (path === '/keys/transitions.json') return Buffer.from(JSON.stringify({ transitions: [revocation] }));
    if (path === '/log/entries.json')
      return Buffer.from(JSON.stringify({ ...entriesDoc, entries, tree_size: entries.length }));
    if (path === '/log/checkpoint') return Buffer.from(note);
    return undefined;
  });
  return { url, key: x };
}

describe('gspc monitor: keys anchored at the DID host and pinned, never learnt from a view', () => {
  it('an impostor with keys of its own under the origin’s DID: key_mismatch, and nothing is learnt', async () => {
    const fresh = tempDir();
    const r = await monitorOnce([board.origin, impostor.served], fresh);
    assert.equal(r.status, 1);
    assert.deepEqual(keyAlerts(alertsFor(r.lines, impostor.served)), ['key_mismatch'], JSON.stringify(r.lines));
    assert.match(
      r.lines.find((l) => l.view === impostor.served && l.alert === 'key_mismatch').detail,
      new RegExp(
        `^its keys are not the DID's host's \\(${board.origin}/\\.well-known/did\\.json\\): #board-attestation-1: the view serves ${impostorBoardKey}, the DID's host ${originBoardKey}`,
      ),
    );
    assert.deepEqual(alertsFor(r.lines, board.origin), []);
    assert.equal(state(fresh).pinned, undefined);
    assert.equal(state(fresh).last, undefined);
    assert.ok(!stateText(fresh).includes(impostorBoardKey));
    // Watched alone, it still names the origin's DID, so its keys are still compared with the host's.
    const alone = await monitorOnce([impostor.served], tempDir());
    assert.deepEqual(keyAlerts(kinds(alone.lines)), ['key_mismatch']);
  });

  it('pinned from the origin: the impostor alone is key_mismatch and key_changed_without_transition; the pins stay the origin’s', async () => {
    const dir = tempDir();
    assert.deepEqual(kinds((await monitorOnce([board.origin], dir)).lines), ['ok']);
    const pinned = state(dir).pinned;
    assert.equal(pinned.methods[`did:web:localhost%3A${board.port}#board-attestation-1`], originBoardKey);
    assert.equal(state(dir).did, `did:web:localhost%3A${board.port}`);
    const r = await monitorOnce([impostor.served], dir);
    assert.deepEqual(keyAlerts(kinds(r.lines)).sort(), ['key_changed_without_transition', 'key_mismatch']);
    assert.deepEqual(state(dir).pinned, pinned);
    assert.ok(!stateText(dir).includes(impostorBoardKey));
  });

  it('a mirror that revoked the origin’s board key with a key of its own: an alert, and its key is never learnt', async () => {
    const mirror = await revokingMirror();
    const dir = tempDir();
    const r = await monitorOnce([board.origin, mirror.url], dir);
    assert.equal(r.status, 1);
    const found = alertsFor(r.lines, mirror.url);
    assert.ok(
      found.length > 0 && found.every((a) => ['checkpoint_invalid', 'key_mismatch', 'split_view'].includes(a)),
      JSON.stringify(r.lines),
    );
    assert.deepEqual(alertsFor(r.lines, board.origin), []);
    assert.ok(!stateText(dir).includes(mirror.key));
    const alone = await monitorOnce([mirror.url], dir);
    assert.equal(alone.status, 1);
    assert.ok(!stateText(dir).includes(mirror.key));
  });

  it('the DID host down: did_host_unreachable with nothing pinned; with pins, the views are judged from them', async () => {
    const other = await publishBoard();
    const replica = await serveBoard(other, await freePort());
    const pinnedDir = tempDir();
    assert.deepEqual(kinds((await monitorOnce([other.origin, replica.served], pinnedDir)).lines), ['ok']);
    await other.stop();
    const judged = await monitorOnce([replica.served], pinnedDir);
    assert.deepEqual([judged.status, kinds(judged.lines)], [0, ['ok']], JSON.stringify(judged.lines));
    const fresh = tempDir();
    const blind = await monitorOnce([replica.served], fresh);
    assert.deepEqual([blind.status, kinds(blind.lines)], [1, ['did_host_unreachable']]);
    assert.match(blind.lines[0].view, new RegExp(`^${other.origin}/\\.well-known/did\\.json$`));
    assert.equal(state(fresh).pinned, undefined);
    // Two views that disagree, with no host to ask: each against the other, and against the pins.
    const rival = await publishBoard({ port: other.port, serveAt: 'elsewhere' });
    const pair = await monitorOnce([replica.served, rival.served], fresh);
    const split = pair.lines.find((l) => l.view === `${replica.served} | ${rival.served}`);
    assert.equal(split?.alert, 'key_mismatch', JSON.stringify(pair.lines));
    assert.match(
      split.detail,
      /neither is an earlier state of the other: #board-attestation-1 is \S+ in one, \S+ in the other$/,
    );
    const pinnedPair = await monitorOnce([replica.served, rival.served], pinnedDir);
    assert.deepEqual(kinds(pinnedPair.lines), ['key_mismatch', 'key_changed_without_transition']);
    assert.equal(pinnedPair.lines[1].view, rival.served, 'only the rival is unlike the pinned keys');
  });

  it('a state of another board: monitor_state_foreign, one line, nothing judged or written', async () => {
    const dir = tempDir();
    assert.deepEqual(kinds((await monitorOnce([board.origin], dir)).lines), ['ok']);
    const before = stateText(dir);
    const other = await publishBoard();
    const r = await monitorOnce([other.origin], dir);
    assert.deepEqual([r.status, r.lines], [2, []]);
    assert.match(
      r.stderr,
      new RegExp(
        `^gspc: ${dir}/monitor\\.json belongs to another board: it remembers did:web:localhost%3A${board.port} \\(log localhost:${board.port}/log\\), and these views name did:web:localhost%3A${other.port}\\. Give this board its own --state directory\\n$`,
      ),
    );
    assert.equal(stateText(dir), before);
  });
});
