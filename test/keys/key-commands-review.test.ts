/**
 * The key commands after the review of issue 36 (finding 4, a-d):
 * - a root key file others may read (0640) is refused by keys revoke --root-key, as an unhealthy
 *   signing key is (chmod 600);
 * - a second keys revoke of a fragment before the publish would revoke the key the first one
 *   staged, never published: refused (publish first, or delete pending.json);
 * - keys status of a data directory that serves a published log, its key files missing, says to
 *   copy the publisher's keys, not to run keygen;
 * - keygen --force refuses a key directory that records an identity root whose seed was moved
 *   away (a replica's copy of the key directory, without in-use.json).
 */
import assert from 'node:assert/strict';
import { chmodSync, cpSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
};
const SINCE = '2026-01-01T00:00:00Z';

describe('the key commands, reviewed', async () => {
  const data = tempDir();
  const rootFile = join(tempDir(), 'identity-root.key');
  await ok(['keygen', '--data-dir', data]);
  await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', 'http://localhost:8080']);
  renameSync(join(data, 'keys', 'identity-root.key'), rootFile);
  const pending = join(data, 'keys', 'pending.json');

  it('a root key file readable by group is refused (chmod 600), nothing written', async () => {
    chmodSync(rootFile, 0o640);
    const r = await gspc([
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      SINCE,
      '--root-key',
      rootFile,
      '--data-dir',
      data,
    ]);
    assert.notEqual(r.status, 0, r.stdout);
    assert.match(r.stderr, /readable or writable by group or others \(chmod 600 .*\); nothing was written/);
    assert.throws(() => readFileSync(pending));
    chmodSync(rootFile, 0o600);
  });

  it('a second revocation of a fragment with a pending change is refused: the staged key never leaked', async () => {
    const revoke = [
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      SINCE,
      '--root-key',
      rootFile,
      '--data-dir',
      data,
    ];
    await ok(revoke);
    const staged = readFileSync(pending, 'utf8');
    const r = await gspc(revoke);
    assert.equal(r.status, 2, r.stdout);
    assert.match(
      r.stderr,
      /has a pending change \(pending\.json\).*never published.*Publish first.*or delete .*pending\.json to start over/,
    );
    assert.equal(readFileSync(pending, 'utf8'), staged, 'nothing written');
    rmSync(pending);
  });

  it('keys status of a data directory with a release and no key files says to copy the publisher’s keys', async () => {
    const replica = join(tempDir(), 'replica');
    cpSync(data, replica, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.endsWith('.key') });
    const r = await ok(['keys', 'status', '--data-dir', replica]);
    assert.match(r.stdout, /copy the publisher's key directory here/);
    assert.doesNotMatch(r.stdout, /\(run gspc keygen\)/);
  });

  it('keygen --force refuses a key directory whose recorded identity root has no seed beside it', async () => {
    const keys = join(tempDir(), 'keys');
    cpSync(join(data, 'keys'), keys, { recursive: true, filter: (src) => !src.endsWith('in-use.json') });
    const before = readFileSync(join(keys, 'public-keys.json'), 'utf8');
    const r = await gspc(['keygen', '--key-dir', keys, '--force', '--data-dir', tempDir()]);
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stderr, /records an identity root .* whose seed was moved away/);
    assert.equal(readFileSync(join(keys, 'public-keys.json'), 'utf8'), before);
  });
});
