/**
 * The corrections ledger is signed for the board's origin and keys (issue 36, defect 7). Before,
 * `gspc corrections sign` had no `--public-url` and signed under did:web:localhost%3A8080 whatever
 * the board's origin, and `gspc publish` then said "verified" while the served /api/corrections
 * signature read INVALID. Now it signs for the data directory's current release's origin (or
 * `--public-url`) with the keys the next publish signs with (a pending rotation included), and a
 * publish refuses, with the fix and writing nothing, a ledger whose served signature would read
 * INVALID: signed for another origin, or by a board key since rotated.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { signingContext } from '../../src/keys/signing.js';
import { currentReleaseDir, loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { gspc } from '../helpers/cli.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const ORIGIN = 'https://board.example';
const data = tempDir();
const corpus = demoCopy();
const signature = () =>
  JSON.parse(readFileSync(join(corpus, 'corrections', 'signature.json'), 'utf8')) as { kid: string };
const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
};
const publish = () => gspc(['publish', corpus, '--data-dir', data, '--public-url', ORIGIN]);
const releases = () =>
  readdirSync(join(data, 'releases'))
    .filter((f) => f.startsWith('r-'))
    .sort();

/** The signature state /api/corrections serves for the data directory's current release. */
async function served(): Promise<{ state: string; reason: string }> {
  const release = loadRelease(currentReleaseDir(data)!);
  const state = new ServedState(release, liveOf(signingContext(join(data, 'keys'), 'board.example')));
  const app = buildApp({ state, logLevel: 'silent', baseUrl: ORIGIN });
  try {
    return ((await app.inject({ url: '/api/corrections' })).json() as { signature: { state: string; reason: string } })
      .signature;
  } finally {
    await app.close();
  }
}

describe("the corrections ledger is signed for the board's origin and keys", () => {
  it("corrections sign without --public-url signs for the current release's origin; served CURRENT", async () => {
    await ok(['keygen', '--data-dir', data]);
    assert.equal((await publish()).status, 0);
    const r = await ok(['corrections', 'sign', corpus, '--data-dir', data]);
    assert.match(r.stdout, /under did:web:board\.example#board-attestation-1/);
    assert.equal(signature().kid, 'did:web:board.example#board-attestation-1');
    assert.equal((await publish()).status, 0);
    assert.equal((await served()).state, 'CURRENT');
  });

  it('a ledger signed for another origin: publish refuses with the fix, and nothing is published', async () => {
    await ok(['corrections', 'sign', corpus, '--data-dir', data, '--public-url', 'http://localhost:8080']);
    assert.equal(signature().kid, 'did:web:localhost%3A8080#board-attestation-1');
    const before = { current: currentReleaseDir(data), releases: releases() };
    const r = await publish();
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /the corrections ledger's signature \(.*signature\.json\) would read INVALID at \/api\/corrections: signed under did:web:localhost%3A8080#board-attestation-1, which is not the board key did:web:board\.example#board-attestation-1/,
    );
    assert.match(
      r.stderr,
      /Fix: sign the ledger again for this origin and these keys: gspc corrections sign .* --public-url https:\/\/board\.example, then publish; nothing was published/,
    );
    assert.deepEqual({ current: currentReleaseDir(data), releases: releases() }, before);
  });

  it('after a board rotation: the old signature is refused; signing again uses the pending key, and the publish serves it CURRENT', async () => {
    await ok(['corrections', 'sign', corpus, '--data-dir', data]);
    await ok(['keys', 'rotate', 'board', '--data-dir', data]);
    const refused = await publish();
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /would read INVALID at \/api\/corrections: the signature does not verify/);
    await ok(['corrections', 'sign', corpus, '--data-dir', data]);
    const r = await publish();
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /the pending key change is published/);
    assert.equal((await served()).state, 'CURRENT');
  });
});
