/**
 * The /gspc-verify page's shared parts, in Node (no browser): the WebCrypto adapter agrees with
 * node:crypto on the shared vectors; the browser-safe tree roots equal the Node trees; the
 * context the page builds from the public files gives the same verdicts as POST /api/verify; and
 * the browser-safe JWS verifier gives the same results and reasons as the reference verifier.
 */
import assert from 'node:assert/strict';
import { createHash, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readRailConfig } from '../../src/config.js';
import { buildApp } from '../../src/app.js';
import {
  verifyCompactJws,
  KID_NOT_LISTED,
  type KeyResolution,
  type ReceiptVerification,
} from '../../src/core/crypto/receipt-verifier.js';
import { JWS_ALG, SIGNATURE_DOES_NOT_VERIFY } from '../../src/core/crypto/jws.js';
import { decodeBase64url } from '../../src/core/crypto/base64url.js';
import { rawFromJwk as rawFromJwkNode } from '../../src/core/crypto/jwk.js';
import { logLeaves, logOrigin } from '../../src/core/evidence/card-log.js';
import type { CardFile } from '../../src/core/evidence/card.js';
import { DupTree } from '../../src/core/evidence/merkle/dup-tree.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { rootLeaves } from '../../src/core/evidence/public-root.js';
import type { CardVerdict } from '../../src/core/verify/card-verifier.js';
import { verifyCard } from '../../src/core/verify/card-verifier.js';
import * as twin from '../../src/core/crypto/jws-verifier.js';
import {
  contextForBundle,
  cardsOfDocument,
  loadServiceContext,
  logOriginOf,
  verifyCards,
  type PublicFiles,
} from '../../src/core/verify/service-context.js';
import { dupRootHex, logRootHex } from '../../src/core/verify/tree-roots.js';
import { primitivesWork, webVerifyCrypto } from '../../src/core/verify/web-crypto.js';
import type { VerifyCrypto } from '../../src/core/crypto/verify-crypto.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';
import { demoApp } from '../helpers/app.js';
import { vectorPath } from '../helpers/repo.js';
import { receipt, receiptSignedBy, resealed, strangerKey, tampered, withPayload } from './verify-fixtures.js';

const web = webVerifyCrypto(webcrypto.subtle as never);
const ADAPTERS: [string, VerifyCrypto][] = [
  ['node:crypto', nodeVerifyCrypto],
  ['WebCrypto', web],
];
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function vector<T>(dir: string, name: string): T {
  const bytes = readFileSync(vectorPath(dir, name));
  // Pinned in test/vectors/SHA256SUMS: a changed file must fail here.
  const sums = readFileSync(vectorPath('SHA256SUMS'), 'utf8');
  assert.ok(
    sums.includes(`${createHash('sha256').update(bytes).digest('hex')}  ${dir}/${name}`),
    `${dir}/${name} differs from SHA256SUMS`,
  );
  return JSON.parse(bytes.toString('utf8')) as T;
}

