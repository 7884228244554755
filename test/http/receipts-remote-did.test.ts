/**
 * Receipts signed by another service: keys resolve from the DID document of a did:web host the
 * operator allow-lists (GSPC_TRUSTED_DID_HOSTS), fetched over real HTTP from a local partner
 * service; any other DID is UNVERIFIABLE_KEY with no fetch at all.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { signCompactJws } from '../../src/core/crypto/jws.js';
import { didDocument, didForHost } from '../../src/core/evidence/did.js';
import { buildApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import type { GspcError } from '../../src/core/errors.js';
import { demoApp } from '../helpers/app.js';

const partnerKey = keyPairFromSeed(Buffer.alloc(32, 21));
let requests = 0;
let mode: 'ok' | 'huge' | 'down' = 'ok';
const partner = createServer((req, res) => {
  requests++;
  const port = (partner.address() as AddressInfo).port;
  const did = didForHost(`localhost:${port}`);
  if (req.url !== '/.well-known/did.json' || mode === 'down') {
    res.writeHead(mode === 'down' ? 503 : 404).end();
    return;
  }
  if (mode === 'huge') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"id":"${did}","pad":"${'x'.repeat(70_000)}"}`);
    return;
  }
  res
    .writeHead(200, { 'content-type': 'application/did+json' })
    .end(JSON.stringify(didDocument(did, [{ fragment: 'board-attestation-1', publicKey: partnerKey.publicKey }])));
});
await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
after(() => partner.close());
const partnerHost = `localhost:${(partner.address() as AddressInfo).port}`;
const partnerDid = didForHost(partnerHost);

const receipt = (kid: string, resourceUrl = `http://${partnerHost}/api/x`) =>
  signCompactJws(
    // A receipt of the offer-receipt extension (a payload that is neither offer nor receipt is
    // not VALID as a receipt, issue 37).
    {
      version: 1,
      network: 'eip155:8453',
      resourceUrl,
      payer: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      issuedAt: 1_800_000_000,
      transaction: '0xabc',
      amount: '10000',
    },
    { kid, sign: (m) => sign(partnerKey.privateKey, m) },
  );

function appWith(trusted: string[]) {
  const { state } = demoApp();
  const app = buildApp({ state, logLevel: 'silent', trustedDidHosts: trusted });
  after(() => app.close());
  return Object.assign(
    async (jws: string) => (await app.inject({ method: 'POST', url: '/api/receipts/verify', payload: { jws } })).json(),
    { app, state },
  );
}

describe('POST /api/receipts/verify with an operator allow-list of DID hosts', () => {
  it('a receipt signed by an allow-listed partner is VALID; the document is fetched once and cached', async () => {
    mode = 'ok';
    const verify = appWith([partnerHost]);
    const before = requests;
    const r = await verify(receipt(`${partnerDid}#board-attestation-1`));
    assert.equal(r.result, 'VALID', r.reason);
    assert.equal((await verify(receipt(`${partnerDid}#board-attestation-1`))).result, 'VALID');
    assert.equal(requests - before, 1);
  });

  it('a kid the partner document does not list is INVALID; a tampered receipt is INVALID', async () => {
    mode = 'ok';
    const verify = appWith([partnerHost]);
    assert.equal((await verify(receipt(`${partnerDid}#card-attestation-9`))).result, 'INVALID');
    const good = receipt(`${partnerDid}#board-attestation-1`);
    const [h, , s] = good.split('.');
    const forged = `${h}.${Buffer.from('{"amount":"99999","schema":"svc.receipt/1","tx":"0xabc"}').toString('base64url')}.${s}`;
    assert.equal((await verify(forged)).result, 'INVALID');
  });

  it('without the allow-list the same receipt is UNVERIFIABLE_KEY and nothing is fetched', async () => {
    const verify = appWith([]);
    const before = requests;
    const r = await verify(receipt(`${partnerDid}#board-attestation-1`));
    assert.equal(r.result, 'UNVERIFIABLE_KEY');
    assert.match(r.reason, /allow-list/);
    assert.equal(requests, before);
  });

  it('a partner that is down or serves an oversized document gives UNVERIFIABLE_KEY, never VALID', async () => {
    mode = 'down';
    assert.equal(
      (await appWith([partnerHost])(receipt(`${partnerDid}#board-attestation-1`))).result,
      'UNVERIFIABLE_KEY',
    );
    mode = 'huge';
    const r = await appWith([partnerHost])(receipt(`${partnerDid}#board-attestation-1`));
    assert.equal(r.result, 'UNVERIFIABLE_KEY');
    assert.match(r.reason, /larger than/);
    mode = 'ok';
  });

  it("a partner's receipt for this service's URL, or any host but its own, is INVALID: a partner cannot sign receipts for our resources (issue 37 review)", async () => {
    mode = 'ok';
    const verify = appWith([partnerHost]);
    const ours = `http://${verify.state.signingLive().did.slice('did:web:'.length).replace('%3A', ':')}/api/request-attestation?subject=m`;
    for (const url of [ours, 'https://partner.example/api/x', 'not a url']) {
      const r = await verify(receipt(`${partnerDid}#board-attestation-1`, url));
      assert.equal(r.result, 'INVALID', `${url}: ${r.reason}`);
      assert.match(r.reason, /signs only for its own host/);
    }
    assert.equal((await verify(receipt(`${partnerDid}#board-attestation-1`))).result, 'VALID');
  });

  it('a body that is not what the route accepts is 415 unsupported_media_type, never read as the JWS (issue 37 review)', async () => {
    const { app } = appWith([partnerHost]);
    const jws = receipt(`${partnerDid}#board-attestation-1`);
    for (const headers of [
      {},
      // What fetch sends for a string body without a content type.
      { 'content-type': 'text/plain;charset=UTF-8' },
      { 'content-type': 'application/octet-stream' },
      { 'content-type': 'text/html' },
    ]) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/receipts/verify',
        headers,
        payload: Buffer.from(JSON.stringify({ jws })),
      });
      assert.equal(r.statusCode, 415, `${JSON.stringify(headers)}: ${r.body}`);
      assert.equal(r.json().code, 'unsupported_media_type');
    }
    const plain = await app.inject({
      method: 'POST',
      url: '/api/receipts/verify',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      payload: jws,
    });
    assert.equal(plain.json().result, 'VALID');
  });

  it('GSPC_TRUSTED_DID_HOSTS is validated at start: an IP address or a URL is config_invalid', () => {
    assert.deepEqual(readConfig({ GSPC_TRUSTED_DID_HOSTS: ' partner.example, localhost:9090 ' }).trustedDidHosts, [
      'partner.example',
      'localhost:9090',
    ]);
    for (const bad of ['10.0.0.1', 'https://partner.example', 'a b']) {
      assert.throws(
        () => readConfig({ GSPC_TRUSTED_DID_HOSTS: bad }),
        (e: GspcError) => e.code === 'config_invalid',
      );
    }
  });
});
