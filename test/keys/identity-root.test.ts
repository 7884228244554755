/**
 * The identity root (issue 36, item 2, the operator's side). `gspc keygen` makes it beside the
 * signing keys, says loudly to move its seed away, and publishes its public half (public-keys.json,
 * each release's evidence, the DID document under capabilityInvocation, never assertionMethod);
 * a service without the root seed is healthy and ready. The attack: a copy of the public
 * files (releases/, current, keys/public-keys.json, no seed) runs `gspc keys revoke` for each
 * key. It worked (a revocation was signed by the new key only); now it is refused
 * (`root_key_required`) and writes nothing, and so are a wrong root and a keygen there (a
 * migration has nothing to do). The root rotates (both roots sign); afterwards the old root's seed authorises nothing.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { GspcError } from '../../src/core/errors.js';
import { rootKeyFor } from '../../src/keys/identity-root.js';
import { signingContext } from '../../src/keys/signing.js';
import { currentReleaseDir, loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, filesUnder, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON read back */
type Json = any;

const ORIGIN = 'http://localhost:8080';
const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
};
const publicKeys = (keyDir: string) =>
  JSON.parse(readFileSync(join(keyDir, 'public-keys.json'), 'utf8')) as Record<string, string>;
/** Every file under `dir` with its bytes and modification time: "nothing written" is this, unchanged. */
const state = (dir: string) =>
  filesUnder(dir)
    .sort()
    .map((f) => `${f} ${statSync(f).mtimeMs} ${readFileSync(f).toString('base64')}`);