describe('the browser crypto adapter (WebCrypto) agrees with node:crypto on the shared vectors', () => {
  it('both pass the self-test the page runs before checking anything', async () => {
    for (const [name, c] of ADAPTERS) assert.equal(await primitivesWork(c), true, name);
    assert.equal(
      await primitivesWork({ ...web, ed25519Verify: async () => true }),
      false,
      'an Ed25519 that accepts everything fails the self-test',
    );
    assert.equal(
      await primitivesWork({
        ...web,
        ed25519Verify: async () => {
          throw new Error('unsupported');
        },
      }),
      false,
    );
  });

  it('RFC 8032 §7.1: every vector verifies, and a 1-bit change of signature or message does not', async () => {
    const { vectors } = vector<{ vectors: { name: string; public_key: string; message: string; signature: string }[] }>(
      'ed25519',
      'rfc8032_section7.1.json',
    );
    assert.equal(vectors.length, 4);
    for (const v of vectors) {
      for (const [name, c] of ADAPTERS) {
        assert.equal(
          await c.ed25519Verify(hex(v.public_key), hex(v.message), hex(v.signature)),
          true,
          `${v.name} ${name}`,
        );
        const bent = hex(v.signature);
        bent[63] = bent[63]! ^ 0x10;
        assert.equal(await c.ed25519Verify(hex(v.public_key), hex(v.message), bent), false, `${v.name} ${name} bent`);
        assert.equal(
          await c.ed25519Verify(hex(v.public_key), Uint8Array.from([...hex(v.message), 0]), hex(v.signature)),
          false,
        );
      }
    }
  });

  it('Wycheproof ed25519_test.json: both give verify === (result === "valid") on all 151 cases', async () => {
    const file = vector<{
      testGroups: { publicKey: { pk: string }; tests: { tcId: number; msg: string; sig: string; result: string }[] }[];
    }>('ed25519', 'wycheproof_ed25519_test.json');
    let n = 0;
    for (const g of file.testGroups) {
      for (const t of g.tests) {
        const want = t.result === 'valid';
        for (const [name, c] of ADAPTERS)
          assert.equal(
            await c.ed25519Verify(hex(g.publicKey.pk), hex(t.msg), hex(t.sig)),
            want,
            `tcId ${t.tcId} ${name}`,
          );
        n++;
      }
    }
    assert.equal(n, 151);
  });

  it('ed25519-speccheck: both give the OpenSSL/Go/BoringSSL pattern VVVVXXXXXXXV', async () => {
    const cases = vector<{ message: string; pub_key: string; signature: string }[]>('ed25519', 'speccheck_cases.json');
    for (const [name, c] of ADAPTERS) {
      let pattern = '';
      for (const k of cases)
        pattern += (await c.ed25519Verify(hex(k.pub_key), hex(k.message), hex(k.signature))) ? 'V' : 'X';
      assert.equal(pattern, 'VVVVXXXXXXXV', name);
    }
  });

  it('keys and signatures of the wrong length are a failed verify, never an exception', async () => {
    for (const [name, c] of ADAPTERS) {
      assert.equal(await c.ed25519Verify(new Uint8Array(31), new Uint8Array(1), new Uint8Array(64)), false, name);
      assert.equal(
        await c.ed25519Verify(
          hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'),
          new Uint8Array(0),
          new Uint8Array(63),
        ),
        false,
        name,
      );
    }
  });

  it('SHA-256: both equal node:crypto on the JCS outputs and on inputs of 0..200 bytes', async () => {
    const inputs: Uint8Array[] = ['arrays', 'french', 'structures', 'unicode', 'values', 'weird'].map((f) =>
      readFileSync(vectorPath('jcs', 'output', `${f}.json`)),
    );
    for (let n = 0; n <= 200; n++) inputs.push(Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff));
    for (const b of inputs) {
      const want = createHash('sha256').update(b).digest('hex');
      for (const [name, c] of ADAPTERS) assert.equal(Buffer.from(await c.sha256(b)).toString('hex'), want, name);
    }
  });
});

describe('the browser-safe tree roots equal the Node trees', () => {
  it('public root (duplicate-odd-node) and card log (RFC 6962) for 0..70 leaves and 1,000', async () => {
    for (const n of [...Array.from({ length: 71 }, (_, i) => i), 1000]) {
      const cards = Array.from({ length: n }, (_, i) => sha(`card ${n} ${i}`));
      const dup = Buffer.from(new DupTree(rootLeaves(cards)).root()).toString('hex');
      const log = Buffer.from(new MerkleTree(logLeaves(cards)).root()).toString('hex');
      for (const [name, c] of ADAPTERS) {
        assert.equal(await dupRootHex(c, [...cards].reverse()), dup, `dup n=${n} ${name}`);
        assert.equal(await logRootHex(c, cards), log, `log n=${n} ${name}`);
      }
    }
    assert.equal(await dupRootHex(web, ['ABC']), undefined);
  });

  it('the log origin is the one the service signs under', () => {
    for (const did of ['did:web:localhost%3A8080', 'did:web:board.example.org'])
      assert.equal(logOriginOf(did), logOrigin(did));
  });
});

