/**
 * WITNESSED: the log checkpoint submitted to a tlog-witness (C2SP add-checkpoint over real
 * HTTP), its cosignature recorded, served on /log/checkpoint and in the witness record, and
 * checked by gspc verify. The witness here is this repository's own implementation of the
 * witness side (decideAddCheckpoint, which passes the C2SP add-checkpoint vectors, and
 * signCosignature): no Go witness runs on this machine.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { signCosignature } from '../../src/core/evidence/note/cosignature.js';
import {
  ed25519NoteVerifier,
  formatSignatureLine,
  SIG_TYPE_COSIGNATURE_V1,
} from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { decideAddCheckpoint } from '../../src/core/evidence/note/witness.js';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { runWitness } from '../../src/cli/witness.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { readWitnesses } from '../../src/release/witness-store.js';
import { urlSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { trusting } from '../helpers/anchor.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import type { GspcError } from '../../src/core/errors.js';

const signing = testSigning();
const boardKey = signing.inputs.boardKey;
assert.ok(boardKey.healthy);
const origin = logOrigin(signing.did);
const boardPublicKey = boardKey.signer.publicKey;
const NOW = 1_800_000_000;

/** A tlog-witness: POST /add-checkpoint, state per origin, cosignature/v1 answers. */
function startWitness(
  name: string,
  seed: number,
  latest: { size: number; rootHash: Uint8Array } | null = null,
): Promise<{ url: string; vkey: string; requests: string[]; server: Server }> {
  const pair = keyPairFromSeed(Buffer.alloc(32, seed));
  const vkey = formatVerifierKey(name, pair.publicKey, SIG_TYPE_COSIGNATURE_V1);
  const requests: string[] = [];
  let state = latest;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      requests.push(body);
      if (req.method !== 'POST' || req.url !== '/add-checkpoint') {
        res.writeHead(404).end();
        return;
      }
      const d = decideAddCheckpoint(body, (o) =>
        o === origin ? { verifiers: [ed25519NoteVerifier(origin, boardPublicKey)], latest: state } : undefined,
      );
      if (d.status === 200) {
        state = { size: d.checkpoint.size, rootHash: d.checkpoint.rootHash };
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(formatSignatureLine(signCosignature(d.text, { name, privateKey: Buffer.alloc(32, seed) }, NOW)));
      } else if (d.status === 409) res.writeHead(409, { 'content-type': 'text/x.tlog.size' }).end(`${d.latestSize}\n`);
      else res.writeHead(d.status).end(d.reason);
    });
  });
  after(() => server.close());
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, vkey, requests, server }),
    ),
  );
}

