/** Compact JWS signing (EdDSA, RFC 8785 payloads) and the reference receipt verifier. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as jose from 'jose';
import { encodeBase64url } from '../../src/core/crypto/base64url.js';
import { canonicalJson } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { publicJwk } from '../../src/core/crypto/jwk.js';
import { parseCompactJws, signCompactJws, verifyJwsSignature } from '../../src/core/crypto/jws.js';
import {
  KID_NOT_LISTED,
  SIGNATURE_DOES_NOT_VERIFY,
  verifyCompactJws,
  type KeyResolution,
} from '../../src/core/crypto/receipt-verifier.js';

const DID = 'did:web:board.example';
const KID = `${DID}#board-attestation-1`;
// RFC 8032 TEST 1 seed = RFC 8037 Appendix A.1 key.
const board = keyPairFromSeed(Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'));
const other = keyPairFromSeed(new Uint8Array(32).fill(9));
const key = { kid: KID, privateKey: board.privateKey };
const receipt = {
  schema: 'svc.receipt/0.1',
  subject: 'model-é',
  amount_atomic: '10000',
  items: [3, 1.5, null, true],
  nested: { z: 1, a: 'x' },
};

/** A DID document with the board key, answering as the caller of verifyCompactJws would. */
const resolver =
  (keys: Record<string, Uint8Array>) =>
  async (kid: string): Promise<KeyResolution> =>
    keys[kid] !== undefined ? { state: 'found', jwk: publicJwk(keys[kid]) } : { state: 'not-listed' };
const resolves = resolver({ [KID]: board.publicKey });
const unresolvable = async (): Promise<KeyResolution> => ({
  state: 'unresolvable',
  reason: 'did.json fetch failed: ECONNREFUSED',
});

const seg = (s: string): Buffer => Buffer.from(s, 'base64url');
const b64 = (s: string | Uint8Array): string => encodeBase64url(typeof s === 'string' ? Buffer.from(s, 'utf8') : s);
/** A compact JWS over exact header and payload text, signed with `privateKey` (may be non-canonical). */
function rawJws(headerText: string, payloadText: string, privateKey = board.privateKey): string {
  const input = `${b64(headerText)}.${b64(payloadText)}`;
  return `${input}.${b64(sign(privateKey, Buffer.from(input, 'ascii')))}`;
}
/** Replaces segment `i` of a compact JWS. */
function withSegment(jws: string, i: number, value: string): string {
  const parts = jws.split('.');
  parts[i] = value;
  return parts.join('.');
}