describe('the page context: the same verdicts as POST /api/verify', () => {
  const { app, state, signing } = demoApp();
  const files: PublicFiles = {
    async get(path) {
      const r = await app.inject({ method: 'GET', url: path });
      return r.statusCode === 404 ? undefined : Uint8Array.from(r.rawPayload);
    },
  };
  const release = state.current().release;
  const cards = [...release.evidence.cards.values()];
  const active = cards.find((c) => !release.evidence.withdrawn.has(c.sha256))!;
  const extra: [string, CardFile][] = [
    ['tampered', tampered(active)],
    ['signed by a key the DID does not list', resealed(active, strangerKey(`${signing.did}#card-attestation-9`))],
    ['signed by another key under a listed kid', resealed(active, strangerKey(`${signing.did}#card-attestation-1`))],
    ['signed by the service key, under no root', resealed(active, signing.keys.state('card-attestation-2'))],
  ];
  const server = async (card: unknown): Promise<CardVerdict> => {
    const r = await app.inject({ method: 'POST', url: '/api/verify', payload: card as object });
    assert.equal(r.statusCode, 200);
    return (r.json() as { results: CardVerdict[] }).results[0]!;
  };
  // The in_log detail differs only in how membership was shown (recomputed log vs one proof).
  const comparable = (v: CardVerdict) => ({
    result: v.result,
    sha256: v.sha256,
    checks: v.checks.map((c) => ({ check: c.check, ok: c.ok, detail: c.check === 'in_log' ? '' : c.detail })),
  });

  it('every card of the release (withdrawn ones too) and four bad cards, with either crypto adapter', async () => {
    assert.ok(release.evidence.withdrawn.size > 0, 'the demo has withdrawn cards');
    for (const [name, c] of ADAPTERS) {
      const svc = await loadServiceContext(files, c);
      assert.deepEqual(
        svc.checks.map((x) => [x.check, x.ok]),
        [
          ['did_document', true],
          ['root_signature', true],
          ['log_origin', true],
          ['log_checkpoint', true],
        ],
        name,
      );
      for (const [label, card] of [...cards.map((x) => [x.sha256.slice(0, 16), x] as [string, CardFile]), ...extra]) {
        assert.deepEqual(
          comparable(await verifyCard(card, svc.context, c)),
          comparable(await server(card)),
          `${label} (${name})`,
        );
      }
    }
    const svc = await loadServiceContext(files, web);
    const results = await Promise.all(extra.map(([, card]) => verifyCard(card, svc.context, web)));
    assert.deepEqual(
      results.map((v) => v.result),
      ['INVALID', 'INVALID', 'INVALID', 'INVALID'],
    );
    assert.match(results[0]!.reasons.join(), /content_address: hash mismatch/);
    assert.match(results[1]!.reasons.join(), /signature: key not in the DID document/);
    assert.match(results[2]!.reasons.join(), /signature: bad signature/);
    assert.deepEqual(
      results[3]!.checks.filter((x) => !x.ok).map((x) => x.check),
      ['under_root', 'in_log'],
    );
  });

  it('the whole bundle: the root recomputes, every card is VALID without a proof, in both adapters', async () => {
    const bundle = JSON.parse((await app.inject({ method: 'GET', url: '/cards-bundle.json' })).body) as unknown;
    const input = cardsOfDocument(bundle);
    assert.equal(input.kind, 'bundle');
    for (const [name, c] of ADAPTERS) {
      const svc = await loadServiceContext(files, c);
      let asked = 0;
      const counted = {
        ...svc,
        context: {
          ...svc.context,
          proofFor: (h: string) => {
            asked++;
            return svc.context.proofFor(h);
          },
        },
      };
      const { context, check } = await contextForBundle(counted, input.cards, c);
      assert.deepEqual([check.check, check.ok], ['root_recomputed', true], name);
      const verdicts = await verifyCards(input.cards, context, c, { concurrency: 8 });
      assert.equal(verdicts.length, release.evidence.root.leaf_count);
      assert.ok(
        verdicts.every((v) => v.result === 'VALID'),
        name,
      );
      assert.equal(asked, 0, 'no per-card proof is read for a bundle that recomputes the root');
      // A part of the bundle does not recompute the root: each card's proof is read instead.
      const part = await contextForBundle(counted, input.cards.slice(0, 3), c);
      assert.equal(part.check.ok, null);
      assert.ok((await verifyCards(input.cards.slice(0, 3), part.context, c)).every((v) => v.result === 'VALID'));
      assert.equal(asked, 3);
    }
  });

  it('what a pasted document holds', () => {
    assert.equal(cardsOfDocument(active).kind, 'card');
    assert.equal(cardsOfDocument([active, active]).kind, 'bundle');
    assert.equal(cardsOfDocument({ cards: [] }).kind, 'error');
    assert.equal(cardsOfDocument('x').kind, 'error');
    assert.equal(cardsOfDocument({ schema: 'other' }).kind, 'error');
  });
});

