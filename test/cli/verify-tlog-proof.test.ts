/**
 * `gspc verify <card>.tlog-proof` (issue 42, TP3): a served card's C2SP tlog-proof checked offline
 * under the log key the reader names (a vkey, a tlog-policy's log line, or a saved DID document),
 * never the proof's own; exit 0 VALID, 1 INVALID with a stable code, 2 for a reader who trusts no key.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { SIG_TYPE_COSIGNATURE_V1 } from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const signing = testSigning();
const origin = logOrigin(signing.did);

describe('gspc verify <card>.tlog-proof', async () => {
  const { dir } = publishRelease(demoCopy(), tempDir(), signing.inputs);
  const app = buildApp({ state: new ServedState(loadRelease(dir), liveSigning(signing)), logLevel: 'silent' });
  after(() => app.close());
  const get = async (url: string) => (await app.inject({ method: 'GET', url })).body;
  const work = tempDir();
  const file = (name: string, body: string) => {
    const path = join(work, name);
    writeFileSync(path, body);
    return path;
  };
  const cards = (JSON.parse(await get('/cards/index.json')) as { cards: { sha256: string }[] }).cards;
  const [a, b] = [cards[0]!.sha256, cards[1]!.sha256];
  const proof = file('a.tlog-proof', await get(`/cards/${a.slice(0, 16)}.tlog-proof`));
  const card = file('a.json', await get(`/cards/${a.slice(0, 16)}.json`));
  const vkey = (await get('/log/vkey')).trim();
  const did = file('did.json', await get('/.well-known/did.json'));

  it('VALID under the log vkey, or the board key of a saved DID document; the JSON report says what was checked', async () => {
    const r = await gspc(['verify', proof, '--card', card, '--log-vkey', vkey]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`VALID: entry \\d+ of ${origin.replace('.', '\\.')} at size \\d+`));
    assert.match(r.stdout, /ok {3}card: the card's body hashes to its sha256/);
    assert.equal((await gspc(['verify', proof, '--card', a, '--trust-did-document', did])).status, 0);
    const j = JSON.parse((await gspc(['verify', proof, '--card', card, '--log-vkey', vkey, '--json'])).stdout);
    assert.equal(j.result, 'VALID');
    assert.equal(j.code, null);
    assert.equal(j.card, a);
    assert.deepEqual(
      j.checks.map((c: { check: string }) => c.check),
      ['card', 'format', 'log_signature', 'cosignatures', 'inclusion'],
    );
  });

  it('refuses to run without a key the reader trusts (exit 2): the proof carries none worth trusting', async () => {
    const r = await gspc(['verify', proof, '--card', card]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /never the proof's own/);
    assert.equal((await gspc(['verify', proof, '--log-vkey', vkey])).status, 2, 'no --card');
    assert.equal((await gspc(['verify', proof, '--card', card, '--trust-key', 'x'])).status, 2);
    // A URL takes --card (one card online, VC1), never a --log-vkey: its keys are the DID's.
    const url = await gspc(['verify', 'http://127.0.0.1:9/', '--card', a, '--log-vkey', vkey]);
    assert.equal(url.status, 2);
    assert.match(url.stderr, /for a tlog-proof file/);
  });

  it('INVALID with its code: an impostor key under the origin, another card, an edited card, trailing bytes, a missing cosignature', async () => {
    const code = async (args: string[]) => {
      const r = await gspc(['verify', ...args, '--json']);
      assert.equal(r.status, 1, r.stdout + r.stderr);
      return JSON.parse(r.stdout).code as string;
    };
    const impostor = formatVerifierKey(origin, keyPairFromSeed(Buffer.alloc(32, 5)).publicKey);
    assert.equal(await code([proof, '--card', card, '--log-vkey', impostor]), 'tlog_proof_log_signature');
    assert.equal(await code([proof, '--card', b, '--log-vkey', vkey]), 'tlog_proof_not_included');
    const edited = file('edited.json', readFileSync(card, 'utf8').replace(/"as_of": "/, '"as_of": "1'));
    assert.equal(await code([proof, '--card', edited, '--log-vkey', vkey]), 'tlog_proof_card');
    const trailing = file('trailing.tlog-proof', `${readFileSync(proof, 'utf8')}\n`);
    assert.equal(await code([trailing, '--card', card, '--log-vkey', vkey]), 'tlog_proof_malformed');
    const witness = formatVerifierKey(
      'witness.example/w',
      keyPairFromSeed(Buffer.alloc(32, 6)).publicKey,
      SIG_TYPE_COSIGNATURE_V1,
    );
    assert.equal(
      await code([proof, '--card', card, '--log-vkey', vkey, '--witness-key', witness]),
      'tlog_proof_quorum',
    );
  });

  it('a tlog-policy gives the log key and the quorum; a file named otherwise is read as a proof by its first line', async () => {
    const w = formatVerifierKey(
      'witness.example/w',
      keyPairFromSeed(Buffer.alloc(32, 6)).publicKey,
      SIG_TYPE_COSIGNATURE_V1,
    );
    const none = file('none.policy', `log ${vkey}\nquorum none\n`);
    const renamed = file('proof.txt', readFileSync(proof, 'utf8'));
    assert.equal((await gspc(['verify', renamed, '--card', card, '--witness-policy', none])).status, 0);
    const needsW = file('w.policy', `log ${vkey}\nwitness w ${w}\nquorum w\n`);
    const r = await gspc(['verify', proof, '--card', card, '--witness-policy', needsW]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /INVALID \(tlog_proof_quorum\)/);
  });
});
