/**
 * The staged key change (src/keys/pending-change.ts, decision K9) on its own: the key directory's
 * own keys do not change until the release that logs the change is current; only that release is
 * served with the staged keys; a promotion interrupted half-way is finished by the next key
 * command or publish; a pending file others may read signs nothing and is not promoted.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { transitionsDocument } from '../../src/core/evidence/key-transition.js';
import { loadKeys } from '../../src/keys/key-store.js';
import { PENDING_FILE, promotePending, readPending } from '../../src/keys/pending-change.js';
import { followsRelease, recordedOfDir, settlePending } from '../../src/keys/release-keys-follow.js';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const ORIGIN = 'http://localhost:8080';
const DID = 'did:web:localhost%3A8080';
const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
};
const publicKeys = (keyDir: string) => readFileSync(join(keyDir, 'public-keys.json'), 'utf8');

async function board() {
  const data = tempDir();
  await ok(['keygen', '--data-dir', data]);
  await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
  return { data, keyDir: join(data, 'keys') };
}

describe('a staged key change', () => {
  it('changes none of the key directory’s own files, and only the release that logs it follows the staged keys', async () => {
    const { data, keyDir } = await board();
    const before = publicKeys(keyDir);
    const seed = readFileSync(join(keyDir, 'board-attestation-1.key'), 'utf8');
    const first = recordedOfDir(currentReleaseDir(data)!)!;
    await ok(['keys', 'rotate', 'board', '--data-dir', data]);
    assert.equal(publicKeys(keyDir), before);
    assert.equal(readFileSync(join(keyDir, 'board-attestation-1.key'), 'utf8'), seed);
    assert.equal(existsSync(join(keyDir, 'transitions.json')), false);
    const next = loadKeys(keyDir, DID, { next: true });
    assert.equal(next.pending, true);
    assert.equal(next.transitions.length, 1);
    assert.equal(followsRelease(next, first), false, 'the release before the change is served with the own keys');
    assert.equal(followsRelease(loadKeys(keyDir, DID), first), true);
    await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
    const second = recordedOfDir(currentReleaseDir(data)!)!;
    assert.equal(followsRelease(next, second), true);
    assert.equal(existsSync(join(keyDir, PENDING_FILE)), false, 'promoted by the publish');
    assert.equal(followsRelease(loadKeys(keyDir, DID), second), true);
  });

  it('a promotion interrupted after the transitions is finished by the next key command, and the keys are whole', async () => {
    const { data, keyDir } = await board();
    const ownKeys = publicKeys(keyDir);
    const ownSeed = readFileSync(join(keyDir, 'board-attestation-1.key'), 'utf8');
    await ok(['keys', 'rotate', 'board', '--data-dir', data]);
    const pending = readPending(keyDir)!;
    await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
    // The key directory as a publish killed after the promotion's first rename leaves it: the
    // release is current, transitions.json renamed, the public keys and the seed not yet.
    writeFileSync(join(keyDir, PENDING_FILE), `${JSON.stringify(pending, null, 2)}\n`, { mode: 0o600 });
    writeFileSync(join(keyDir, 'public-keys.json'), ownKeys);
    writeFileSync(join(keyDir, 'board-attestation-1.key'), ownSeed, { mode: 0o600 });
    writeFileSync(
      join(keyDir, 'transitions.json'),
      `${JSON.stringify(transitionsDocument(DID, pending.transitions))}\n`,
    );
    assert.equal(followsRelease(loadKeys(keyDir, DID), recordedOfDir(currentReleaseDir(data)!)!), false);
    const status = await ok(['keys', 'status', '--data-dir', data]);
    assert.match(status, /no pending key change/);
    assert.equal(existsSync(join(keyDir, PENDING_FILE)), false);
    const keys = loadKeys(keyDir, DID);
    assert.ok(
      keys.health.every((h) => h.healthy),
      JSON.stringify(keys.health),
    );
    assert.equal(JSON.parse(publicKeys(keyDir))['board-attestation-1'], pending.public_keys['board-attestation-1']);
  });

  it('a pending file others may read signs nothing and is not promoted', async () => {
    const { data, keyDir } = await board();
    await ok(['keys', 'rotate', 'board', '--data-dir', data]);
    chmodSync(join(keyDir, PENDING_FILE), 0o644);
    const next = loadKeys(keyDir, DID, { next: true });
    assert.match(next.health[0]!.reason!, /pending\.json is readable or writable by group or others \(chmod 600\)/);
    assert.throws(() => promotePending(keyDir), /pending\.json: pending\.json is readable/);
    const r = await gspc(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no usable signing keys .*board-attestation-1: pending\.json is readable/);
    assert.equal(settlePending(keyDir, data), false);
  });
});