describe('the browser-safe JWS verifier gives the reference verifier’s results and reasons', () => {
  const { state, signing } = demoApp();
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: 'http://localhost:8080',
    now: () => new Date('2026-11-21T00:00:00Z'),
    products: { rail: readRailConfig({ GSPC_PAY_TO: `0x${'11'.repeat(20)}` }) },
  });
  const did = signing.did;
  const b64 = (v: string | Uint8Array) => Buffer.from(v).toString('base64url');

  it('the constants are the reference ones', () => {
    assert.equal(twin.JWS_ALG, JWS_ALG);
    assert.equal(twin.SIGNATURE_DOES_NOT_VERIFY, SIGNATURE_DOES_NOT_VERIFY);
    assert.equal(twin.KID_NOT_LISTED, KID_NOT_LISTED);
  });

  it('strict base64url and Ed25519 JWKs decode as the reference does', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ ';
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5000; i++) {
      const text = Array.from(
        { length: Math.floor(rnd() * 14) },
        () => alphabet[Math.floor(rnd() * (i % 2 ? 64 : alphabet.length))],
      ).join('');
      const a = decodeBase64url(text);
      const b = twin.decodeBase64urlStrict(text);
      assert.deepEqual(b === undefined ? undefined : Buffer.from(b), a, JSON.stringify(text));
    }
    const x = b64(new Uint8Array(32).fill(3));
    for (const jwk of [
      { kty: 'OKP', crv: 'Ed25519', x },
      { kty: 'OKP', crv: 'Ed25519', x, d: x },
      { kty: 'OKP', crv: 'Ed25519', x, use: 'enc' },
      { kty: 'OKP', crv: 'Ed25519', x, alg: 'ES256' },
      { kty: 'OKP', crv: 'Ed25519', x, alg: 'Ed25519' },
      { kty: 'OKP', crv: 'X25519', x },
      { kty: 'OKP', crv: 'Ed25519', x: x.slice(1) },
      null,
      [],
      'k',
    ]) {
      const a = rawFromJwkNode(jwk);
      const b = twin.rawFromJwk(jwk);
      assert.deepEqual(b === undefined ? undefined : Buffer.from(b), a, JSON.stringify(jwk));
    }
  });

  it('over valid, tampered and malformed offers and receipts, with the same key resolution, and against POST /api/receipts/verify', async () => {
    const model = [...state.current().release.evidence.cards.values()].find(
      (c) => c.surface === 'board.measurement',
    )!.subject;
    const challenge = await app.inject({
      method: 'GET',
      url: `/api/request-attestation?subject=${encodeURIComponent(model)}`,
    });
    assert.equal(challenge.statusCode, 402);
    const offer = (
      challenge.json() as { extensions: { 'offer-receipt': { info: { offers: { signature: string }[] } } } }
    ).extensions['offer-receipt'].info.offers[0]!.signature;
    const rcpt = receipt(signing.inputs.boardKey);
    const [h, p, s] = offer.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    const withHeader = (hd: unknown) => `${b64(JSON.stringify(hd))}.${p}.${s}`;
    const cases: [string, string][] = [
      ['offer', offer],
      ['receipt', rcpt],
      [
        'amount changed, payload still canonical',
        withPayload(
          offer,
          JSON.stringify(
            Object.fromEntries(Object.entries({ ...payload, amount: '1' }).sort(([a], [b]) => (a < b ? -1 : 1))),
          ),
        ),
      ],
      ['payload re-serialised with spaces', withPayload(offer, JSON.stringify(payload, null, 1))],
      ['signature changed', `${h}.${p}.${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`],
      ['signature with non-canonical trailing bits', `${h}.${p}.${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`],
      ['signature padded', `${offer}==`],
      ['short signature', `${h}.${p}.${b64(new Uint8Array(32))}`],
      ['two parts', `${h}.${p}`],
      ['empty', ''],
      ['alg none', withHeader({ ...header, alg: 'none' })],
      ['no alg', withHeader({ kid: header.kid })],
      ['no kid', withHeader({ alg: 'EdDSA' })],
      ['crit', withHeader({ ...header, crit: ['exp'] })],
      ['b64', withHeader({ ...header, b64: false })],
      ['header not JSON', `${b64('{alg')}.${p}.${s}`],
      ['header an array', `${b64('[]')}.${p}.${s}`],
      ['payload not JSON', withPayload(offer, 'not json')],
      ['payload with a BOM', withPayload(offer, `\ufeff${Buffer.from(p, 'base64url').toString('utf8')}`)],
      ['payload with a lone surrogate', withPayload(offer, '{"a":"\\ud800"}')],
      ['kid not listed', receiptSignedBy(`${did}#card-attestation-9`)],
      ['listed kid, other key', receiptSignedBy(`${did}#board-attestation-1`)],
      ['kid of another DID', receiptSignedBy('did:web:example.org#board-attestation-1')],
    ];
    const doc = JSON.parse((await app.inject({ method: 'GET', url: '/.well-known/did.json' })).body) as unknown;
    const resolve = twin.didDocumentResolver(doc);
    const seen = new Set<string>();
    // The restated types are the reference ones, both ways (checked by the compiler).
    const asReference: (kid: string) => Promise<KeyResolution> = resolve;
    const asTwin: (kid: string) => Promise<twin.KeyResolution> = asReference;
    for (const [label, jws] of cases) {
      const reference: twin.ReceiptVerification = await verifyCompactJws(jws, asReference);
      for (const [name, c] of ADAPTERS) {
        const mine: ReceiptVerification = await twin.verifyCompactJwsWith(jws, asTwin, c);
        assert.deepEqual(mine, reference, `${label} (${name})`);
      }
      // The service's own resolver: the same answers for this DID; another DID is never fetched.
      // The offer is checked as an offer: as a receipt it is never VALID (issue 37).
      const r = await app.inject({
        method: 'POST',
        url: '/api/receipts/verify',
        payload: { jws, ...(label === 'offer' && { kind: 'offer' }) },
      });
      if (label === 'empty') {
        assert.equal(r.statusCode, 400);
        continue;
      }
      const served = r.json() as { result: string; reason: string };
      assert.equal(served.result, reference.result, label);
      if (label !== 'kid of another DID') assert.equal(served.reason, reference.reason, label);
      seen.add(reference.result);
    }
    assert.deepEqual([...seen].sort(), ['INVALID', 'UNVERIFIABLE_KEY', 'VALID']);
    const offerAsReceipt = await app.inject({ method: 'POST', url: '/api/receipts/verify', payload: { jws: offer } });
    assert.deepEqual(
      [offerAsReceipt.json().result, offerAsReceipt.json().kind],
      ['INVALID', 'offer'],
      'the signature checks, but an offer is not a receipt',
    );
    assert.equal((await twin.verifyCompactJwsWith(offer, resolve, web)).result, 'VALID');
    assert.equal((await twin.verifyCompactJwsWith(rcpt, resolve, web)).result, 'VALID');
    assert.equal(
      (await twin.verifyCompactJwsWith(offer, twin.didDocumentResolver(undefined), web)).result,
      'UNVERIFIABLE_KEY',
    );
    await app.close();
  });
});
