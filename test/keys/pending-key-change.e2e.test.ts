/**
 * A key change never stops serving (issue 36, "The key lifecycle breaks serving", defects 1 and
 * 2). Before: right after `gspc keys revoke`, the running service served a DID document with the
 * new key while /keys/transitions.json still ended at the old one (gspc verify FAIL, /readyz 503
 * until the next publish), and after `gspc keys rotate board` it took the new key within 2 s
 * (the monitor alerted key_changed_without_transition). Now a rotation or revocation is staged
 * (`<key dir>/pending.json`): a running `gspc serve`, reloading, serves byte for byte what it
 * served, ready and VALID to gspc verify and the monitor, and the next publish switches the DID
 * document, the transitions and the release together.
 */
import assert from 'node:assert/strict';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { freePort, runCli } from '../helpers/process.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import { assertServing, livingStamp, reload, serve, snapshot, until, type Served } from './served.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
type Json = any;

const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
};

describe('a staged key change serves nothing new until its publish', () => {
  const data = tempDir();
  const keyDir = join(data, 'keys');
  const rootFile = join(tempDir(), 'identity-root.key');
  const corpus = demoCopy();
  let origin = '';
  let service: Served;
  const monitorState = join(tempDir(), 'monitor');
  const monitor = () => gspc(['monitor', origin, '--state', monitorState, '--once']);
  const publish = () => ok(['publish', corpus, '--data-dir', data, '--public-url', origin]);
  const did = async () => (await (await fetch(`${origin}/.well-known/did.json`)).json()) as Json;

  before(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    await ok(['keygen', '--data-dir', data]);
    renameSync(join(keyDir, 'identity-root.key'), rootFile); // as the runbook says: off the serving machine
    await publish();
    service = await serve(data, port, origin);
    const first = await monitor();
    assert.equal(first.status, 0, first.stdout + first.stderr);
  });
  after(() => service?.stop());

  it('the bin: keys rotate board prints that the change is pending', () => {
    const r = runCli(['keys', 'rotate', 'board', '--data-dir', data]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^rotated board-attestation-1 \(board\), pending until the next publish/);
    assert.match(r.stdout, /every running service keeps serving exactly what it serves now/);
  });

  it('rotated, not published: every byte served is the same; ready, VALID, and the monitor says ok', async () => {
    const before = await snapshot(origin);
    await reload(service);
    assert.deepEqual(await snapshot(origin), before);
    await assertServing(origin, 'after keys rotate board');
    assert.equal(await livingStamp(origin), 'VERIFIED');
    const m = await monitor();
    assert.equal(m.status, 0, m.stdout);
    const status = JSON.parse((await ok(['keys', 'status', '--data-dir', data, '--json'])) as string) as Json;
    assert.deepEqual(
      status.pending.map((p: Json) => [p.kind, p.fragment]),
      [['rotation', 'board-attestation-1']],
    );
    assert.equal(status.identity_root.seed_on_this_machine, false);
  });

  it('published: the DID document, the transitions and the release change together; VALID, and the monitor follows the logged transition', async () => {
    const out = await publish();
    assert.match(out, /the pending key change is published/);
    assert.equal(existsSync(join(keyDir, 'pending.json')), false);
    await until('the service serves the rotated key', async () =>
      (await did()).verificationMethod.some((m: Json) => m.id.endsWith('#board-attestation-1~1')),
    );
    await assertServing(origin, 'after the publish of the rotation');
    const m = await monitor();
    assert.equal(m.status, 0, m.stdout);
  });

  it('revoked with the root, not published: the same bytes, ready, VALID; the leaked key still signs live answers', async () => {
    const before = await snapshot(origin);
    const since = new Date(Date.now() - 1000).toISOString();
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
    await ok([
      'keys',
      'revoke',
      'card-attestation-2',
      '--compromised-since',
      since,
      '--root-key',
      rootFile,
      '--data-dir',
      data,
    ]);
    await reload(service);
    assert.deepEqual(await snapshot(origin), before);
    await assertServing(origin, 'after keys revoke');
    const card = (await (await fetch(`${origin}/.well-known/agent-card.json`)).json()) as Json;
    assert.equal(card.signatures?.length, 1, 'the agent card stays signed');
    const m = await monitor();
    assert.equal(m.status, 0, m.stdout);
  });

  it('published: the revocations are served with their release, and everything verifies', async () => {
    await publish();
    await until('the service serves the revocations', async () =>
      (await did()).verificationMethod.some((m: Json) => m.retired?.revoked !== undefined),
    );
    const report = await assertServing(origin, 'after the publish of the revocations');
    const revoked = (report.checks as Json[]).find((c) => c.check === 'key_revocations');
    assert.ok(revoked?.ok, JSON.stringify(revoked));
    assert.equal(await livingStamp(origin), 'VERIFIED');
    const m = await monitor();
    assert.equal(m.status, 0, m.stdout);
  });
});
