/**
 * Keys that never touch the disk (issue 30): with GSPC_SIGNER=pkcs11 every signature goes
 * through a SoftHSM2 token (Debian's softhsm2, through pkcs11js). Publish signs the release on
 * the token and verifies it before it goes live; the served board, DID document and agent card
 * name the token's public keys; `gspc verify` of the served URL passes; the official x402
 * client pays on the local chain for a commission receipt whose offer and receipt the token
 * signed; and no private key file is anywhere under the data directory (its ledger included). A wrong PIN, a PIN file others may read (decision CL3)
 * and a token without the keys are refused with the reason. The identity root (issue 36) is a file beside the token: keygen makes only it, and
 * it is published and rotated as without a token. Skips, saying why, without SoftHSM2 or the binding.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { liveOf } from '../../src/service.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import {
  extractReceiptFromResponse,
  verifyReceiptSignatureJWS,
  type JWSSignedReceipt,
} from '@x402/extensions/offer-receipt';
import { payingFetch, startLocalRail, type LocalRail } from '../../demo/local-rail/index.js';
import { readRailConfig } from '../../src/config.js';
import type { Ledger } from '../../src/store/ledger.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { noAnvil } from '../helpers/chain.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { softhsmMissing, softhsmToken, SOFTHSM_MODULE } from '../helpers/softhsm.js';
import { demoCorpus, filesUnder, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
type Json = any;

const missing = softhsmMissing();

describe('signing through a PKCS#11 token (SoftHSM2)', { skip: missing }, () => {
  const token = missing ? undefined : softhsmToken(['board-attestation-1', 'card-attestation-1', 'card-attestation-2']);
  const data = tempDir();
  let port = 0;
  let origin = '';
  let releaseId = '';

  before(async () => {
    port = await freePort();
    origin = `http://localhost:${port}`;
  });

  it('publish signs on the token and verifies the release before it goes live, with no key directory', async () => {
    const r = await gspc(['publish', demoCorpus, '--data-dir', data, '--public-url', origin], token!.env);
    assert.equal(r.status, 0, r.stderr);
    releaseId = /^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!;
    const v = await gspc(['verify', join(data, 'releases', releaseId)]);
    assert.equal(v.status, 0, v.stdout);
  });

  describe('served, and paid on the local chain', () => {
    let app: ReturnType<typeof buildApp>;
    let rail: LocalRail | undefined;
    let ledger: Ledger;
    before(async () => {
      rail = noAnvil() ? undefined : await startLocalRail();
      ledger = await openLedger({ sqlitePath: join(data, 'ledger.sqlite') });
      const signing = signingContext(join(data, 'keys'), `localhost:${port}`, {
        module: SOFTHSM_MODULE,
        token: token!.token,
        pinFile: token!.pinFile,
      });
      assert.deepEqual(
        signing.keys.health.map((h) => h.healthy),
        [true, true, true],
      );
      app = buildApp({
        state: new ServedState(loadRelease(join(data, 'releases', releaseId)), liveOf(signing)),
        logLevel: 'silent',
        baseUrl: origin,
        ledger,
        products: {
          rail: readRailConfig(
            rail
              ? { GSPC_PAY_TO: rail.payTo.address, GSPC_FACILITATOR_URL: rail.facilitatorUrl!, GSPC_ASSET: rail.usdc }
              : {},
          ),
          facilitatorTimeoutMs: 5_000,
        },
      });
      await app.listen({ host: '127.0.0.1', port });
      assert.equal((app.server.address() as AddressInfo).port, port);
    });
    after(async () => {
      await app.close();
      await ledger.close();
      await rail?.stop();
    });

    it('pay: @x402/fetch buys a commission receipt whose offer and receipt the token signed; both receipt verifiers say VALID', {
      skip: noAnvil(),
    }, async () => {
      const index = (await (await fetch(`${origin}/cards/index.json`)).json()) as Json;
      const subject = index.cards.find((c: Json) => c.surface === 'board.measurement').subject as string;
      const url = `${origin}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
      const challenge = (await (await fetch(url)).json()) as Json;
      assert.equal(challenge.svc.signer.receipt_will_be, 'SIGNED');
      const res = await payingFetch(rail!)(url);
      assert.equal(res.status, 200, await res.clone().text());
      const receipt = extractReceiptFromResponse(res) as JWSSignedReceipt;
      // @x402/extensions resolves did:web:localhost%3A<port> over HTTP: the token's public key.
      const payload = await verifyReceiptSignatureJWS(receipt);
      assert.equal(payload.resourceUrl, url);
      const checked = (await (
        await fetch(`${origin}/api/receipts/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jws: receipt.signature }),
        })
      ).json()) as Json;
      assert.equal(checked.result, 'VALID', checked.reason);
      assert.equal(checked.reason, 'signature verifies under the resolved key');
      assert.equal(checked.header.kid, `did:web:localhost%3A${port}#board-attestation-1`);
    });

    it('gspc verify of the served URL passes: cards, root, checkpoint, board attestation and agent card signed on the token', async () => {
      const v = await gspc(['verify', origin, '--json']);
      assert.equal(v.status, 0, v.stdout);
      const board = (await (await fetch(`${origin}/api/gspc`)).json()) as Json;
      assert.equal(board.measured_on.living_stamp.verification_state, 'VERIFIED');
      const card = (await (await fetch(`${origin}/.well-known/agent-card.json`)).json()) as Json;
      assert.ok(Array.isArray(card.signatures) && card.signatures.length === 1, 'the agent card is signed');
    });

    it('the DID document names the keys the release recorded: the token public keys', async () => {
      const did = (await (await fetch(`${origin}/.well-known/did.json`)).json()) as Json;
      const recorded = loadRelease(join(data, 'releases', releaseId)).evidence.files.get('evidence/public-keys.json')!;
      const keys = (JSON.parse(recorded.toString('utf8')) as Json).keys as { fragment: string; x: string }[];
      assert.deepEqual(
        did.verificationMethod.map((m: Json) => [m.id.split('#')[1], m.publicKeyJwk.x]),
        keys.map((k) => [k.fragment, k.x]),
      );
    });
  });

  it('no private key file anywhere under the data directory', () => {
    const all = filesUnder(data);
    assert.ok(all.length > 50, 'the release is there');
    assert.deepEqual(
      all.filter((f) => f.endsWith('.key') || f.includes('/keys/')),
      [],
    );
  });

  it('refused with the reason: a wrong PIN, a token without the keys, and keys rotate or revoke of a token key', async () => {
    const wrongPin = join(tempDir(), 'pin');
    writeFileSync(wrongPin, '000000\n', { mode: 0o600 });
    const r = await gspc(['publish', demoCorpus, '--data-dir', tempDir(), '--public-url', origin], {
      ...token!.env,
      GSPC_PKCS11_PIN_FILE: wrongPin,
      GSPC_PKCS11_TOKEN: 'no-such-token',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /GSPC_PKCS11_TOKEN: no token labelled 'no-such-token'/);
    const pin = await gspc(['publish', demoCorpus, '--data-dir', tempDir(), '--public-url', origin], {
      ...token!.env,
      GSPC_PKCS11_PIN_FILE: wrongPin,
    });
    assert.equal(pin.status, 2);
    assert.match(pin.stderr, /the token 'gspc-test' refused the PIN in .*pin/);
    // The right PIN, in a file everyone may read: refused before the token is logged into, nothing published.
    const openPin = join(tempDir(), 'pin');
    writeFileSync(openPin, readFileSync(token!.pinFile), { mode: 0o644 });
    chmodSync(openPin, 0o644);
    const openData = tempDir();
    const open = await gspc(['publish', demoCorpus, '--data-dir', openData, '--public-url', origin], {
      ...token!.env,
      GSPC_PKCS11_PIN_FILE: openPin,
    });
    assert.equal(open.status, 2, open.stdout);
    assert.equal(
      open.stderr.split('\n')[0],
      `gspc: GSPC_PKCS11_PIN_FILE ${openPin} is readable or writable by group or others (mode 644): whoever reads it can sign with the token's keys. Make it the service user's alone (chmod 600 ${openPin}); the token was not used`,
    );
    assert.equal(existsSync(join(openData, 'releases')), false, 'nothing published');
    const rotate = await gspc(['keys', 'rotate', 'board', '--data-dir', data], token!.env);
    assert.equal(rotate.status, 2);
    assert.match(rotate.stderr, /rotating or revoking a token's key is not supported yet/);
    const revoke = await gspc(
      ['keys', 'revoke', 'board-attestation-1', '--compromised-since', '2026-11-01T00:00:00Z', '--data-dir', data],
      token!.env,
    );
    assert.equal(revoke.status, 2);
    assert.match(revoke.stderr, /GSPC_SIGNER=pkcs11: keys revoke replaces key files/);
    const incomplete = await gspc(['publish', demoCorpus, '--data-dir', tempDir(), '--public-url', origin], {
      ...token!.env,
      GSPC_PKCS11_PIN_FILE: '',
    });
    assert.equal(incomplete.status, 2);
    assert.match(incomplete.stderr, /GSPC_SIGNER=pkcs11 needs GSPC_PKCS11_TOKEN .* and GSPC_PKCS11_PIN_FILE/);
  });

  it('the identity root beside a token is a file (decision K8): keygen makes only it, publish names it in the DID document, and it rotates', async () => {
    const rooted = tempDir();
    const made = await gspc(['keygen', '--data-dir', rooted], token!.env);
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, /the signing keys are the token 'gspc-test''s/);
    assert.match(made.stderr, /IMPORTANT: the identity root's seed is .*identity-root\.key/);
    assert.deepEqual(
      filesUnder(rooted).filter((f) => f.endsWith('.key')),
      [join(rooted, 'keys', 'identity-root.key')],
      'no signing key file: those are on the token',
    );
    const rootFile = join(tempDir(), 'root.key');
    renameSync(join(rooted, 'keys', 'identity-root.key'), rootFile);
    const published = await gspc(['publish', demoCorpus, '--data-dir', rooted, '--public-url', origin], token!.env);
    assert.equal(published.status, 0, published.stderr);
    const id = /^published (r-[0-9a-f]{20})/.exec(published.stdout)![1]!;
    const recorded = JSON.parse(
      readFileSync(join(rooted, 'releases', id, 'evidence', 'public-keys.json'), 'utf8'),
    ) as Json;
    assert.deepEqual(
      recorded.keys.map((k: Json) => k.fragment),
      ['board-attestation-1', 'card-attestation-1', 'card-attestation-2', 'identity-root'],
    );
    const rotated = await gspc(
      ['keys', 'rotate', 'identity-root', '--root-key', rootFile, '--data-dir', rooted],
      token!.env,
    );
    assert.equal(rotated.status, 0, rotated.stderr);
    assert.match(rotated.stdout, /^rotated identity-root, pending until the next publish/);
    const again = await gspc(['publish', demoCorpus, '--data-dir', rooted, '--public-url', origin], token!.env);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /the pending key change is published/);
    const next = /^published (r-[0-9a-f]{20})/.exec(again.stdout)![1]!;
    const v = await gspc(['verify', join(rooted, 'releases', next)]);
    assert.equal(v.status, 0, v.stdout);
  });
});
