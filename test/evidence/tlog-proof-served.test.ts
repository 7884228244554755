/**
 * The tlog-proof of every card the signed log holds, served at /cards/<id>.tlog-proof (TP1): the
 * spec's text over the checkpoint exactly as /log/checkpoint serves it, with the witness
 * cosignature recorded for it, checked offline under the log keys of the DID document and the
 * witness's key; listed among the release-bound paths the static export writes.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { signCosignature } from '../../src/core/evidence/note/cosignature.js';
import { formatSignatureLine, SIG_TYPE_COSIGNATURE_V1 } from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { formatTlogProof } from '../../src/core/evidence/tlog-proof.js';
import { trustedLogsOfDidDocument, verifyTlogProof } from '../../src/core/verify/tlog-proof.js';
import { buildApp } from '../../src/app.js';
import { runWitness } from '../../src/cli/witness.js';
import { cardDocument } from '../../src/serve/documents/evidence.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { readWitnesses } from '../../src/release/witness-store.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';
import { urlSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import type { AddressInfo } from 'node:net';
import { trusting } from '../helpers/anchor.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const signing = testSigning();
const NOW = 1_800_000_000;
const W = { name: 'witness.example/w1', seed: Buffer.alloc(32, 21) };
const wKey = keyPairFromSeed(W.seed).publicKey;

describe('tlog-proofs as served', () => {
  const dataDir = tempDir();
  const corpus = demoCopy();
  publishRelease(corpus, dataDir, signing.inputs);
  const board = join(corpus, 'board.json');
  writeFileSync(board, readFileSync(board, 'utf8').replace(/"as_of": "[^"]+"/, '"as_of": "2026-11-05T00:00:00Z"'));
  const second = publishRelease(corpus, dataDir, signing.inputs);
  const checkpoint = readFileSync(join(second.dir, 'evidence', 'log-checkpoint'), 'utf8');
  const evidence = join(tempDir(), 'cosignature.txt');
  writeFileSync(
    evidence,
    formatSignatureLine(
      signCosignature(checkpoint.slice(0, checkpoint.indexOf('\n\n') + 1), { name: W.name, privateKey: W.seed }, NOW),
    ),
  );
  const state = new ServedState(loadRelease(second.dir), liveSigning(signing), (sha) => readWitnesses(dataDir, sha));
  const app = buildApp({ state, logLevel: 'silent' });
  after(() => app.close());
  const get = (url: string) => app.inject({ method: 'GET', url });

  it('every card the log holds has one: the spec text over /log/checkpoint with its cosignature, VALID offline', async () => {
    await runWitness(dataDir, {
      kind: 'transparency-log',
      evidence,
      witnessKeys: [formatVerifierKey(W.name, wKey, SIG_TYPE_COSIGNATURE_V1)],
      now: NOW,
    });
    state.refreshWitnesses();
    const served = (await get('/log/checkpoint')).body;
    assert.match(served, /\n— witness\.example\/w1 /, 'the recorded cosignature is served');
    const { entries } = (await get('/log/entries.json')).json() as { entries: string[] };
    const tree = new MerkleTree(logLeaves(entries));
    const did = (await get('/.well-known/did.json')).json();
    const logs = trustedLogsOfDidDocument(did);
    assert.equal(logs.length, 1);
    assert.equal(logs[0]!.origin, logOrigin(signing.did));
    const index = (await get('/cards/index.json')).json() as { cards: { sha256: string }[] };
    assert.ok(index.cards.length > 0);
    for (const { sha256 } of index.cards) {
      const r = await get(`/cards/${sha256.slice(0, 16)}.tlog-proof`);
      assert.equal(r.statusCode, 200, sha256);
      assert.match(r.headers['content-type'] as string, /^text\/plain; charset=utf-8/);
      const i = entries.indexOf(sha256);
      assert.equal(r.body, formatTlogProof(i, tree.inclusionProof(i), served));
      const v = await verifyTlogProof(nodeVerifyCrypto, r.body, sha256, {
        logs,
        witnesses: [{ name: W.name, publicKey: wKey }],
        now: NOW,
      });
      assert.equal(v.result, 'VALID', JSON.stringify(v.checks));
      assert.deepEqual(v.cosigned, [{ witness: W.name, timestamp: NOW }]);
    }
  });

  it('404 not_found for an id the log does not hold; the export lists every proof', async () => {
    const r = await get('/cards/0123456789abcdef.tlog-proof');
    assert.equal(r.statusCode, 404);
    assert.equal(r.json().code, 'not_found');
    assert.equal((await get('/cards/0123456789abcdef.tlog-proof.json')).statusCode, 404);
    const paths = cardDocument.paths(state.current());
    const index = (await get('/cards/index.json')).json() as { cards: { sha256: string }[] };
    for (const { sha256 } of index.cards) assert.ok(paths.includes(`/cards/${sha256.slice(0, 16)}.tlog-proof`));
  });

  it('gspc verify <url> compares every served tlog-proof with the one the log gives; a changed one fails card_proofs (TP9)', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const source = urlSource(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    const anchor = trusting(state.current().didDocument);
    const ok = await verifyRelease(source, { anchor });
    const proofs = ok.checks.find((c) => c.check === 'card_proofs');
    assert.equal(proofs?.ok, true, proofs?.detail);
    const n = ((await get('/cards/index.json')).json() as { cards: unknown[] }).cards.length;
    assert.match(proofs!.detail, new RegExp(`^${n} inclusion proofs and ${n} C2SP tlog-proofs`));
    // A mirror that serves one proof with another index (its path and checkpoint intact).
    const first = ((await get('/cards/index.json')).json() as { cards: { sha256: string }[] }).cards[0]!.sha256;
    const target = `/cards/${first.slice(0, 16)}.tlog-proof`;
    const tampered = {
      ...source,
      get: async (path: string) => {
        const b = await source.get(path);
        return path === target && b
          ? Buffer.from(b.toString('utf8').replace(/\nindex (\d+)\n/, (_, i) => `\nindex ${Number(i) + 1}\n`))
          : b;
      },
    };
    const bad = await verifyRelease(tampered, { anchor });
    const failed = bad.checks.find((c) => c.check === 'card_proofs');
    assert.equal(failed?.ok, false);
    assert.match(failed!.detail, new RegExp(target.replace(/\./g, '\\.')));
  });
});

describe('an unsigned log serves no tlog-proof', () => {
  it('none listed for the export, and 404 not_found: a proof needs a signed checkpoint', async () => {
    const unsigned = {
      ...signing.inputs,
      boardKey: { healthy: false as const, kid: `${signing.did}#board-attestation-1`, reason: 'test key absent' },
    };
    const { dir } = publishRelease(demoCopy(), tempDir(), unsigned);
    const state = new ServedState(loadRelease(dir), liveSigning(signing));
    const app = buildApp({ state, logLevel: 'silent' });
    after(() => app.close());
    const index = (await app.inject({ method: 'GET', url: '/cards/index.json' })).json() as {
      cards: { sha256: string }[];
    };
    assert.ok(index.cards.length > 0);
    const id = index.cards[0]!.sha256.slice(0, 16);
    const r = await app.inject({ method: 'GET', url: `/cards/${id}.tlog-proof` });
    assert.equal(r.statusCode, 404);
    assert.equal(r.json().code, 'not_found');
    const paths = cardDocument.paths(state.current());
    assert.ok(paths.includes(`/cards/${id}.json`));
    assert.equal(paths.filter((p) => p.endsWith('.tlog-proof')).length, 0);
  });
});
