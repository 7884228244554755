/**
 * The card log across releases: append-only RFC 6962 entries, a C2SP checkpoint signed by the
 * board key, history with consistency proofs, served endpoints and per-card proofs, and what
 * `gspc verify` reports when any of it is changed.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { extendLog, logLeaves, logOrigin } from '../../src/core/evidence/card-log.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { verifyConsistency, verifyInclusion } from '../../src/core/evidence/merkle/rfc6962-verify.js';
import { ed25519NoteVerifier } from '../../src/core/evidence/note/signed-note.js';
import { openCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { parseVerifierKey, verifierFromKey } from '../../src/core/evidence/note/verifier-key.js';
import { verifyCheckpointNote, verifyLogInclusion } from '../../src/core/verify/log-proof.js';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { switchCurrent } from '../../src/release/data-dir.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { dirSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const signing = testSigning();
const boardKey = signing.inputs.boardKey;
assert.ok(boardKey.healthy);
const origin = logOrigin(signing.did);

const readJson = (dir: string, f: string) => JSON.parse(readFileSync(join(dir, 'evidence', f), 'utf8'));
const readText = (dir: string, f: string) => readFileSync(join(dir, 'evidence', f), 'utf8');

/** A demo corpus whose cards all differ from the demo's (another as-of date). */
function corpusAsOf(asOf: string): string {
  const dir = demoCopy();
  const board = join(dir, 'board.json');
  writeFileSync(board, readFileSync(board, 'utf8').replace(/"as_of": "[^"]+"/, `"as_of": "${asOf}"`));
  return dir;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const randomHashes = (n: number, seed: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      hex(new MerkleTree([Buffer.alloc(32, (seed + i) % 256)]).root()).slice(0, 62) +
      i.toString(16).padStart(2, '0').slice(-2),
  );

describe('card log (core)', () => {
  it('appends only new active cards, in ascending order, and signs a C2SP checkpoint both verifiers accept', async () => {
    const first = extendLog(undefined, ['cc'.repeat(32), 'aa'.repeat(32)], origin, boardKey);
    assert.deepEqual(first.entries, ['aa'.repeat(32), 'cc'.repeat(32)]);
    const second = extendLog(
      { entries: first.entries, checkpoint: first.checkpoint!, history: first.history },
      ['bb'.repeat(32), 'aa'.repeat(32)],
      origin,
      boardKey,
    );
    assert.deepEqual(second.entries, ['aa'.repeat(32), 'cc'.repeat(32), 'bb'.repeat(32)]);
    assert.equal(second.history.length, 1);
    assert.equal(second.history[0]!.checkpoint, first.checkpoint);

    const opened = openCheckpoint(second.checkpoint!, [ed25519NoteVerifier(origin, boardKey.signer.publicKey)], {
      origin,
    });
    assert.ok(opened.ok);
    assert.equal(opened.checkpoint.size, 3);
    assert.equal(hex(opened.checkpoint.rootHash), hex(second.tree.root()));
    const twin = await verifyCheckpointNote(nodeVerifyCrypto, second.checkpoint!, origin, boardKey.signer.publicKey);
    assert.deepEqual(twin, { ok: true, origin, size: 3, rootHex: hex(second.tree.root()) });
    const v = verifyConsistency(
      2,
      3,
      second.history[0]!.consistency_proof.map((p) => Buffer.from(p, 'hex')),
      Buffer.from(second.history[0]!.root_hash, 'hex'),
      second.tree.root(),
    );
    assert.ok(v.ok);
  });

  it('a release that adds nothing keeps the same checkpoint and history (publishing twice is byte-identical)', () => {
    const a = extendLog(undefined, ['aa'.repeat(32)], origin, boardKey);
    const b = extendLog(
      { entries: a.entries, checkpoint: a.checkpoint!, history: a.history },
      ['aa'.repeat(32)],
      origin,
      boardKey,
    );
    assert.equal(b.checkpoint, a.checkpoint);
    assert.deepEqual(b.history, a.history);
  });

  it('an unhealthy key gives no checkpoint and says why', () => {
    const log = extendLog(undefined, ['aa'.repeat(32)], origin, {
      healthy: false,
      kid: `${signing.did}#board-attestation-1`,
      reason: 'key file missing',
    });
    assert.equal(log.checkpoint, undefined);
    assert.equal(log.unsigned_reason, 'key file missing');
  });

  it('the browser-safe checkpoint and inclusion checks agree with the Node ones, and refuse tampering', async () => {
    const log = extendLog(undefined, randomHashes(5, 1), origin, boardKey);
    const cp = log.checkpoint!;
    const flipped = cp.replace(/\n(\d+)\n/, (_m, n) => `\n${Number(n) + 1}\n`);
    assert.equal((await verifyCheckpointNote(nodeVerifyCrypto, flipped, origin, boardKey.signer.publicKey)).ok, false);
    assert.equal(
      (await verifyCheckpointNote(nodeVerifyCrypto, cp, 'other.example/log', boardKey.signer.publicKey)).ok,
      false,
    );
    const other = testSigning().inputs.boardKey;
    assert.ok(other.healthy);
    assert.equal((await verifyCheckpointNote(nodeVerifyCrypto, cp, origin, other.signer.publicKey)).ok, false);

    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 70 }), fc.nat(), fc.nat(), async (n, seed, pick) => {
        const entries = randomHashes(n, seed);
        const tree = new MerkleTree(logLeaves(entries));
        const i = pick % n;
        const proof = tree.inclusionProof(i).map(hex);
        const root = hex(tree.root());
        const node = verifyInclusion(
          tree.leafHash(i),
          i,
          n,
          proof.map((p) => Buffer.from(p, 'hex')),
          tree.root(),
        ).ok;
        assert.equal(await verifyLogInclusion(nodeVerifyCrypto, entries[i]!, i, n, proof, root), node);
        assert.equal(node, true);
        if (n > 1) {
          assert.equal(await verifyLogInclusion(nodeVerifyCrypto, entries[i]!, (i + 1) % n, n, proof, root), false);
          assert.equal(await verifyLogInclusion(nodeVerifyCrypto, entries[(i + 1) % n]!, i, n, proof, root), false);
        }
        assert.equal(
          await verifyLogInclusion(nodeVerifyCrypto, entries[i]!, i, n, [...proof, proof[0] ?? root], root),
          false,
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe('card log across releases', () => {
  const dataDir = tempDir();
  const first = publishRelease(corpusAsOf('2026-11-01T00:00:00Z'), dataDir, signing.inputs);
  const second = publishRelease(corpusAsOf('2026-11-02T00:00:00Z'), dataDir, signing.inputs);
  const e1 = readJson(first.dir, 'log-entries.json');
  const e2 = readJson(second.dir, 'log-entries.json');

  it("grows append-only: the first release's entries are a prefix of the second's", () => {
    assert.ok(e1.entries.length > 30);
    assert.deepEqual(e2.entries.slice(0, e1.entries.length), e1.entries);
    assert.equal(e2.entries.length, e1.entries.length * 2);
    assert.equal(e2.origin, origin);
  });

  it('carries the first checkpoint byte for byte, with a consistency proof that verifies', () => {
    const h = readJson(second.dir, 'log-history.json');
    assert.equal(h.checkpoints.length, 1);
    assert.equal(h.checkpoints[0].checkpoint, readText(first.dir, 'log-checkpoint'));
    const tree = new MerkleTree(logLeaves(e2.entries));
    const v = verifyConsistency(
      e1.entries.length,
      e2.entries.length,
      h.checkpoints[0].consistency_proof.map((p: string) => Buffer.from(p, 'hex')),
      Buffer.from(e1.root_hash, 'hex'),
      tree.root(),
    );
    assert.ok(v.ok);
  });

  it('publishing the same corpus again reuses the release (same log, same checkpoint)', () => {
    const again = publishRelease(corpusAsOf('2026-11-02T00:00:00Z'), dataDir, signing.inputs);
    assert.equal(again.id, second.id);
    assert.equal(again.reused, true);
  });

  it('never forks: after rolling current back to the first release, the next publish extends the largest log', () => {
    switchCurrent(dataDir, first.dir);
    const third = publishRelease(corpusAsOf('2026-11-03T00:00:00Z'), dataDir, signing.inputs);
    const e3 = readJson(third.dir, 'log-entries.json');
    assert.deepEqual(e3.entries.slice(0, e2.entries.length), e2.entries);
    const h3 = readJson(third.dir, 'log-history.json');
    assert.deepEqual(
      h3.checkpoints.map((c: { tree_size: number }) => c.tree_size),
      [e1.entries.length, e2.entries.length],
    );
  });

  it('gspc verify checks the log: a changed entry, a changed history checkpoint or a missing card fail with the right check', async () => {
    const ok = await verifyRelease(dirSource(second.dir));
    assert.deepEqual(
      ok.checks.filter((c) => !c.ok),
      [],
    );
    for (const c of ['log_origin', 'log_checkpoint', 'log_holds_root', 'log_consistency'])
      assert.ok(
        ok.checks.some((x) => x.check === c && x.ok),
        c,
      );

    const failed = async (edit: (dir: string) => void) => {
      const copy = join(tempDir(), 'release');
      cpSync(second.dir, copy, { recursive: true });
      edit(copy);
      return (await verifyRelease(dirSource(copy))).checks.filter((c) => !c.ok).map((c) => c.check);
    };
    const file = (dir: string, f: string) => join(dir, 'evidence', f);
    // One entry swapped for another hash: the recomputed root no longer matches the checkpoint.
    assert.ok(
      (
        await failed((d) =>
          writeFileSync(
            file(d, 'log-entries.json'),
            readFileSync(file(d, 'log-entries.json'), 'utf8').replace(e2.entries[3], 'ab'.repeat(32)),
          ),
        )
      ).includes('log_checkpoint'),
    );
    // An entry of the current root dropped (and the checkpoint no longer matching either).
    const dropped = await failed((d) => {
      const doc = JSON.parse(readFileSync(file(d, 'log-entries.json'), 'utf8'));
      doc.entries = doc.entries.filter((h: string) => h !== e2.entries.at(-1));
      writeFileSync(file(d, 'log-entries.json'), JSON.stringify(doc));
    });
    assert.ok(dropped.includes('log_holds_root') && dropped.includes('log_checkpoint'));
    // History rewritten: an earlier checkpoint's root changed.
    assert.ok(
      (
        await failed((d) => {
          const doc = JSON.parse(readFileSync(file(d, 'log-history.json'), 'utf8'));
          doc.checkpoints[0].root_hash = 'cd'.repeat(32);
          writeFileSync(file(d, 'log-history.json'), JSON.stringify(doc));
        })
      ).includes('log_consistency'),
    );
    // The first release's checkpoint substituted: a valid signature over a stale size and root.
    assert.ok(
      (await failed((d) => writeFileSync(file(d, 'log-checkpoint'), readText(first.dir, 'log-checkpoint')))).includes(
        'log_checkpoint',
      ),
    );
  });
});

describe('card log over HTTP', () => {
  const dataDir = tempDir();
  const first = publishRelease(corpusAsOf('2026-11-01T00:00:00Z'), dataDir, signing.inputs);
  const { dir } = publishRelease(corpusAsOf('2026-11-02T00:00:00Z'), dataDir, signing.inputs);
  const app = buildApp({ state: new ServedState(loadRelease(dir), liveSigning(signing)), logLevel: 'silent' });
  const get = (url: string) => app.inject({ method: 'GET', url });

  it('serves the checkpoint as text, and its vkey opens it', async () => {
    const cp = await get('/log/checkpoint');
    assert.equal(cp.statusCode, 200);
    assert.match(cp.headers['content-type'] as string, /^text\/plain; charset=utf-8/);
    const vkey = (await get('/log/vkey')).body.trim();
    const key = parseVerifierKey(vkey);
    assert.ok(key.ok);
    assert.equal(key.key.name, origin);
    const opened = openCheckpoint(cp.body, [verifierFromKey(key.key)], { origin });
    assert.ok(opened.ok);
    assert.equal(opened.checkpoint.size, (await get('/log/entries.json')).json().tree_size);
  });

  it('answers consistency proofs from any earlier size, and 400s a size it cannot', async () => {
    const entries = (await get('/log/entries.json')).json();
    const old = readJson(first.dir, 'log-entries.json');
    const r = (await get(`/log/consistency?from=${old.tree_size}`)).json();
    assert.equal(r.new_size, entries.tree_size);
    assert.ok(
      verifyConsistency(
        old.tree_size,
        r.new_size,
        r.proof.map((p: string) => Buffer.from(p, 'hex')),
        Buffer.from(old.root_hash, 'hex'),
        Buffer.from(entries.root_hash, 'hex'),
      ).ok,
    );
    for (const q of ['', '?from=-1', `?from=${entries.tree_size + 1}`, '?from=01', '?from=1&x=2']) {
      const bad = await get(`/log/consistency${q}`);
      assert.equal(bad.statusCode, 400, q);
      assert.equal(bad.json().code, 'bad_query');
    }
  });

  it('each card proof carries its log inclusion proof, which verifies under the checkpoint', async () => {
    const bundle = (await get('/cards-bundle.json')).json();
    const cp = openCheckpoint((await get('/log/checkpoint')).body, [
      ed25519NoteVerifier(origin, boardKey.signer.publicKey),
    ]);
    assert.ok(cp.ok);
    for (const card of bundle.cards.slice(0, 10)) {
      const { log } = (await get(`/cards/${card.sha256.slice(0, 16)}.proof.json`)).json();
      assert.equal(log.tree_size, cp.checkpoint.size);
      assert.equal(log.root_hash, hex(cp.checkpoint.rootHash));
      assert.ok(
        await verifyLogInclusion(
          nodeVerifyCrypto,
          card.sha256,
          log.leaf_index,
          log.tree_size,
          log.proof,
          log.root_hash,
        ),
      );
    }
  });

  it('POST /api/verify reports in_log for a current card, and a superseded card as still logged', async () => {
    const bundle = (await get('/cards-bundle.json')).json();
    const out = (
      await app.inject({ method: 'POST', url: '/api/verify', payload: { cards: [bundle.cards[0]] } })
    ).json();
    assert.equal(out.results[0].result, 'VALID');
    assert.ok(out.results[0].checks.some((c: { check: string; ok: boolean }) => c.check === 'in_log' && c.ok));
    const oldCard = JSON.parse(readFileSync(join(first.dir, 'evidence', 'cards-bundle.json'), 'utf8')).cards[0];
    const old = (await app.inject({ method: 'POST', url: '/api/verify', payload: { cards: [oldCard] } })).json();
    assert.equal(old.results[0].result, 'INVALID');
    assert.ok(old.results[0].checks.some((c: { check: string; ok: boolean }) => c.check === 'in_log' && c.ok));
    assert.match(old.results[0].reasons.join(), /not_superseded: superseded by/);
  });
});