describe('transparency-log witness', () => {
  const dataDir = tempDir();
  const corpus = demoCopy();
  publishRelease(corpus, dataDir, signing.inputs);
  const board = join(corpus, 'board.json');
  writeFileSync(board, readFileSync(board, 'utf8').replace(/"as_of": "[^"]+"/, '"as_of": "2026-11-05T00:00:00Z"'));
  const second = publishRelease(corpus, dataDir, signing.inputs);

  it('submits the checkpoint, records the cosignature as WITNESSED, serves it, and gspc verify checks it', async () => {
    const w = await startWitness('witness.example/w1', 3);
    const message = await runWitness(dataDir, {
      kind: 'transparency-log',
      submit: w.url,
      witnessKeys: [w.vkey],
      now: NOW,
    });
    assert.match(message, /WITNESSED/);
    assert.match(w.requests[0]!, /^old 0\n\n/);
    const release = loadRelease(second.dir);
    const state = new ServedState(release, liveSigning(signing), (sha) => readWitnesses(dataDir, sha));
    const app = buildApp({ state, logLevel: 'silent' });
    after(() => app.close());
    const record = (await app.inject({ method: 'GET', url: '/interop/root-witness-latest.json' })).json();
    const tlog = record.witnesses.find((x: { witness: string }) => x.witness === 'transparency-log');
    assert.equal(tlog.state, 'WITNESSED');
    assert.equal(tlog.cosigners[0].name, 'witness.example/w1');
    assert.equal(tlog.cosigners[0].timestamp, NOW);
    const cp = (await app.inject({ method: 'GET', url: '/log/checkpoint' })).body;
    assert.match(cp, /\n— witness\.example\/w1 [A-Za-z0-9+/=]+\n$/);
    assert.ok(cp.startsWith(readFileSync(join(second.dir, 'evidence', 'log-checkpoint'), 'utf8')));
    await app.listen({ port: 0, host: '127.0.0.1' });
    // The test keys' DID host (localhost:8080) does not serve them: the reader anchors them (issue 36).
    const r = await verifyRelease(urlSource(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`), {
      anchor: trusting(state.current().didDocument),
    });
    assert.deepEqual(
      r.checks.filter((c) => !c.ok),
      [],
    );
    assert.ok(r.checks.some((c) => c.check === 'log_cosignatures' && c.ok));
  });

  it('a witness that cosigned an earlier size answers 409; the retry carries a consistency proof it accepts', async () => {
    const first = JSON.parse(
      readFileSync(
        join(dataDir, 'releases', readdir(dataDir).find((d) => d !== second.id)!, 'evidence', 'log-entries.json'),
        'utf8',
      ),
    );
    const w = await startWitness('witness.example/w2', 4, {
      size: first.tree_size,
      rootHash: Buffer.from(first.root_hash, 'hex'),
    });
    await runWitness(dataDir, { kind: 'transparency-log', submit: w.url, witnessKeys: [w.vkey], now: NOW });
    assert.equal(w.requests.length, 2);
    assert.match(w.requests[1]!, new RegExp(`^old ${first.tree_size}\\n[A-Za-z0-9+/=]+\\n`));
    // Both witnesses are now recorded for this checkpoint (merged, each re-verified).
    const names = readWitnesses(dataDir, loadRelease(second.dir).evidence.rootSha256)
      .find((x) => x.kind === 'transparency-log')!
      .log!.cosigners.map((c) => c.name);
    assert.deepEqual(names.sort(), ['witness.example/w1', 'witness.example/w2']);
  });

  it('refuses a cosignature that does not verify, a key of the wrong type, a witness ahead of the log, and a future timestamp', async () => {
    const w = await startWitness('witness.example/w3', 5);
    const wrongKey = formatVerifierKey(
      'witness.example/w3',
      keyPairFromSeed(Buffer.alloc(32, 6)).publicKey,
      SIG_TYPE_COSIGNATURE_V1,
    );
    await assert.rejects(
      runWitness(dataDir, { kind: 'transparency-log', submit: w.url, witnessKeys: [wrongKey], now: NOW }),
      (e: GspcError) => e.code === 'witness_invalid' && /no cosignature by|does not verify/.test(e.message),
    );
    const noteKey = formatVerifierKey('witness.example/w3', keyPairFromSeed(Buffer.alloc(32, 5)).publicKey);
    await assert.rejects(
      runWitness(dataDir, { kind: 'transparency-log', submit: w.url, witnessKeys: [noteKey], now: NOW }),
      /not a cosignature\/v1 key/,
    );
    const ahead = await startWitness('witness.example/w4', 7, { size: 10_000, rootHash: Buffer.alloc(32) });
    await assert.rejects(
      runWitness(dataDir, { kind: 'transparency-log', submit: ahead.url, witnessKeys: [ahead.vkey], now: NOW }),
      /may have forked/,
    );
    const late = await startWitness('witness.example/w5', 8);
    await assert.rejects(
      runWitness(dataDir, { kind: 'transparency-log', submit: late.url, witnessKeys: [late.vkey], now: NOW - 3600 }),
      /does not verify|is after/,
    );
  });
});

const readdir = (dataDir: string) => readdirSync(join(dataDir, 'releases')).filter((d) => !d.startsWith('.'));
