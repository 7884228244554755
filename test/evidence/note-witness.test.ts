/**
 * tlog-witness v1.0.0 add-checkpoint: the spec's example bodies parse, and the witness decision
 * gives the documented status for the derived monkeys 5 → 8 request and its mutations.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MerkleTree, leafHash } from '../../src/core/evidence/merkle/index.js';
import {
  decideAddCheckpoint,
  decodeCosignature,
  formatAddCheckpointRequest,
  formatCheckpoint,
  keyIdHex,
  parseAddCheckpointRequest,
  parseCosignatureResponse,
  parseNote,
  parseVerifierKey,
  signNote,
  verifierFromKey,
  verifierKeyOf,
  type WitnessedLog,
} from '../../src/core/evidence/note/index.js';
import { vectorPath } from '../helpers/repo.js';

const C2SP = vectorPath('c2sp');
const text = (...p: string[]) => readFileSync(join(C2SP, ...p), 'utf8');
const b64 = (s: string) => Buffer.from(s, 'base64');

describe('spec examples (parse only)', () => {
  it('add-checkpoint request: old 20852014, 4 proof hashes, a checkpoint with 2 signatures; formats back byte for byte', () => {
    const body = text('spec-examples', 'tlog-witness-v1.0.0-add-checkpoint-request.txt');
    const parsed = parseAddCheckpointRequest(body);
    assert.ok(parsed.ok);
    assert.equal(parsed.request.oldSize, 20852014);
    assert.equal(parsed.request.proof.length, 4);
    const note = parseNote(parsed.request.checkpoint);
    assert.ok(note.ok);
    assert.deepEqual(
      note.signatures.map((s) => keyIdHex(s.keyId)),
      ['033de0ae', 'a292ea05'],
    );
    assert.equal(formatAddCheckpointRequest(parsed.request), body);
  });

  it('add-checkpoint response: 3 cosignature lines of 76 bytes; lines 1 and 2 carry placeholder timestamps above 2^63 − 1', () => {
    const parsed = parseCosignatureResponse(text('spec-examples', 'tlog-witness-v1.0.0-add-checkpoint-response.txt'));
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.signatures.map((s) => s.name),
      ['witness.example/w1', 'witness.example/w1', 'witness.example/w2'],
    );
    for (const s of parsed.signatures) assert.equal(b64(s.base64).length, 76);
    for (const s of parsed.signatures.slice(0, 2)) {
      const d = decodeCosignature(s);
      assert.equal(d.ok, false);
      assert.match(!d.ok ? d.reason : '', /2\^63/);
    }
  });
});

describe('decideAddCheckpoint on derived/add-checkpoint-request-monkeys-5-to-8.txt', () => {
  const body = text('derived', 'add-checkpoint-request-monkeys-5-to-8.txt');
  const keys = text('transparency-dev', 'monkeys-bananas-witness.vkeys')
    .split('\n')
    .filter(Boolean)
    .map((v) => {
      const k = parseVerifierKey(v);
      assert.ok(k.ok);
      return verifierFromKey(k.key);
    });
  const monkeys = keys.filter((k) => k.name === 'monkeys');
  const root5 = b64('41smjBUiAU70EtKlT6lIOIYtRTYxYXsDB+XHfcvu/BE=');
  const log =
    (latest: WitnessedLog['latest'], verifiers = monkeys): ((origin: string) => WitnessedLog | undefined) =>
    (origin) =>
      origin === 'monkeys' ? { verifiers, latest } : undefined;

  it('200 for a witness that trusts monkeys+db4d9f7e and last cosigned size 5', () => {
    const d = decideAddCheckpoint(body, log({ size: 5, rootHash: root5 }));
    assert.equal(d.status, 200, 'reason' in d ? d.reason : '');
    assert.ok(d.status === 200 && d.checkpoint.size === 8);
  });

  it('409 with the latest size for old 4; 400 for old 9 (above the checkpoint size)', () => {
    const d = decideAddCheckpoint(body.replace('old 5\n', 'old 4\n'), log({ size: 5, rootHash: root5 }));
    assert.equal(d.status, 409);
    assert.ok(d.status === 409 && d.latestSize === 5);
    assert.equal(
      decideAddCheckpoint(body.replace('old 5\n', 'old 9\n'), log({ size: 5, rootHash: root5 })).status,
      400,
    );
  });

  it('422 when a proof bit is flipped, or a stored root differs', () => {
    const req = parseAddCheckpointRequest(body);
    assert.ok(req.ok);
    const flipped = req.request.proof.map((h, i) =>
      i === 2 ? Uint8Array.from(h, (x, j) => (j === 7 ? x ^ 0x10 : x)) : h,
    );
    assert.equal(
      decideAddCheckpoint(
        formatAddCheckpointRequest({ ...req.request, proof: flipped }),
        log({ size: 5, rootHash: root5 }),
      ).status,
      422,
    );
    assert.equal(decideAddCheckpoint(body, log({ size: 5, rootHash: Buffer.alloc(32) })).status, 422);
  });

  it('404 for an unknown origin, 403 without a trusted signature, 400 for a malformed body', () => {
    assert.equal(decideAddCheckpoint(body, () => undefined).status, 404);
    assert.equal(
      decideAddCheckpoint(
        body,
        log(
          { size: 5, rootHash: root5 },
          keys.filter((k) => k.name === 'bananas'),
        ),
      ).status,
      403,
    );
    assert.equal(
      decideAddCheckpoint(body.replace('old 5\n', 'old 05\n'), log({ size: 5, rootHash: root5 })).status,
      400,
    );
    assert.equal(
      decideAddCheckpoint(body.replace('\n\nmonkeys', '\nmonkeys'), log({ size: 5, rootHash: root5 })).status,
      400,
    );
  });

  it('a first submission (old 0) needs an empty proof; the same size needs the same root', () => {
    const req = parseAddCheckpointRequest(body);
    assert.ok(req.ok);
    const fresh = { ...req.request, oldSize: 0 };
    assert.equal(decideAddCheckpoint(formatAddCheckpointRequest(fresh), log(null)).status, 422);
    assert.equal(decideAddCheckpoint(formatAddCheckpointRequest({ ...fresh, proof: [] }), log(null)).status, 200);
    const root8 = b64('V8K9aklZ4EPB+RMOk1/8VsJUdFZR77GDtZUQq84vSbo=');
    const same = formatAddCheckpointRequest({ ...req.request, oldSize: 8, proof: [] });
    assert.equal(decideAddCheckpoint(same, log({ size: 8, rootHash: root8 })).status, 200);
    assert.equal(decideAddCheckpoint(same, log({ size: 8, rootHash: Buffer.alloc(32) })).status, 409);
  });
});

describe('a log built here, witnessed from size 0 upwards', () => {
  it('each growth step is accepted with MerkleTree consistency proofs; a stale old size gets 409', () => {
    const signer = { name: 'example.org/log', privateKey: new Uint8Array(32).fill(7) };
    const key = parseVerifierKey(verifierKeyOf(signer));
    assert.ok(key.ok);
    const logFor = () => ({ verifiers: [verifierFromKey(key.key)], latest });
    const leaves = Array.from({ length: 40 }, (_, i) => leafHash(Buffer.from(`entry ${i}`)));
    const checkpointNote = (n: number) =>
      signNote(
        formatCheckpoint({
          origin: 'example.org/log',
          size: n,
          rootHash: new MerkleTree(leaves.slice(0, n)).root(),
          extensions: [],
        }),
        signer,
      );
    let latest: WitnessedLog['latest'] = null;
    for (const n of [0, 1, 2, 3, 7, 8, 9, 16, 17, 40]) {
      const old: number = latest?.size ?? 0;
      const proof = new MerkleTree(leaves.slice(0, n)).consistencyProof(old);
      const d = decideAddCheckpoint(
        formatAddCheckpointRequest({ oldSize: old, proof, checkpoint: checkpointNote(n) }),
        logFor,
      );
      assert.equal(d.status, 200, `${old} → ${n}: ${'reason' in d ? d.reason : ''}`);
      if (d.status === 200) latest = { size: d.checkpoint.size, rootHash: d.checkpoint.rootHash };
    }
    const stale = formatAddCheckpointRequest({
      oldSize: 17,
      proof: new MerkleTree(leaves).consistencyProof(17),
      checkpoint: checkpointNote(40),
    });
    assert.equal(decideAddCheckpoint(stale, logFor).status, 409);
  });
});
