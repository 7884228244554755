/**
 * Rolling back after a key change (issue 36, "The key lifecycle breaks serving", defects 3 and
 * 4), with `gspc serve --release <dir>` as the operator runs it.
 *
 * - The board key leaks after release A (36 log entries); the revocation trusts those 36 and is
 *   published with B. Serving A again must verify: before, it started, but `gspc verify` failed
 *   `key_revocations: a revocation trusts 36 entries, which no earlier checkpoint of the log had`.
 * - The agent-card key is revoked from an instant before release B: before, no release after that
 *   instant could be served again (`release_keys_mismatch`, "revoked"), though nothing in a
 *   release is signed by the agent-card key. Now B is served, ready and VALID.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { requireReleaseKeys } from '../../src/release/release-keys.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import { assertServing, livingStamp, serve, type Served } from './served.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON read back */
type Json = any;

const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
};
const publishedDir = (data: string, stdout: string) =>
  join(data, 'releases', /^(?:published|unchanged) (r-[0-9a-f]{20})/.exec(stdout)![1]!);

/** A data directory with keys, the root moved away, and what publishing there takes. */
async function board() {
  const data = tempDir();
  const root = join(tempDir(), 'identity-root.key');
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  await ok(['keygen', '--data-dir', data]);
  renameSync(join(data, 'keys', 'identity-root.key'), root);
  const publish = async (corpus: string) =>
    publishedDir(data, await ok(['publish', corpus, '--data-dir', data, '--public-url', origin]));
  return { data, root, port, origin, publish };
}

/** An instant strictly between two releases' times (release.json mtimes have millisecond resolution). */
async function instantBetween(): Promise<string> {
  await sleep(50);
  const instant = new Date().toISOString();
  await sleep(50);
  return instant;
}

describe('rolling back after a key change', () => {
  const services: Served[] = [];
  after(async () => {
    for (const s of services) await s.stop();
  });

  it('the board key leaked after A and was revoked trusting its 36 entries: serving A again is ready and VALID', async () => {
    const b = await board();
    const corpus = demoCopy();
    const a = await b.publish(corpus);
    const leak = await instantBetween();
    await ok([
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      leak,
      '--root-key',
      b.root,
      '--data-dir',
      b.data,
    ]);
    await b.publish(corpus); // B: logs the revocation, signed by the new key
    const s = await serve(b.data, b.port, b.origin, ['--release', a]);
    services.push(s);
    const report = await assertServing(b.origin, 'A served again after the revocation');
    const revocations = (report.checks as Json[]).find((c) => c.check === 'key_revocations');
    assert.match(revocations.detail, /what it signed stands only among the first 36 log entries/);
    assert.equal(await livingStamp(b.origin), 'VERIFIED');
  });

  it('the agent-card key revoked from an instant before B: B is served again, ready and VALID', async () => {
    const b = await board();
    const first = demoCopy();
    await b.publish(first); // A: 36 entries
    const compromised = await instantBetween();
    const later = demoCopy();
    const meta = JSON.parse(readFileSync(join(later, 'board.json'), 'utf8')) as { as_of: string };
    meta.as_of = '2026-11-21T00:00:00Z';
    writeFileSync(join(later, 'board.json'), `${JSON.stringify(meta, null, 2)}\n`);
    const bDir = await b.publish(later); // B: made after the compromise
    await ok([
      'keys',
      'revoke',
      'card-attestation-2',
      '--compromised-since',
      compromised,
      '--root-key',
      b.root,
      '--data-dir',
      b.data,
    ]);
    await b.publish(later); // C: the revocation logged
    // What gspc serve --release checks before it listens: before, "revoked as compromised since …".
    const signing = signingContext(join(b.data, 'keys'), `localhost:${b.port}`);
    requireReleaseKeys(loadRelease(bDir), signing.keys.published, {
      keyDir: join(b.data, 'keys'),
      replica: false,
      transitions: signing.keys.transitions,
    });
    const s = await serve(b.data, b.port, b.origin, ['--release', bDir]);
    services.push(s);
    await assertServing(b.origin, 'B served again after the agent-card revocation');
    const card = (await (await fetch(`${b.origin}/.well-known/agent-card.json`)).json()) as Json;
    assert.equal(card.signatures?.length, 1, 'the agent card is signed by the new agent-card key');
  });

  it('a release whose corrections ledger the retired board key signed reads CURRENT when served again after a rotation', async () => {
    const b = await board();
    const corpus = demoCopy();
    await ok(['corrections', 'sign', corpus, '--data-dir', b.data, '--public-url', b.origin]);
    const a = await b.publish(corpus); // A: the ledger signed by the first board key
    await ok(['keys', 'rotate', 'board', '--data-dir', b.data]);
    const later = demoCopy();
    await ok(['corrections', 'sign', later, '--data-dir', b.data, '--public-url', b.origin]);
    await b.publish(later); // B: signed by the new board key
    const s = await serve(b.data, b.port, b.origin, ['--release', a]);
    services.push(s);
    await assertServing(b.origin, 'A served again after the rotation');
    const doc = (await (await fetch(`${b.origin}/api/corrections`)).json()) as Json;
    // Before: INVALID, checked under the board key of now, which never signed A's ledger.
    assert.equal(doc.signature?.state, 'CURRENT', JSON.stringify(doc.signature));
  });
});
