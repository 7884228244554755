/**
 * docs/operations.md, "Key lifecycles" and "The day a key leaks", run end to end as an operator
 * would (issue 36, item 3), against a running origin and a replica: the publisher's data
 * directory served by `gspc serve`, and a replica given its releases by `gspc pull` and a copy of
 * the publisher's key directory (never the identity root, which lives off both machines). At
 * every step both are ready (/readyz 200) and `gspc verify` says VALID:
 *
 * 1. keys rotate board: staged, both keep serving exactly what they served; publish, copy the key
 *    directory, pull: both on the new key;
 * 2. the key leaks: keys revoke with the root (without it: refused, nothing written); both keep
 *    serving; copy the key directory, publish at once, pull: both serve the revocation;
 * 3. roll back to the last release before the leak (`gspc serve --release`): it verifies.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import { assertServing, reload, serve, snapshot, until, type Served } from './served.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON read back */
type Json = any;

const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
};
const text = async (url: string) => (await fetch(url)).text();

describe('the key runbook, against an origin and a replica', () => {
  const publisher = tempDir('gspc-publisher-');
  const keyDir = join(publisher, 'keys');
  const rootFile = join(tempDir('gspc-offline-'), 'identity-root.key');
  const replica = tempDir('gspc-replica-');
  const replicaKeys = join(tempDir('gspc-replica-keys-'), 'keys');
  const corpus = demoCopy();
  let origin = '';
  let originPort = 0;
  let replicaPort = 0;
  const services: { origin?: Served; replica?: Served } = {};
  let beforeLeak = '';

  /** Step "copy the key directory to each replica": everything but the root, which is not here anyway. */
  const copyKeys = () => {
    rmSync(replicaKeys, { recursive: true, force: true });
    cpSync(keyDir, replicaKeys, { recursive: true, filter: (src) => !src.endsWith('identity-root.key') });
  };
  const publish = () => ok(['publish', corpus, '--data-dir', publisher, '--public-url', origin]);
  /** `gspc pull` on the replica, then SIGHUP, until it serves what the origin serves. */
  const pull = async () => {
    await ok(['pull', publisher, '--data-dir', replica, '--key-dir', replicaKeys, '--public-url', origin]);
    await reload(services.replica!, 100);
    await until('the replica serves the origin’s release', async () => {
      const [o, r] = await Promise.all([text(`${origin}/root.json`), text(`${services.replica!.url}/root.json`)]);
      return o === r;
    });
  };
  const both = async (what: string) => {
    const reports = [
      await assertServing(origin, `${what} (origin)`),
      await assertServing(services.replica!.url, `${what} (replica)`),
    ];
    return reports;
  };
  /** Both services, reloaded, serve byte for byte what they served before `change`. */
  const nothingChanges = async (change: () => Promise<void>) => {
    const before = [await snapshot(origin), await snapshot(services.replica!.url)];
    await change();
    await reload(services.origin!);
    await reload(services.replica!);
    assert.deepEqual([await snapshot(origin), await snapshot(services.replica!.url)], before);
  };

  before(async () => {
    [originPort, replicaPort] = [await freePort(), await freePort()];
    origin = `http://localhost:${originPort}`;
    await ok(['keygen', '--data-dir', publisher]);
    renameSync(join(keyDir, 'identity-root.key'), rootFile); // Keys: "move the identity root off the serving machine"
    await publish(); // A
    copyKeys();
    await ok(['pull', publisher, '--data-dir', replica, '--key-dir', replicaKeys, '--public-url', origin]);
    services.origin = await serve(publisher, originPort, origin);
    services.replica = await serve(replica, replicaPort, origin, ['--key-dir', replicaKeys]);
  });
  after(async () => {
    await services.origin?.stop();
    await services.replica?.stop();
  });

  it('before anything: the origin and the replica are ready and VALID', async () => {
    await both('at the start');
  });

  it('keys rotate board, and the key directory copied to the replica: both serve exactly what they served, ready and VALID', async () => {
    await nothingChanges(async () => {
      await ok(['keys', 'rotate', 'board', '--data-dir', publisher]);
      copyKeys();
    });
    assert.ok(existsSync(join(replicaKeys, 'pending.json')), 'the replica holds the pending change');
    await both('after keys rotate board');
  });

  it('publish, then pull on the replica: both serve the rotated key, ready and VALID', async () => {
    await publish(); // B
    beforeLeak = currentReleaseDir(publisher)!;
    await until('the origin serves the rotation', async () =>
      (await text(`${origin}/.well-known/did.json`)).includes('#board-attestation-1~1'),
    );
    await pull();
    const [o] = await both('after the publish of the rotation');
    assert.match((o!.checks as Json[]).find((c) => c.check === 'key_transitions').detail, /^1 key transition/);
  });

  it('the key leaks: keys revoke without the root is refused writing nothing; with it, staged, and both serve exactly what they served', async () => {
    await sleep(50);
    const leak = new Date().toISOString();
    await sleep(50);
    const refused = await gspc([
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      leak,
      '--data-dir',
      publisher,
    ]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /is authorised by the identity root, whose seed is not here/);
    assert.equal(existsSync(join(keyDir, 'pending.json')), false);
    await nothingChanges(async () => {
      const out = await ok([
        'keys',
        'revoke',
        'board-attestation-1',
        '--compromised-since',
        leak,
        '--root-key',
        rootFile,
        '--data-dir',
        publisher,
      ]);
      assert.match(out, /Publish now \(gspc publish\)/);
      copyKeys();
    });
    await both('after keys revoke, before the publish');
  });

  it('publish at once, then pull: both serve the revocation, ready and VALID', async () => {
    await publish(); // C
    await until('the origin serves the revocation', async () =>
      (await text(`${origin}/.well-known/did.json`)).includes('"revoked"'),
    );
    await pull();
    for (const report of await both('after the publish of the revocation')) {
      const revocations = (report.checks as Json[]).find((c) => c.check === 'key_revocations');
      assert.match(
        revocations.detail,
        /board-attestation-1 key [\w-]{43} revoked, compromised since .*: what it signed stands only among the first 37 log entries/,
      );
    }
    assert.equal(JSON.parse(readFileSync(join(keyDir, 'transitions.json'), 'utf8')).transitions.length, 2);
  });

  it('roll back the origin to the last release before the leak (gspc serve --release): ready and VALID', async () => {
    await services.origin!.stop();
    services.origin = await serve(publisher, originPort, origin, ['--release', beforeLeak]);
    await assertServing(origin, 'the pre-leak release served again');
  });
});
