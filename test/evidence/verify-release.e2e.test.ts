import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { canonicalBytesStrict } from '../../src/core/crypto/canonical-json.js';
import { verify } from '../../src/core/crypto/ed25519.js';
import { buildRoot } from '../../src/core/evidence/public-root.js';
import { dirSource, urlSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { trusting } from '../helpers/anchor.js';
import { demoApp, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { runCli } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

const signing = testSigning();
const { app, dir, dataDir } = demoApp(undefined, signing);

function copyRelease(): string {
  const copy = join(tempDir(), 'release');
  cpSync(dir, copy, { recursive: true });
  return copy;
}
const failed = (r: Awaited<ReturnType<typeof verifyRelease>>) => r.checks.filter((c) => !c.ok).map((c) => c.check);

describe('gspc verify', () => {
  it('a release directory verifies: root, cards, bindings, manifest, re-derived cards', async () => {
    const r = await verifyRelease(dirSource(dir));
    assert.deepEqual(failed(r), []);
    assert.equal(r.ok, true);
    assert.ok(r.cards.checked > 30);
    assert.ok(r.checks.some((c) => c.check === 'cards_rederived' && c.ok));
  });

  it('a running service verifies, including the board attestation and every board number', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    // The test keys' DID host (localhost:8080) does not serve them: the reader anchors them (issue 36).
    const r = await verifyRelease(urlSource(`http://127.0.0.1:${port}`), {
      anchor: trusting((await app.inject({ method: 'GET', url: '/.well-known/did.json' })).json()),
    });
    assert.deepEqual(failed(r), []);
    for (const c of ['board_attestation', 'board_rederived', 'binding /interop/root-witness-latest.json'])
      assert.ok(
        r.checks.some((x) => x.check === c && x.ok),
        c,
      );
  });

  it('one changed byte in a card, the root or a per-item row is reported with the right reason', async () => {
    const card = copyRelease();
    const cardFile = join(card, 'evidence', 'cards-bundle.json');
    writeFileSync(cardFile, readFileSync(cardFile, 'utf8').replace('"correct": 1', '"correct": 2'));
    const r1 = await verifyRelease(dirSource(card));
    assert.equal(r1.ok, false);
    assert.match(r1.cards.invalid[0]!.reasons[0]!, /content_address: hash mismatch/);

    const root = copyRelease();
    const rootFile = join(root, 'evidence', 'root.json');
    writeFileSync(
      rootFile,
      readFileSync(rootFile, 'utf8').replace(/"leaf_count": (\d+)/, (_m, n) => `"leaf_count": ${Number(n) + 1}`),
    );
    assert.ok(failed(await verifyRelease(dirSource(root))).includes('root_signature'));

    const rows = copyRelease();
    const rowsFile = join(rows, 'corpus', 'peritem', 'safety.jsonl');
    writeFileSync(rowsFile, readFileSync(rowsFile, 'utf8').replace('"label":"refuse"', '"label":"comply"'));
    assert.ok(failed(await verifyRelease(dirSource(rows))).includes('peritem_manifest'));
  });

  it('the CLI prints VALID and exits 0, or exits 1 on a tampered release; --json is machine-readable', async () => {
    const ok = await gspc(['verify', dir]);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^VALID: every check passes, \d+ of \d+ cards valid$/m);
    const json = JSON.parse((await gspc(['verify', dir, '--json'])).stdout);
    assert.equal(json.ok, true);
    const bad = copyRelease();
    const f = join(bad, 'evidence', 'root.json');
    writeFileSync(f, readFileSync(f, 'utf8').replace(/"as_of": "[^"]+"/, '"as_of": "2020-01-01T00:00:00Z"'));
    // The compiled bin, once: its exit status is the verdict.
    const r = runCli(['verify', bad]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /FAIL root_signature/);
  });
});

describe('public root', () => {
  it('[a,b,c] and [a,b,c,c] share a merkle_root but not a signed record: the leaf count is bound', () => {
    const key = signing.inputs.boardKey;
    assert.ok(key.healthy);
    // Leaves are sorted before rooting, so c must sort last for the duplicate to land at the end.
    const [a, b, c] = ['1', '2', '3'].map((x) => x.repeat(64));
    const three = buildRoot([a!, b!, c!], '2026-11-01T00:00:00Z', signing.did, key);
    const four = buildRoot([a!, b!, c!, c!], '2026-11-01T00:00:00Z', signing.did, key);
    assert.equal(three.merkle_root, four.merkle_root);
    assert.notEqual(three.bound_digest, four.bound_digest);
    const { sig_ed25519: sig, ...body } = three;
    const forged = { ...body, leaf_count: 4, bound_digest: four.bound_digest };
    assert.ok(verify(key.signer.publicKey, canonicalBytesStrict(body), Buffer.from(sig!, 'hex')));
    assert.ok(!verify(key.signer.publicKey, canonicalBytesStrict(forged), Buffer.from(sig!, 'hex')));
  });
});

describe('gspc witness', () => {
  it('records an OpenTimestamps proof over the exact root bytes as STAMPED_PENDING_BITCOIN; refuses another digest', async () => {
    const rootSha = createHash('sha256')
      .update(readFileSync(join(dir, 'evidence', 'root.json')))
      .digest('hex');
    const magic = Buffer.from('004f70656e54696d657374616d7073000050726f6f6600bf89e2e884e89294', 'hex');
    const ots = (digest: string) =>
      Buffer.concat([magic, Buffer.from([1, 0x08]), Buffer.from(digest, 'hex'), Buffer.from([0xf0, 0x10])]);
    const good = join(tempDir(), 'root.ots');
    writeFileSync(good, ots(rootSha));
    const r = await gspc(['witness', '--kind', 'timestamp-proof', '--evidence', good, '--data-dir', dataDir]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /STAMPED_PENDING_BITCOIN/);
    assert.deepEqual(readdirSync(join(dataDir, 'witness', rootSha)).sort(), [
      'timestamp-proof.evidence',
      'timestamp-proof.json',
    ]);
    const bad = join(tempDir(), 'other.ots');
    writeFileSync(bad, ots('00'.repeat(32)));
    const refused = await gspc(['witness', '--kind', 'timestamp-proof', '--evidence', bad, '--data-dir', dataDir]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /not the root bytes/);
  });
});