describe('signCompactJws', () => {
  const jws = signCompactJws(receipt, key, { typ: 'JWT' });

  it('makes base64url(canonical header).base64url(canonical payload).base64url(64-byte signature)', () => {
    const [h, p, s] = jws.split('.') as [string, string, string];
    assert.equal(seg(h).toString('utf8'), `{"alg":"EdDSA","kid":"${KID}","typ":"JWT"}`);
    assert.equal(seg(p).toString('utf8'), canonicalJson(receipt));
    assert.equal(seg(s).length, 64);
    assert.match(jws, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('is deterministic, and a Signer-style sign function gives the same string', () => {
    assert.equal(signCompactJws(receipt, key, { typ: 'JWT' }), jws);
    assert.equal(signCompactJws(receipt, { kid: KID, sign: (m) => sign(board.privateKey, m) }, { typ: 'JWT' }), jws);
    const reordered = {
      nested: { a: 'x', z: 1 },
      items: receipt.items,
      amount_atomic: '10000',
      subject: 'model-é',
      schema: 'svc.receipt/0.1',
    };
    assert.equal(signCompactJws(reordered, key, { typ: 'JWT' }), jws, 'key order does not matter');
  });

  it('verifies with jose.compactVerify (interop), from a KeyObject and from the published JWK', async () => {
    const viaKeyObject = await jose.compactVerify(jws, board.publicKeyObject, { algorithms: ['EdDSA'] });
    assert.equal(Buffer.from(viaKeyObject.payload).toString('utf8'), canonicalJson(receipt));
    assert.deepEqual(viaKeyObject.protectedHeader, { alg: 'EdDSA', kid: KID, typ: 'JWT' });
    const viaJwk = await jose.compactVerify(jws, await jose.importJWK({ ...publicJwk(board.publicKey) }, 'EdDSA'), {
      algorithms: ['EdDSA'],
    });
    assert.deepEqual(JSON.parse(Buffer.from(viaJwk.payload).toString('utf8')), receipt);
  });

  it('refuses reserved header parameters, an empty kid, a bad signer and non-JSON payloads', () => {
    for (const name of ['alg', 'kid', 'crit', 'b64'])
      assert.throws(() => signCompactJws(receipt, key, { [name]: 'x' }), TypeError, name);
    assert.throws(() => signCompactJws(receipt, { kid: '', privateKey: board.privateKey }), TypeError);
    assert.throws(() => signCompactJws(receipt, { kid: KID, sign: () => new Uint8Array(63) }), TypeError);
    assert.throws(
      () => signCompactJws({ x: () => 1 }, key),
      TypeError,
      'the canonicalize@4 function bug cannot reach a signature',
    );
    assert.throws(() => signCompactJws({ x: undefined }, key), TypeError);
    assert.throws(() => signCompactJws(receipt, key, { typ: new Date(0) }), TypeError);
  });
});

describe('verifyJwsSignature and parseCompactJws', () => {
  it('verifies the RFC 8037 Appendix A.4 JWS under the A.1 key', async () => {
    const a4 =
      'eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg';
    const check = await verifyJwsSignature(a4, board.publicKey);
    assert.ok(check.ok);
    assert.equal(Buffer.from(check.payload).toString('utf8'), 'Example of Ed25519 signing');
    assert.deepEqual(await verifyJwsSignature(a4, other.publicKey), { ok: false, reason: SIGNATURE_DOES_NOT_VERIFY });
    // The same JWS as a receipt: a structurally sound JWS without kid or JSON payload is INVALID.
    assert.equal((await verifyCompactJws(a4, resolves)).result, 'INVALID');
  });

  it('parses structure only, and refuses non-canonical base64url', () => {
    const jws = signCompactJws(receipt, key);
    assert.ok(parseCompactJws(jws).ok);
    const sig = jws.split('.')[2]!;
    // 64 bytes are 86 characters whose last carries 4 unused bits (so it is one of A, Q, g, w);
    // setting an unused bit gives another string for the same bytes.
    const last = sig.at(-1)!;
    assert.ok('AQgw'.includes(last));
    const sibling = String.fromCharCode(last.charCodeAt(0) + 1);
    assert.deepEqual(seg(sig.slice(0, -1) + sibling), seg(sig), 'node decodes both the same');
    assert.equal(parseCompactJws(withSegment(jws, 2, sig.slice(0, -1) + sibling)).ok, false);
    assert.equal(parseCompactJws(`${jws}=`).ok, false);
  });
});

describe('verifyCompactJws: the reference receipt verifier', () => {
  const jws = signCompactJws(receipt, key);

  it('VALID for a round trip; payload and header returned', async () => {
    const v = await verifyCompactJws(jws, resolves);
    assert.equal(v.result, 'VALID', v.reason);
    assert.deepEqual(v.payload, receipt);
    assert.deepEqual(v.header, { alg: 'EdDSA', kid: KID });
  });

  it('VALID for a receipt signed by jose itself over canonical JSON (interop the other way)', async () => {
    const signed = await new jose.CompactSign(Buffer.from(canonicalJson(receipt), 'utf8'))
      .setProtectedHeader({ alg: 'EdDSA', kid: KID, typ: 'JWT' })
      .sign(board.privateKey);
    assert.equal((await verifyCompactJws(signed, resolves)).result, 'VALID');
  });

  it('a changed payload, header or signature is INVALID: signature does not verify under the resolved key', async () => {
    const [h, p, s] = jws.split('.') as [string, string, string];
    const payloads = [
      seg(p).toString('utf8').replace('"10000"', '"90000"'),
      canonicalJson({ ...receipt, amount_atomic: '1' }),
    ];
    for (const text of payloads) {
      const v = await verifyCompactJws(withSegment(jws, 1, b64(text)), resolves);
      assert.deepEqual([v.result, v.reason], ['INVALID', SIGNATURE_DOES_NOT_VERIFY], text);
      assert.equal(v.payload, undefined, 'an unverified payload is not returned');
    }
    const header = b64(seg(h).toString('utf8').replace('}', ',"typ":"JWT"}'));
    const sigBytes = seg(s);
    sigBytes[10]! ^= 0x01;
    for (const tampered of [withSegment(jws, 0, header), withSegment(jws, 2, b64(sigBytes))]) {
      const v = await verifyCompactJws(tampered, resolves);
      assert.deepEqual([v.result, v.reason], ['INVALID', SIGNATURE_DOES_NOT_VERIFY]);
    }
  });

  it('every single-character change of the compact string is INVALID, never VALID', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=';
    let checked = 0;
    for (let i = 0; i < jws.length; i++) {
      const c = alphabet[(alphabet.indexOf(jws[i]!) + 7) % alphabet.length]!;
      const v = await verifyCompactJws(jws.slice(0, i) + c + jws.slice(i + 1), resolves);
      assert.equal(v.result, 'INVALID', `position ${i}: ${v.reason}`);
      checked++;
    }
    assert.equal(checked, jws.length);
  });

  it('a signature under another key is INVALID', async () => {
    const v = await verifyCompactJws(signCompactJws(receipt, { kid: KID, privateKey: other.privateKey }), resolves);
    assert.deepEqual([v.result, v.reason], ['INVALID', SIGNATURE_DOES_NOT_VERIFY]);
  });

  it('a kid not listed among verification methods is INVALID', async () => {
    const v = await verifyCompactJws(
      signCompactJws(receipt, { kid: `${DID}#card-attestation-9`, privateKey: board.privateKey }),
      resolves,
    );
    assert.deepEqual([v.result, v.reason], ['INVALID', KID_NOT_LISTED]);
  });

  it('an unresolvable key is UNVERIFIABLE_KEY, never VALID, however the lookup fails', async () => {
    const failures: ((kid: string) => Promise<KeyResolution>)[] = [
      unresolvable,
      async () => {
        throw new Error('network down');
      },
      () => {
        throw new Error('sync throw');
      },
      async () => ({ state: 'found', jwk: { kty: 'OKP', crv: 'X25519', x: b64(board.publicKey) } }),
      async () => ({ state: 'found', jwk: { kty: 'OKP', crv: 'Ed25519', x: b64(board.publicKey.subarray(1)) } }),
      async () => ({
        state: 'found',
        jwk: { ...publicJwk(board.publicKey), d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A' },
      }),
      async () => ({ state: 'found', jwk: undefined }),
      async () => ({ state: 'maybe' }) as unknown as KeyResolution,
      async () => undefined as unknown as KeyResolution,
    ];
    for (const resolve of failures) {
      const v = await verifyCompactJws(jws, resolve);
      assert.equal(v.result, 'UNVERIFIABLE_KEY', v.reason);
      assert.equal(v.payload, undefined);
    }
    assert.match((await verifyCompactJws(jws, unresolvable)).reason, /ECONNREFUSED/);
  });

  it('a tampered receipt with an unresolvable key is INVALID, and the key is not even looked up', async () => {
    let lookups = 0;
    const counting = async (): Promise<KeyResolution> => {
      lookups++;
      return unresolvable();
    };
    const p = seg(jws.split('.')[1]!).toString('utf8');
    const tampered = [
      withSegment(jws, 1, b64(p.replace('"amount_atomic":"10000"', '"amount_atomic": "90000"'))), // hand edit: whitespace
      withSegment(jws, 1, b64(JSON.stringify({ ...receipt, amount_atomic: '90000' }))), // re-serialised by JSON.stringify
      withSegment(jws, 1, b64(`${p} `)), // appended byte
      withSegment(jws, 1, b64(`\ufeff${p}`)), // BOM
      withSegment(jws, 1, b64(p.replace('"model-é"', '"model-\\u00e9"'))), // escaped, same value
      withSegment(jws, 2, jws.split('.')[2]!.slice(0, -2)), // truncated signature
      withSegment(jws, 0, b64('{"alg":"none","kid":"' + KID + '"}')), // alg downgrade
      jws.slice(0, jws.lastIndexOf('.')), // signature removed
    ];
    for (const t of tampered) assert.equal((await verifyCompactJws(t, counting)).result, 'INVALID', t);
    assert.equal(lookups, 0);
  });

  it('a non-canonical payload is INVALID even when correctly signed (receipts are RFC 8785)', async () => {
    const v = await verifyCompactJws(rawJws(`{"alg":"EdDSA","kid":"${KID}"}`, '{"b":1,"a":2}'), resolves);
    assert.equal(v.result, 'INVALID');
    assert.match(v.reason, /not RFC 8785 canonical/);
    assert.equal(
      (await verifyCompactJws(rawJws(`{"alg":"EdDSA","kid":"${KID}"}`, '{"a":2,"b":1}'), resolves)).result,
      'VALID',
    );
    assert.match(
      (await verifyCompactJws(rawJws(`{"alg":"EdDSA","kid":"${KID}"}`, '"\\ud800"'), resolves)).reason,
      /no RFC 8785 canonical form/,
    );
  });

  it('any alg other than EdDSA is INVALID, even when the signature bytes are Ed25519', async () => {
    for (const alg of ['none', 'HS256', 'ES256', 'RS256', 'Ed25519', 'eddsa', 'EdDSA ']) {
      const v = await verifyCompactJws(rawJws(JSON.stringify({ alg, kid: KID }), canonicalJson(receipt)), resolves);
      assert.equal(v.result, 'INVALID', alg);
      assert.match(v.reason, /^alg must be EdDSA/, alg);
    }
    assert.equal(
      (await verifyCompactJws(rawJws(JSON.stringify({ kid: KID, alg: 1 }), '{}'), resolves)).result,
      'INVALID',
    );
  });

  it('structural problems are INVALID with a reason', async () => {
    const cases: [string, RegExp][] = [
      [rawJws(`{"alg":"EdDSA"}`, '{}'), /no kid/],
      [rawJws(`{"alg":"EdDSA","kid":""}`, '{}'), /no kid/],
      [rawJws(`{"alg":"EdDSA","kid":7}`, '{}'), /no kid/],
      [rawJws(`{"alg":"EdDSA","kid":"${KID}","crit":["exp"],"exp":1}`, '{}'), /crit/],
      [rawJws(`{"alg":"EdDSA","kid":"${KID}","b64":false}`, '{}'), /b64/],
      [rawJws(`["EdDSA"]`, '{}'), /not a JSON object/],
      [rawJws(`{"alg":"EdDSA",`, '{}'), /not UTF-8 JSON/],
      [`${b64(Buffer.from([0xc3, 0x28]))}.${b64('{}')}.${b64(new Uint8Array(64))}`, /not UTF-8 JSON/],
      [rawJws(`{"alg":"EdDSA","kid":"${KID}"}`, ''), /payload is not UTF-8 JSON/],
      [withSegment(jws, 2, b64(new Uint8Array(65))), /64 bytes/],
      [`${jws}.${jws.split('.')[2]}`, /3 parts/],
    ];
    for (const [t, reason] of cases) {
      const v = await verifyCompactJws(t, resolves);
      assert.equal(v.result, 'INVALID', t);
      assert.match(v.reason, reason, t);
    }
  });

  it('garbage is INVALID, never a throw and never VALID', async () => {
    const garbage: unknown[] = [
      '',
      '.',
      '..',
      '...',
      'a.b.c',
      'a.b',
      '!!!.x.y',
      '====.====.====',
      ' ' + jws,
      jws + '\n',
      'eyJhbGciOiJFZERTQSJ9..',
      '\u0000',
      'é.é.é',
      null,
      undefined,
      42,
      {},
      [jws],
      Buffer.from(jws),
    ];
    for (const g of garbage) {
      const v = await verifyCompactJws(g as string, resolves);
      assert.equal(v.result, 'INVALID', String(g));
    }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.string({ unit: fc.constantFrom(...'eyJhbGciOiJFZERTQSJ9._-=A'.split('')) }),
          fc.array(fc.base64String(), { minLength: 3, maxLength: 3 }).map((a) => a.join('.')),
        ),
        async (s) => {
          const v = await verifyCompactJws(s, resolves);
          assert.notEqual(v.result, 'VALID');
        },
      ),
      { numRuns: 500, seed: 8785 },
    );
  });
});
