/**
 * The monitor verifies a view in full again whenever a release document it serves changes, not
 * only when its checkpoint does (issue 36). A static copy (`gspc export static`'s site/, served
 * as plain files) at the origin's checkpoint, watched by a monitor that already verified that
 * checkpoint, was said `ok` with `/api/gspc` edited and with a correction file removed, though
 * `gspc verify` failed both. Each of those, and a DID document that lists `#board-attestation-1`
 * twice, is now an alert; an unchanged copy is not verified again (no card file is fetched).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { alertsFor, monitorOnce, publishBoard, viewServer } from './board.js';

const board = await publishBoard();
const out = join(tempDir(), 'mirror');
const exported = await gspc(['export', 'static', board.data, '--out', out, '--key-dir', board.keyDir]);
assert.equal(exported.status, 0, exported.stderr);
const site = join(out, 'site');

/** Paths the static server was asked for, in order. */
const asked: string[] = [];
/** site/ as plain files, as any static host serves it (the query ignored, a directory's index.html). */
const copy = await viewServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
  asked.push(path);
  let file = join(site, path);
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (path.includes('..') || !existsSync(file)) res.writeHead(404).end();
  else res.writeHead(200).end(readFileSync(file));
});
const stateDir = tempDir();

/** `edit` applied to site/<path> for one poll of the origin and the copy, then undone. */
async function pollWith(path: string, edit: (text: string) => string | undefined) {
  const file = join(site, path);
  const before = readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === undefined) renameSync(file, `${file}.away`);
  else writeFileSync(file, after);
  try {
    return await monitorOnce([board.origin, copy], stateDir);
  } finally {
    if (after === undefined) renameSync(`${file}.away`, file);
    else writeFileSync(file, before);
  }
}

describe('gspc monitor: a static copy at a checkpoint it already verified is verified again when a document changes', () => {
  it('the honest copy: ok, and verified once; polled again unchanged, no card file is fetched', async () => {
    const first = await monitorOnce([board.origin, copy], stateDir);
    assert.deepEqual([first.status, first.lines.map((l) => l.status)], [0, ['ok']], JSON.stringify(first.lines));
    assert.ok(
      asked.some((p) => p.startsWith('/cards/')),
      'the first poll verified the copy in full',
    );
    asked.length = 0;
    const again = await monitorOnce([board.origin, copy], stateDir);
    assert.deepEqual([again.status, again.lines.map((l) => l.status)], [0, ['ok']]);
    assert.deepEqual(
      asked.filter((p) => p.startsWith('/cards/')),
      [],
      'nothing changed: not verified again',
    );
    const saved = JSON.parse(readFileSync(join(stateDir, 'monitor.json'), 'utf8'));
    assert.equal(saved.last.size, 36);
    assert.match(saved.documents[copy], /^[0-9a-f]{64}$/);
  });

  it('/api/gspc edited: release_invalid (the board attestation and re-derivation fail)', async () => {
    const r = await pollWith('api/gspc', (text) => {
      const edited = text.replace(/"items":(\d+)/, (_m, n) => `"items":${Number(n) + 1}`);
      assert.notEqual(edited, text, 'the board counts its items');
      return edited;
    });
    assert.equal(r.status, 1);
    assert.deepEqual(alertsFor(r.lines, copy), ['release_invalid'], JSON.stringify(r.lines));
    assert.match(r.lines.find((l) => l.view === copy).detail, /board_attestation|board_rederived/);
    assert.deepEqual(alertsFor(r.lines, board.origin), []);
  });

  it('a correction file removed: release_invalid (the per-item manifest fails)', async () => {
    const r = await pollWith('peritem/corrections/entries/C-2026-0302-01.json', () => undefined);
    assert.deepEqual(alertsFor(r.lines, copy), ['release_invalid'], JSON.stringify(r.lines));
    assert.match(
      r.lines.find((l) => l.view === copy).detail,
      /peritem_manifest: files that do not match: \/peritem\/corrections\/entries\/C-2026-0302-01\.json/,
    );
  });

  it('a DID document listing #board-attestation-1 twice: view_malformed naming the id, and gspc verify fails', async () => {
    const doubled = (text: string) => {
      const did = JSON.parse(text);
      const other = {
        ...did.verificationMethod[0],
        publicKeyJwk: { ...did.verificationMethod[0].publicKeyJwk, x: 'A'.repeat(43) },
      };
      return JSON.stringify({ ...did, verificationMethod: [...did.verificationMethod, other] });
    };
    const r = await pollWith('.well-known/did.json', doubled);
    assert.deepEqual(alertsFor(r.lines, copy), ['view_malformed'], JSON.stringify(r.lines));
    assert.match(
      r.lines.find((l) => l.view === copy).detail,
      /^\/\.well-known\/did\.json lists the verification method did:web:localhost%3A\d+#board-attestation-1 twice$/,
    );
    const file = join(site, '.well-known', 'did.json');
    const honest = readFileSync(file, 'utf8');
    writeFileSync(file, doubled(honest));
    try {
      const v = await gspc(['verify', copy]);
      assert.equal(v.status, 1);
      // Refused whole: no keys from it (did_document), or, read against the DID's host, not its keys (key_anchor).
      assert.match(v.stdout, /^ {2}FAIL (did_document|key_anchor): /m);
    } finally {
      writeFileSync(file, honest);
    }
  });

  it('restored: ok again, without verifying in full (its documents are the ones that verified)', async () => {
    asked.length = 0;
    const r = await monitorOnce([board.origin, copy], stateDir);
    assert.deepEqual([r.status, r.lines.map((l) => l.status)], [0, ['ok']], JSON.stringify(r.lines));
    assert.deepEqual(
      asked.filter((p) => p.startsWith('/cards/')),
      [],
    );
  });
});
