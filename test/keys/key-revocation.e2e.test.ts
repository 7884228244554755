/**
 * The day a key leaks (issue 30), as an operator meets it: A, rotate the board key, B, rotate the
 * agent-card key, C, then the board key that signed B and C is found to have leaked at an
 * instant between B and C. `gspc keys revoke board-attestation-1 --compromised-since <instant>`
 * (authorised by the identity root, still in the key directory here) stages a new key and records
 * how much of the log was made before then; the next publish (D) logs the revocation. Served D then reads exactly what the rule names INVALID: C's copy of a card
 * (logged after the instant) and any receipt the leaked key signed, whatever time it claims; and
 * nothing earlier: A's and B's copies of their cards, a receipt the first key issued before its
 * rotation, and B's checkpoint stay valid.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { signReceipt } from '../../src/core/pricing/offer-receipt.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { requireReleaseKeys } from '../../src/release/release-keys.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { browserMissing, openPage, verifyServedInBrowser } from '../helpers/browser.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCopy, demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
type Json = any;

const data = tempDir();
const keyDir = join(data, 'keys');
const boardSeed = () => readFileSync(join(keyDir, 'board-attestation-1.key'), 'utf8').trim();
const bundleOf = (id: string): Json[] =>
  JSON.parse(readFileSync(join(data, 'releases', id, 'evidence', 'cards-bundle.json'), 'utf8')).cards;

describe('revoking a leaked board key between B and C', () => {
  let port = 0;
  let origin = '';
  const ids: string[] = [];
  const seeds: string[] = [];
  let instant = '';
  let revokeOut = '';
  let app: ReturnType<typeof buildApp>;
  const publish = async (corpus: string) => {
    const r = await gspc(['publish', corpus, '--data-dir', data, '--public-url', origin]);
    assert.equal(r.status, 0, r.stderr);
    ids.push(/^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!);
  };

  before(async () => {
    port = await freePort();
    origin = `http://localhost:${port}`;
    const later = demoCopy();
    const boardFile = join(later, 'board.json');
    const meta = JSON.parse(readFileSync(boardFile, 'utf8')) as { as_of: string };
    meta.as_of = '2026-11-21T00:00:00Z';
    writeFileSync(boardFile, `${JSON.stringify(meta, null, 2)}\n`);

    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    await publish(demoCorpus); // A, signed by k1
    seeds.push(boardSeed());
    assert.equal((await gspc(['keys', 'rotate', 'board', '--data-dir', data])).status, 0);
    await publish(demoCorpus); // B, signed by k2
    seeds.push(boardSeed());
    await sleep(50);
    instant = new Date().toISOString(); // k2 leaks here
    await sleep(50);
    assert.equal((await gspc(['keys', 'rotate', 'agent-card', '--data-dir', data])).status, 0);
    await publish(later); // C: new cards, signed by k2 after the leak
    const r = await gspc(['keys', 'revoke', 'board-attestation-1', '--compromised-since', instant, '--data-dir', data]);
    assert.equal(r.status, 0, r.stderr);
    revokeOut = r.stdout;
    await publish(demoCorpus); // D: the revocation logged, signed by k3

    app = buildApp({
      state: new ServedState(
        loadRelease(join(data, 'releases', ids[3]!)),
        liveOf(signingContext(keyDir, `localhost:${port}`)),
      ),
      logLevel: 'silent',
      baseUrl: origin,
    });
    await app.listen({ host: '127.0.0.1', port });
    assert.equal((app.server.address() as AddressInfo).port, port);
  });
  after(() => app?.close());

  it('keys revoke says which checkpoints were made before the instant and what it trusts', () => {
    assert.match(
      revokeOut,
      /^revoked board-attestation-1 \(x=[\w-]{43}\), compromised since .*: transition [0-9a-f]{64}/,
    );
    assert.match(revokeOut, /size 36: .*\(made before the compromise\)/);
    assert.match(revokeOut, /size 37: .*\(made before the compromise\)/);
    assert.doesNotMatch(revokeOut, /size 7\d: .*made before/);
    assert.match(revokeOut, /stays valid only where the log holds it among its first 37 entries/);
  });

  it('D was verified before it went live; gspc verify of it served names the revocation and does not rely on C’s checkpoint', async () => {
    const v = await gspc(['verify', origin, '--json']);
    assert.equal(v.status, 0, v.stdout);
    const checks = new Map((JSON.parse(v.stdout) as Json).checks.map((c: Json) => [c.check, c]));
    const revoked = checks.get('key_revocations') as Json;
    assert.ok(revoked?.ok, JSON.stringify(revoked));
    assert.match(revoked.detail, /what it signed stands only among the first 37 log entries/);
    const consistency = checks.get('log_consistency') as Json;
    assert.match(
      consistency.detail,
      /^3 earlier checkpoints, each consistent with size \d+; signed by a revoked key after its compromise, so their signatures are not relied on: size 7\d$/,
    );
  });

  it('the DID document marks k2 revoked; k1 is retired, not revoked', async () => {
    const did = (await (await fetch(`${origin}/.well-known/did.json`)).json()) as Json;
    const method = (id: string) => did.verificationMethod.find((m: Json) => m.id.endsWith(`#${id}`));
    assert.equal(method('board-attestation-1~2').retired.revoked.trusted_size, 37);
    assert.equal(method('board-attestation-1~2').retired.revoked.compromised_since, instant);
    assert.equal(method('board-attestation-1~1').retired.revoked, undefined);
    const x = (seed: string) => keyPairFromSeed(Buffer.from(seed, 'base64url')).publicKey.toString('base64url');
    assert.equal(method('board-attestation-1~1').publicKeyJwk.x, x(seeds[0]!));
    assert.equal(method('board-attestation-1~2').publicKeyJwk.x, x(seeds[1]!));
  });

  it('POST /api/verify: A’s and B’s copies of a card stay VALID; C’s copy of its new card is INVALID (revoked)', async () => {
    const verify = async (card: Json) =>
      (await (
        await fetch(`${origin}/api/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(card),
        })
      ).json()) as Json;
    const [a, b, c] = [bundleOf(ids[0]!), bundleOf(ids[1]!), bundleOf(ids[2]!)];
    const fromA = (await verify(a[0])).results[0];
    assert.equal(fromA.result, 'VALID', JSON.stringify(fromA.reasons));
    assert.match(
      fromA.checks.find((x: Json) => x.check === 'signature').detail,
      /board-attestation-1~1, the key its signer had before a rotation/,
    );
    const fromB = (await verify(b[0])).results[0];
    assert.equal(fromB.result, 'VALID', JSON.stringify(fromB.reasons));
    assert.match(
      fromB.checks.find((x: Json) => x.check === 'signature').detail,
      /board-attestation-1~2, revoked since .*, and the log holds the card as entry \d+, among the 37/,
    );
    const fromC = (await verify(c.find((x: Json) => !b.some((y: Json) => y.sha256 === x.sha256)))).results[0];
    assert.equal(fromC.result, 'INVALID');
    assert.match(
      fromC.checks.find((x: Json) => x.check === 'signature').detail,
      /^revoked: signed by did:web:localhost%3A\d+#board-attestation-1~2, which was compromised since .*not among the 37 logged before then$/,
    );
  });

  it('POST /api/receipts/verify: the thief’s backdated receipt is INVALID (revoked); k1’s receipt from before its rotation is VALID', async () => {
    const did = `did:web:localhost%3A${port}`;
    const receipt = (seed: string, issuedAt: number) => {
      const pair = keyPairFromSeed(Buffer.from(seed, 'base64url'));
      const signer = {
        kid: `${did}#board-attestation-1`,
        publicKey: pair.publicKey,
        sign: (m: Uint8Array) => sign(pair.privateKey, m),
      };
      return signReceipt(
        { network: 'eip155:8453', resourceUrl: `${origin}/api/x`, payer: '0x1', issuedAt, transaction: '0xab' },
        signer,
      ).signature;
    };
    const check = async (jws: string) =>
      (await (
        await fetch(`${origin}/api/receipts/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jws }),
        })
      ).json()) as Json;
    const stolen = await check(receipt(seeds[1]!, Math.floor(Date.parse('2026-01-01T00:00:00Z') / 1000)));
    assert.equal(stolen.result, 'INVALID');
    assert.match(stolen.reason, /^revoked: signed by .*#board-attestation-1~2, which was compromised since/);
    const early = await check(receipt(seeds[0]!, Math.floor(Date.parse('2026-01-01T00:00:00Z') / 1000)));
    assert.equal(early.result, 'VALID', early.reason);
  });

  it('B (signed by k2 before the leak) may still be served; C (signed by k2 after it) is refused, saying why', () => {
    const signing = signingContext(keyDir, `localhost:${port}`);
    const where = { keyDir, replica: false, transitions: signing.keys.transitions };
    requireReleaseKeys(loadRelease(join(data, 'releases', ids[1]!)), signing.keys.published, where);
    assert.throws(
      () => requireReleaseKeys(loadRelease(join(data, 'releases', ids[2]!)), signing.keys.published, where),
      /was signed with board-attestation-1: x=[\w-]{43}, revoked as compromised since .*, beyond the 37 log entries made before then: its signatures read INVALID \(revoked\)\. Fix: publish its corpus again/,
    );
  });

  it('every release still verifies as a directory, B and C included', async () => {
    for (const id of ids) assert.equal((await gspc(['verify', join(data, 'releases', id)])).status, 0, id);
  });

  it('the browser verifier at /gspc-verify finds every served card VALID', { skip: browserMissing() }, async () => {
    const { result, text, errors, offOrigin } = await verifyServedInBrowser(origin);
    assert.equal(result, 'VALID', text);
    assert.deepEqual([errors, offOrigin], [[], []]);
  });

  it('/gspc-verify in the reader’s browser reads the pasted copies and the thief’s receipt as the service does', {
    skip: browserMissing(),
  }, async () => {
    const { page, errors, offOrigin } = await openPage();
    await page.goto(`${origin}/gspc-verify`);
    await page.waitForSelector('body[data-verify-ready="true"]');
    const outcome = async (box: string) => {
      const el = page.locator(`${box}[data-state="done"], ${box}[data-state="error"]`);
      await el.waitFor({ timeout: 30_000 });
      return { result: await el.getAttribute('data-result'), text: await el.innerText() };
    };
    const pasteCard = async (card: Json) => {
      await page.fill('#card-json', JSON.stringify(card));
      await page.click('#verify-paste button[type="submit"]');
      return outcome('#verify-result');
    };
    const [b, c] = [bundleOf(ids[1]!), bundleOf(ids[2]!)];
    const fromB = await pasteCard(b[0]);
    assert.equal(fromB.result, 'VALID', fromB.text);
    const fromC = await pasteCard(c.find((x: Json) => !b.some((y: Json) => y.sha256 === x.sha256)));
    assert.equal(fromC.result, 'INVALID');
    assert.match(fromC.text, /revoked: signed by .*#board-attestation-1~2, which was compromised since/);
    const pair = keyPairFromSeed(Buffer.from(seeds[1]!, 'base64url'));
    const jws = signReceipt(
      {
        network: 'eip155:8453',
        resourceUrl: `${origin}/api/x`,
        payer: '0x1',
        issuedAt: 1_767_225_600,
        transaction: '0xab',
      },
      {
        kid: `did:web:localhost%3A${port}#board-attestation-1`,

        sign: (m: Uint8Array) => sign(pair.privateKey, m),
      },
    ).signature;
    await page.fill('#jws-text', jws);
    await page.click('#verify-jws button[type="submit"]');
    const stolen = await outcome('#jws-result');
    assert.equal(stolen.result, 'INVALID');
    assert.match(stolen.text, /revoked: signed by .*#board-attestation-1~2/);
    assert.deepEqual([errors, offOrigin], [[], []]);
  });

  it('refused, writing nothing: an instant without a zone or that does not exist, a later instant, a retired key that does not exist', async () => {
    const before = readFileSync(join(keyDir, 'transitions.json'), 'utf8');
    for (const instant of [
      '2026-11-20T00:00:00',
      '2026-02-30T00:00:00Z',
      '2026-11-20T24:00:00Z',
      '2026-11-20T23:59:60Z',
      '2026-11-20T10:00:00+24:00',
    ]) {
      const bad = await gspc([
        'keys',
        'revoke',
        'board-attestation-1',
        '--compromised-since',
        instant,
        '--data-dir',
        data,
      ]);
      assert.equal(bad.status, 2, instant);
      assert.match(bad.stderr, /is not an ISO 8601 instant with seconds and a zone that exists/, instant);
    }
    const future = await gspc([
      'keys',
      'revoke',
      'board-attestation-1',
      '--compromised-since',
      '2999-01-01T00:00:00Z',
      '--data-dir',
      data,
    ]);
    assert.match(future.stderr, /is later than now/);
    const absent = await gspc([
      'keys',
      'revoke',
      'card-attestation-2~4',
      '--compromised-since',
      instant,
      '--data-dir',
      data,
    ]);
    assert.match(absent.stderr, /card-attestation-2 has retired keys ~1 to ~1/);
    const unknown = await gspc(['keys', 'revoke', 'root-key', '--compromised-since', instant, '--data-dir', data]);
    assert.match(unknown.stderr, /names none of this service's keys/);
    assert.equal(readFileSync(join(keyDir, 'transitions.json'), 'utf8'), before);
    assert.equal(existsSync(join(keyDir, 'pending.json')), false);
  });
});