describe('the identity root', () => {
  const data = tempDir();
  const keyDir = join(data, 'keys');
  const rootFile = join(tempDir(), 'identity-root.key');

  it('keygen makes it owner-only beside the signing keys and says loudly to move it off the machine', async () => {
    const r = await ok(['keygen', '--data-dir', data]);
    assert.match(r.stdout, /^created board-attestation-1, card-attestation-1, card-attestation-2 in /);
    assert.match(
      r.stdout,
      /created identity-root \(the identity root: it authorises key changes, signs nothing served\)/,
    );
    assert.match(r.stderr, /IMPORTANT: the identity root's seed is .*identity-root\.key\./);
    assert.match(r.stderr, /Move it off this machine now/);
    assert.equal(statSync(join(keyDir, 'identity-root.key')).mode & 0o777, 0o600);
    assert.match(publicKeys(keyDir)['identity-root']!, /^[\w-]{43}$/);
    renameSync(join(keyDir, 'identity-root.key'), rootFile);
    const again = await ok(['keygen', '--data-dir', data]);
    assert.match(again.stdout, /all keys already exist/);
    assert.equal(existsSync(join(keyDir, 'identity-root.key')), false, 'a root moved away is never made again');
  });

  it('publish records it in the release; the DID document lists it under capabilityInvocation only; a service without its seed is healthy and ready', async () => {
    await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
    const release = loadRelease(currentReleaseDir(data)!);
    const recorded = JSON.parse(release.evidence.files.get('evidence/public-keys.json')!.toString('utf8')) as Json;
    assert.equal(
      recorded.keys.find((k: Json) => k.fragment === 'identity-root').x,
      publicKeys(keyDir)['identity-root'],
    );
    const signing = signingContext(keyDir, 'localhost:8080');
    assert.deepEqual(
      signing.keys.health.map((h) => [h.fragment, h.healthy]),
      [
        ['board-attestation-1', true],
        ['card-attestation-1', true],
        ['card-attestation-2', true],
      ],
    );
    const app = buildApp({ state: new ServedState(release, liveOf(signing)), logLevel: 'silent', baseUrl: ORIGIN });
    try {
      assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
      const did = (await app.inject({ url: '/.well-known/did.json' })).json() as Json;
      assert.deepEqual(did.capabilityInvocation, [`${did.id}#identity-root`]);
      assert.ok(!did.assertionMethod.includes(`${did.id}#identity-root`));
    } finally {
      await app.close();
    }
  });

  it('the attack: a copy of the public files cannot revoke any key; refused with root_key_required, nothing written', async () => {
    const mirror = tempDir();
    cpSync(join(data, 'releases'), join(mirror, 'releases'), { recursive: true });
    cpSync(join(data, 'current'), join(mirror, 'current'), { verbatimSymlinks: true });
    mkdirSync(join(mirror, 'keys'));
    cpSync(join(keyDir, 'public-keys.json'), join(mirror, 'keys', 'public-keys.json'));
    const before = state(mirror);
    const now = new Date().toISOString();
    for (const kid of ['board-attestation-1', 'card-attestation-1', 'card-attestation-2']) {
      const r = await gspc(['keys', 'revoke', kid, '--compromised-since', now, '--data-dir', mirror]);
      assert.equal(r.status, 2, kid);
      assert.match(r.stderr, /is authorised by the identity root, whose seed is not here: give --root-key <file>/);
      assert.match(r.stderr, /a copy of the public files cannot revoke or rotate; nothing was written/);
    }
    const stranger = join(tempDir(), 'stranger.key');
    writeFileSync(stranger, `${Buffer.alloc(32, 7).toString('base64url')}\n`, { mode: 0o600 });
    const wrong = await gspc([
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      now,
      '--root-key',
      stranger,
      '--data-dir',
      mirror,
    ]);
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /holds the identity root x=[\w-]{43}, but the root in force is x=[\w-]{43}/);
    const migrate = await gspc(['keys', 'migrate', '--data-dir', mirror]);
    assert.match(migrate.stdout, /already has an identity root .* nothing to migrate/);
    const keygen = await gspc(['keygen', '--data-dir', mirror]);
    assert.equal(keygen.status, 2);
    assert.match(keygen.stderr, /without their seed: a new key in their place would break the log/);
    assert.deepEqual(state(mirror), before, 'nothing was written');
    // The stable codes, as a JSON error body would carry them.
    assert.throws(
      () =>
        rootKeyFor('keys revoke', {
          keyDir: join(mirror, 'keys'),
          did: 'did:web:localhost%3A8080',
          expected: publicKeys(keyDir)['identity-root'],
        }),
      (e: unknown) => e instanceof GspcError && e.code === 'root_key_required',
    );
    assert.throws(
      () =>
        rootKeyFor('keys revoke', {
          file: stranger,
          keyDir: join(mirror, 'keys'),
          did: 'did:web:localhost%3A8080',
          expected: publicKeys(keyDir)['identity-root'],
        }),
      (e: unknown) => e instanceof GspcError && e.code === 'root_key_invalid',
    );
  });

  it('keys rotate identity-root: both roots sign, the new seed replaces the old where it was read, and the old one authorises nothing after', async () => {
    const oldSeed = readFileSync(rootFile, 'utf8');
    const before = publicKeys(keyDir)['identity-root'];
    const r = await ok(['keys', 'rotate', 'identity-root', '--root-key', rootFile, '--data-dir', data]);
    assert.match(
      r.stdout,
      /^rotated identity-root, pending until the next publish: transition [0-9a-f]{64} \(sequence 1\)/,
    );
    assert.match(r.stderr, new RegExp(`the new identity root's seed is in ${rootFile}: move it off this machine`));
    assert.notEqual(readFileSync(rootFile, 'utf8'), oldSeed);
    assert.equal(statSync(rootFile).mode & 0o777, 0o600);
    assert.equal(publicKeys(keyDir)['identity-root'], before, 'staged: published with the next release');
    const old = join(tempDir(), 'old-root.key');
    writeFileSync(old, oldSeed, { mode: 0o600 });
    const since = new Date().toISOString();
    const refused = await gspc([
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      since,
      '--root-key',
      old,
      '--data-dir',
      data,
    ]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /but the root in force is x=/);
    const published = await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
    assert.match(published.stdout, /rotation of identity-root \(sequence 1\)/);
    assert.notEqual(publicKeys(keyDir)['identity-root'], before);
    const v = await gspc(['verify', currentReleaseDir(data)!]);
    assert.equal(v.status, 0, v.stdout);
    await ok([
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      since,
      '--root-key',
      rootFile,
      '--data-dir',
      data,
    ]);
    await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
    const after = await gspc(['verify', currentReleaseDir(data)!, '--json']);
    assert.equal(after.status, 0, after.stdout);
    const transitions = (JSON.parse(after.stdout) as Json).checks.find((c: Json) => c.check === 'key_transitions');
    assert.ok(transitions.ok, transitions.detail);
  });
});
