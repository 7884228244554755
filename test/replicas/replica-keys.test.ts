/**
 * A replica cannot contradict its release (issue 28, item 1). Found as a new user would: pull a
 * release into a second data directory, run `gspc keygen` there as the start-up warning once
 * suggested, and serve. The service said `ready` and its board VERIFIED, while `gspc verify`
 * found every card INVALID: the DID document named the replica's keys, not the release's.
 * Now `serve`, `export static` and `pull` refuse keys that are not the release's (naming both
 * keys and the fix, which differs for a replica and for the publisher), and a service whose keys
 * change under it is never ready and never VERIFIED. A replica with the publisher's keys verifies.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { signingContext } from '../../src/keys/signing.js';
import { currentReleaseDir, loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import { gspc } from '../helpers/cli.js';
import { liveSigning } from '../helpers/app.js';
import { freePort } from '../helpers/process.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const ORIGIN = 'http://localhost:8080';
const env = { GSPC_LOG_LEVEL: 'silent' };

async function ok(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const r = await gspc(args, env);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
}

/** The publisher's data directory (keys, the demo published for `origin`). */
async function publisher(origin = ORIGIN): Promise<string> {
  const data = tempDir('gspc-publisher-');
  await ok(['keygen', '--data-dir', data]);
  await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', origin]);
  return data;
}

const boardX = (keyDir: string) =>
  (JSON.parse(readFileSync(join(keyDir, 'public-keys.json'), 'utf8')) as Record<string, string>)[
    'board-attestation-1'
  ]!;

describe('a replica cannot contradict its release', () => {
  it('pull into a replica without keys succeeds and says to copy the publisher keys, never to run keygen', async () => {
    const pub = await publisher();
    const replica = tempDir('gspc-replica-');
    const r = await ok(['pull', pub, '--data-dir', replica, '--public-url', ORIGIN]);
    assert.match(r.stderr, /holds no keys: before gspc serve, copy the publisher's key directory/);
    assert.match(r.stderr, /do not run gspc keygen for a replica/);
    assert.ok(existsSync(join(replica, 'replica-of.json')), 'the data directory is marked as a replica');
  });

  it("serve and export static refuse a replica's own keys, naming both keys and the replica's fix; nothing listens or is written", async () => {
    const pub = await publisher();
    const replica = tempDir('gspc-replica-');
    await ok(['pull', pub, '--data-dir', replica, '--public-url', ORIGIN]);
    const made = await ok(['keygen', '--data-dir', replica]);
    assert.match(made.stderr, /is a replica \(gspc pull filled it\): it serves with the publisher's keys/);
    const port = await freePort();
    const served = await gspc(['serve', '--data-dir', replica, '--port', String(port), '--public-url', ORIGIN], env);
    assert.equal(served.status, 2);
    assert.equal(served.stderr.trim().split('\n').length, 1, `one line: ${served.stderr}`);
    const ours = boardX(join(pub, 'keys'));
    const theirs = boardX(join(replica, 'keys'));
    assert.ok(
      served.stderr.includes(`board-attestation-1: the release's x=${ours}, the key directory's x=${theirs}`),
      served.stderr,
    );
    assert.match(served.stderr, /copy the publisher's key directory .* into .*keys/);
    assert.doesNotMatch(served.stderr, /restore the keys/);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), 'nothing listens');

    const out = join(tempDir(), 'mirror');
    const exported = await gspc(['export', 'static', replica, '--out', out], env);
    assert.equal(exported.status, 2);
    assert.match(exported.stderr, /was signed with other keys than those in .*copy the publisher's key directory/);
    assert.equal(existsSync(out), false, 'nothing written');
  });

  it('pull refuses a release whose keys are not those the replica holds; its current release stays', async () => {
    const pub = await publisher();
    const replica = tempDir('gspc-replica-');
    await ok(['keygen', '--data-dir', replica]);
    const r = await gspc(['pull', pub, '--data-dir', replica, '--public-url', ORIGIN], env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /was signed with other keys than those in .*nothing was changed/);
    assert.equal(currentReleaseDir(replica), undefined, 'nothing made current');
    assert.deepEqual(
      readdirSync(join(replica, 'releases')).filter((f) => f !== '.publish.lock'),
      [],
      'no staging left',
    );
  });

  it("the publisher whose keys were replaced is told to restore them, not a replica's fix", async () => {
    const pub = await publisher();
    // Keys lost and made again (keygen --force is refused once a release exists: issue 30).
    rmSync(join(pub, 'keys'), { recursive: true });
    await ok(['keygen', '--data-dir', pub]);
    const r = await gspc(['serve', '--data-dir', pub, '--port', String(await freePort()), '--public-url', ORIGIN], env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /restore the keys that signed it into .*keys/);
    assert.doesNotMatch(r.stderr, /replica/);
  });

  it('keys changed under a running service: /readyz unready and the living stamp FAILED, never VERIFIED', async () => {
    const pub = await publisher();
    const release = loadRelease(currentReleaseDir(pub)!);
    const good = signingContext(join(pub, 'keys'), 'localhost:8080');
    const state = new ServedState(release, liveSigning(good));
    const app = buildApp({ state, logLevel: 'silent' });
    try {
      assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
      const other = tempDir();
      await ok(['keygen', '--key-dir', join(other, 'keys')]);
      state.setSigning(liveSigning(signingContext(join(other, 'keys'), 'localhost:8080')));
      const ready = await app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      const keys = (ready.json() as { checks: { check: string; ok: boolean; detail: string }[] }).checks.find(
        (c) => c.check === 'keys',
      )!;
      assert.equal(keys.ok, false);
      assert.match(keys.detail, /other keys than those that signed the release: board-attestation-1/);
      const board = (await app.inject({ url: '/api/gspc' })).json() as {
        measured_on: { living_stamp: { verification_state: string; reason: string } };
        limitations: string[];
      };
      assert.equal(board.measured_on.living_stamp.verification_state, 'FAILED');
      assert.match(board.measured_on.living_stamp.reason, /other keys than those that signed this release/);
      assert.ok(board.limitations.some((l) => /its signatures do not verify here/.test(l)));
    } finally {
      await app.close();
    }
  });

  it('a replica with the publisher keys copied serves a release that gspc verify passes', {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const pub = await publisher(origin);
    const replica = tempDir('gspc-replica-');
    await ok(['pull', pub, '--data-dir', replica, '--public-url', origin]);
    cpSync(join(pub, 'keys'), join(replica, 'keys'), { recursive: true });
    const release = loadRelease(currentReleaseDir(replica)!);
    const state = new ServedState(release, liveSigning(signingContext(join(replica, 'keys'), `localhost:${port}`)));
    const app = buildApp({ state, logLevel: 'silent', baseUrl: origin });
    await app.listen({ port, host: '127.0.0.1' });
    try {
      assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
      const v = await gspc(['verify', origin], env);
      assert.equal(v.status, 0, v.stdout + v.stderr);
    } finally {
      await app.close();
    }
  });
});
