/**
 * A data directory made before the identity root existed (issue 36, item 2: "a documented,
 * tested migration"). It is built as the issue-30 gspc left it: keys without a root, a release A,
 * then a revocation signed by its new key only (made here with the core signing functions) and a
 * release B that logs it, published without the checks of today. Today's verifiers refuse B
 * (`key_transitions`: a revocation no adoption by the root endorses). `gspc keys migrate` makes a
 * root and stages an adoption record, signed by it, endorsing that revocation; the next publish
 * logs it and publishes the root, and `gspc verify` passes, of the release directory and of the
 * service. The new root then authorises revocations as in any key directory.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { canonicalBytesStrict } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import {
  KEY_TRANSITION_SCHEMA,
  transitionId,
  transitionsDocument,
  type LegacyRevocationTransition,
} from '../../src/core/evidence/key-transition.js';
import { signingContext } from '../../src/keys/signing.js';
import { currentReleaseDir, loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON read back */
type Json = any;

const data = tempDir();
const keyDir = join(data, 'keys');
const publicFile = join(keyDir, 'public-keys.json');
const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
};
const checksOf = (stdout: string) =>
  new Map((JSON.parse(stdout) as Json).checks.map((c: Json) => [c.check, c])) as Map<string, Json>;

describe('migrating a key directory made before the identity root', () => {
  let port = 0;
  let origin = '';
  let legacy: LegacyRevocationTransition;
  const releases: string[] = [];

  before(async () => {
    port = await freePort();
    origin = `http://localhost:${port}`;
    const did = `did:web:localhost%3A${port}`;
    // The keys as issue-30 keygen made them: no root.
    await ok(['keygen', '--data-dir', data]);
    rmSync(join(keyDir, 'identity-root.key'));
    const keys = JSON.parse(readFileSync(publicFile, 'utf8')) as Record<string, string>;
    delete keys['identity-root'];
    writeFileSync(publicFile, `${JSON.stringify(keys, null, 2)}\n`);
    await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', origin]); // A, 36 entries
    releases.push(currentReleaseDir(data)!);
    // The issue-30 revocation of the board key: signed by the new key alone, committed as that gspc did.
    const seed = Buffer.alloc(32, 42);
    const next = keyPairFromSeed(seed);
    const body = {
      schema: KEY_TRANSITION_SCHEMA as typeof KEY_TRANSITION_SCHEMA,
      did,
      fragment: 'board-attestation-1' as const,
      sequence: 1,
      kind: 'revocation' as const,
      old_x: keys['board-attestation-1']!,
      new_x: next.publicKey.toString('base64url'),
      at: new Date().toISOString(),
      revoked_x: keys['board-attestation-1']!,
      compromised_since: new Date(Date.now() - 1000).toISOString(),
      trusted_size: 36,
    };
    legacy = { ...body, sig_new: sign(next.privateKey, canonicalBytesStrict(body)).toString('hex') };
    writeFileSync(join(keyDir, 'transitions.json'), `${JSON.stringify(transitionsDocument(did, [legacy]), null, 2)}\n`);
    writeFileSync(publicFile, `${JSON.stringify({ ...keys, 'board-attestation-1': legacy.new_x }, null, 2)}\n`);
    writeFileSync(join(keyDir, 'board-attestation-1.key'), `${seed.toString('base64url')}\n`, { mode: 0o600 });
    // B: published as issue-30 gspc published it, without today's checks.
    releases.push(
      publishRelease(demoCorpus, data, signingContext(keyDir, `localhost:${port}`).inputs, { publicUrl: origin }).dir,
    );
  });

  it('before the migration: gspc verify refuses the revocation signed by its new key only, and keys status says what to do', async () => {
    const v = await gspc(['verify', releases[1]!, '--json']);
    assert.equal(v.status, 1, v.stdout);
    const transitions = checksOf(v.stdout).get('key_transitions');
    assert.equal(transitions?.ok, false);
    assert.match(
      transitions.detail,
      /signed by its new key only \(the issue-30 format\), which no adoption by the identity-root endorses: the operator runs gspc keys migrate/,
    );
    const status = await ok(['keys', 'status', '--data-dir', data]);
    assert.match(status.stdout, /identity-root +none \(made before issue 36: gspc keys migrate\)/);
    assert.match(status.stderr, /1 revocation is signed by the new key only .*run gspc keys migrate, then publish/);
    const keygen = await ok(['keygen', '--data-dir', data]);
    assert.equal(
      existsSync(join(keyDir, 'identity-root.key')),
      false,
      'keygen does not make a root for a key directory in use',
    );
    assert.match(keygen.stderr, /has no identity root .*gspc keys migrate/);
  });

  it('gspc keys migrate makes a root and stages an adoption endorsing the revocation', async () => {
    const r = await ok(['keys', 'migrate', '--data-dir', data]);
    assert.match(r.stdout, /^created identity-root x=[\w-]{43} in .*identity-root\.key/);
    assert.match(
      r.stdout,
      new RegExp(`endorses 1 revocation signed by the new key only \\(${transitionId(legacy).slice(0, 16)}\\)`),
    );
    assert.match(r.stdout, /Pending until the next gspc publish/);
    assert.match(r.stderr, /IMPORTANT: the identity root's seed is/);
    const pending = JSON.parse(readFileSync(join(keyDir, 'pending.json'), 'utf8')) as Json;
    const adoption = pending.transitions.at(-1);
    assert.deepEqual(
      [adoption.kind, adoption.fragment, adoption.endorses],
      ['adoption', 'identity-root', [transitionId(legacy)]],
    );
    assert.equal(adoption.root_x, pending.public_keys['identity-root']);
    assert.match(
      (await ok(['keys', 'migrate', '--data-dir', data])).stdout,
      /already has an identity root .*nothing to migrate/,
    );
  });

  it('the next publish logs the adoption and publishes the root; gspc verify passes', async () => {
    const r = await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', origin]);
    assert.match(r.stdout, /verified: \d+ checks and 36 cards pass/);
    assert.match(r.stdout, /adoption by identity-root x=[\w-]{43}, endorsing 1 earlier revocation/);
    releases.push(currentReleaseDir(data)!);
    const v = await gspc(['verify', releases[2]!, '--json']);
    assert.equal(v.status, 0, v.stdout);
    assert.ok(checksOf(v.stdout).get('key_transitions')?.ok);
    assert.ok(checksOf(v.stdout).get('key_revocations')?.ok);
    const entries = JSON.parse(readFileSync(join(releases[2]!, 'evidence', 'log-entries.json'), 'utf8'))
      .entries as string[];
    const pending = JSON.parse(readFileSync(join(releases[2]!, 'evidence', 'key-transitions.json'), 'utf8')) as Json;
    assert.ok(entries.includes(transitionId(pending.transitions[1])), 'the adoption is a log entry');
  });

  describe('served', () => {
    let app: ReturnType<typeof buildApp>;
    before(async () => {
      const signing = signingContext(keyDir, `localhost:${port}`);
      app = buildApp({
        state: new ServedState(loadRelease(releases[2]!), liveOf(signing)),
        logLevel: 'silent',
        baseUrl: origin,
      });
      await app.listen({ host: '127.0.0.1', port });
      assert.equal((app.server.address() as AddressInfo).port, port);
    });
    after(() => app.close());

    it('gspc verify of the service is VALID; the DID document lists the root; the new root revokes as any root does', async () => {
      const v = await gspc(['verify', origin, '--json']);
      assert.equal(v.status, 0, v.stdout);
      assert.equal((JSON.parse(v.stdout) as Json).verdict, 'VALID');
      const did = (await (await fetch(`${origin}/.well-known/did.json`)).json()) as Json;
      assert.deepEqual(did.capabilityInvocation, [`${did.id}#identity-root`]);
      assert.equal((await fetch(`${origin}/readyz`)).status, 200);
      await ok([
        'keys',
        'revoke',
        'card-attestation-2',
        '--compromised-since',
        new Date().toISOString(),
        '--data-dir',
        data,
      ]);
      await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', origin]);
    });
  });
});
