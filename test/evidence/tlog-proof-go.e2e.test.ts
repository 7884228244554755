/**
 * Every served tlog-proof checked by a client nobody here wrote (issue 42, TP10): test/go/tlogproof,
 * Go's own golang.org/x/mod/sumdb/note (note.Open under the log's vkey) and tlog (CheckRecord
 * from the card's record hash to the checkpoint's root), built offline as test/go/tlogcheck is
 * (test/helpers/go-tlogcheck.ts installs Debian's Go when it can, else the reason is the skip).
 * Go must accept each card's proof, cosignature line included, and refuse another card, an
 * impostor's key under the origin's name, and a moved index.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { signCosignature } from '../../src/core/evidence/note/cosignature.js';
import { formatSignatureLine, SIG_TYPE_COSIGNATURE_V1 } from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { buildApp } from '../../src/app.js';
import { runWitness } from '../../src/cli/witness.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { readWitnesses } from '../../src/release/witness-store.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { goTlogCheck } from '../helpers/go-tlogcheck.js';
import { repoRoot } from '../helpers/repo.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const go = goTlogCheck();

/** test/go/tlogproof built beside tlogcheck, with the same offline GOPATH-mode environment. */
function build(): string {
  const out = join(repoRoot, 'build', 'go');
  const bin = join(out, 'tlogproof');
  const r = spawnSync(process.env.GSPC_GO ?? '/usr/bin/go', ['build', '-o', bin, './test/go/tlogproof/'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: '/usr/share/gocode',
      GOFLAGS: '',
      GOCACHE: join(out, 'cache'),
      GOPROXY: 'off',
    },
  });
  if (r.status !== 0) throw new Error(`go build of test/go/tlogproof failed:\n${r.stderr}`);
  return bin;
}

describe('tlog-proofs checked by Go (sumdb/note and sumdb/tlog)', { skip: go.ok ? false : go.reason }, () => {
  const signing = testSigning();
  const dataDir = tempDir();
  const { dir } = publishRelease(demoCopy(), dataDir, signing.inputs);
  const checkpoint = readFileSync(join(dir, 'evidence', 'log-checkpoint'), 'utf8');
  const W = { name: 'witness.example/w1', seed: Buffer.alloc(32, 31) };
  const evidence = join(tempDir(), 'cosignature.txt');
  writeFileSync(
    evidence,
    formatSignatureLine(
      signCosignature(
        checkpoint.slice(0, checkpoint.indexOf('\n\n') + 1),
        { name: W.name, privateKey: W.seed },
        1_800_000_000,
      ),
    ),
  );
  const state = new ServedState(loadRelease(dir), liveSigning(signing), (sha) => readWitnesses(dataDir, sha));
  const app = buildApp({ state, logLevel: 'silent' });
  after(() => app.close());
  const get = async (url: string) => (await app.inject({ method: 'GET', url })).body;
  const work = tempDir();
  const check = (bin: string, proof: string, vkey: string, card: string) => {
    const file = join(work, 'p.tlog-proof');
    writeFileSync(file, proof);
    return spawnSync(bin, [file, vkey, card], { encoding: 'utf8' });
  };

  it("accepts every card's served proof under /log/vkey, the witness's cosignature line included", async () => {
    const bin = build();
    await runWitness(dataDir, {
      kind: 'transparency-log',
      evidence,
      witnessKeys: [formatVerifierKey(W.name, keyPairFromSeed(W.seed).publicKey, SIG_TYPE_COSIGNATURE_V1)],
      now: 1_800_000_000,
    });
    state.refreshWitnesses();
    const vkey = (await get('/log/vkey')).trim();
    const { entries } = JSON.parse(await get('/log/entries.json')) as { entries: string[] };
    const cards = (JSON.parse(await get('/cards/index.json')) as { cards: { sha256: string }[] }).cards;
    assert.ok(cards.length > 1);
    for (const { sha256 } of cards) {
      const proof = await get(`/cards/${sha256.slice(0, 16)}.tlog-proof`);
      assert.match(proof, /\n— witness\.example\/w1 /);
      const r = check(bin, proof, vkey, sha256);
      assert.equal(r.status, 0, `${sha256}: ${r.stderr}`);
      assert.match(
        r.stdout,
        new RegExp(
          `^ok: record ${entries.indexOf(sha256)} of ${logOrigin(signing.did)} at size ${entries.length}, 1 signatures \\(1 unverified\\)`,
        ),
      );
    }
  });

  it("refuses another card, an impostor's key under the origin's name and a moved index", async () => {
    const bin = build();
    const vkey = (await get('/log/vkey')).trim();
    const cards = (JSON.parse(await get('/cards/index.json')) as { cards: { sha256: string }[] }).cards;
    const [a, b] = [cards[0]!.sha256, cards[1]!.sha256];
    const proof = await get(`/cards/${a.slice(0, 16)}.tlog-proof`);
    assert.equal(check(bin, proof, vkey, a).status, 0);
    const other = check(bin, proof, vkey, b);
    assert.equal(other.status, 1);
    assert.match(other.stderr, /CheckRecord/);
    const impostor = formatVerifierKey(logOrigin(signing.did), keyPairFromSeed(Buffer.alloc(32, 77)).publicKey);
    const forged = check(bin, proof, impostor, a);
    assert.equal(forged.status, 1);
    assert.match(forged.stderr, /note\.Open/);
    const moved = proof.replace(/\nindex (\d+)\n/, (_, i) => `\nindex ${Number(i) + 1}\n`);
    assert.equal(check(bin, moved, vkey, a).status, 1);
  });
});
