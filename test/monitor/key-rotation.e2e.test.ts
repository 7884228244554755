/**
 * Pinning must not turn an honest key change into an alarm (issue 36). The origin rotates its
 * board key (`gspc keys rotate board`, both keys sign the transition) and publishes: a monitor
 * that pinned the old key accepts the new one, reached by the logged transition, and pins it;
 * a static mirror exported before the rotation still serves the old key, an earlier state of the
 * same key history, so it is only behind (`rollback`), never a key alert.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';
import { alertsFor, type Json, kinds, monitorOnce, publishBoard, serveBoard, viewServer } from './board.js';

const board = await publishBoard();
const out = join(tempDir(), 'mirror');
const exported = await gspc(['export', 'static', board.data, '--out', out, '--key-dir', board.keyDir]);
assert.equal(exported.status, 0, exported.stderr);
/** The release before the rotation, as plain files. */
const mirror = await viewServer((req, res) => {
  const path = new URL(req.url!, 'http://x').pathname;
  const file = join(out, 'site', path);
  if (path.includes('..') || !existsSync(file) || statSync(file).isDirectory()) res.writeHead(404).end();
  else res.writeHead(200).end(readFileSync(file));
});
const state = (dir: string): Json => JSON.parse(readFileSync(join(dir, 'monitor.json'), 'utf8'));

describe('gspc monitor: an honest key rotation', () => {
  it('a monitor that pinned the old board key accepts the rotated one and pins it; a mirror from before is only behind', async () => {
    const dir = tempDir();
    assert.deepEqual(kinds((await monitorOnce([board.origin, mirror], dir)).lines), ['ok']);
    const boardId = `did:web:localhost%3A${board.port}#board-attestation-1`;
    const oldKey = state(dir).pinned.methods[boardId];

    const rotated = await gspc(['keys', 'rotate', 'board', '--data-dir', board.data]);
    assert.equal(rotated.status, 0, rotated.stderr);
    const later = join(tempDir(), 'corpus');
    cpSync(demoCorpus, later, { recursive: true });
    const meta = JSON.parse(readFileSync(join(later, 'board.json'), 'utf8'));
    writeFileSync(join(later, 'board.json'), JSON.stringify({ ...meta, as_of: '2026-11-21T00:00:00Z' }, null, 2));
    const published = await gspc(['publish', later, '--data-dir', board.data, '--public-url', board.origin]);
    assert.equal(published.status, 0, published.stderr);
    await board.stop();
    const release = /^published (r-[0-9a-f]{20})/.exec(published.stdout)![1]!;
    await serveBoard({ ...board, release }, board.port);

    const after = await monitorOnce([board.origin], dir);
    assert.deepEqual([after.status, kinds(after.lines)], [0, ['ok']], JSON.stringify(after.lines));
    const pinned = state(dir).pinned;
    assert.notEqual(pinned.methods[boardId], oldKey, 'the new key is pinned');
    assert.equal(pinned.methods[`${boardId}~1`], oldKey, 'the old one as the retired key');
    assert.equal(pinned.transitions.length, 1);
    // Read by the tiles (MT1, MT3): the rotation was found among the new entries' bundles, at the
    // leaf after the first release's entries, and the state keeps where it sits.
    const leaves = state(dir).transition_leaves;
    assert.deepEqual(Object.keys(leaves), pinned.transitions);
    assert.ok(leaves[pinned.transitions[0]] >= 1 && leaves[pinned.transitions[0]] < state(dir).last.size);

    const both = await monitorOnce([board.origin, mirror], dir);
    assert.deepEqual(alertsFor(both.lines, mirror), ['rollback'], JSON.stringify(both.lines));
    assert.deepEqual(alertsFor(both.lines, board.origin), []);
  });
});
