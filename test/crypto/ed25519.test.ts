/** Ed25519 over node:crypto against RFC 8032 §7.1, all of Wycheproof, and ed25519-speccheck. */
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { keyPairFromSeed, publicKeyObject, rawPublicKey, sign, verify } from '../../src/core/crypto/ed25519.js';
import { vectorPath } from '../helpers/repo.js';

const hex = (s: string): Buffer => Buffer.from(s, 'hex');
function readVector(name: string, sha256: string): unknown {
  const bytes = readFileSync(vectorPath('ed25519', name));
  // Pinned in test/vectors/SHA256SUMS: a changed file must fail here, not quietly change the counts.
  assert.equal(createHash('sha256').update(bytes).digest('hex'), sha256, `${name} differs from SHA256SUMS`);
  return JSON.parse(bytes.toString('utf8'));
}

interface Rfc8032Vector {
  name: string;
  secret_key: string;
  public_key: string;
  message: string;
  signature: string;
}
interface WycheproofFile {
  numberOfTests: number;
  testGroups: {
    publicKey: { pk: string };
    tests: { tcId: number; msg: string; sig: string; result: 'valid' | 'invalid' | 'acceptable' }[];
  }[];
}
interface SpeccheckCase {
  message: string;
  pub_key: string;
  signature: string;
}

describe('Ed25519: RFC 8032 §7.1', () => {
  const { vectors } = readVector(
    'rfc8032_section7.1.json',
    '15890000b61395cf2a887c1284cb5e4048186e01826080077ac0f4ac673a119e',
  ) as { vectors: Rfc8032Vector[] };

  it('has the four vectors TEST 1, 2, 3 and SHA(abc)', () => {
    assert.deepEqual(
      vectors.map((v) => v.name),
      ['TEST 1', 'TEST 2', 'TEST 3', 'TEST SHA(abc)'],
    );
  });

  for (const v of vectors) {
    it(`${v.name}: public key from seed, byte-exact signature, verify, 1-bit change rejected`, () => {
      const pair = keyPairFromSeed(hex(v.secret_key));
      assert.equal(pair.publicKey.toString('hex'), v.public_key);
      assert.equal(rawPublicKey(pair.publicKeyObject).toString('hex'), v.public_key);
      assert.equal(rawPublicKey(pair.privateKey).toString('hex'), v.public_key);
      assert.equal(pair.seed.toString('hex'), v.secret_key);

      const sig = sign(pair.privateKey, hex(v.message));
      assert.equal(sig.toString('hex'), v.signature);
      assert.equal(verify(hex(v.public_key), hex(v.message), sig), true);
      assert.equal(verify(pair.publicKeyObject, hex(v.message), sig), true);
      assert.equal(verify(publicKeyObject(hex(v.public_key)), hex(v.message), hex(v.signature)), true);

      for (const bit of [0, 255, 256, 511]) {
        const flipped = Buffer.from(sig);
        flipped[bit >> 3]! ^= 1 << (bit & 7);
        assert.equal(verify(hex(v.public_key), hex(v.message), flipped), false, `bit ${bit} of the signature`);
      }
      const msg = Buffer.concat([hex(v.message), Buffer.from([0])]);
      assert.equal(verify(hex(v.public_key), msg, sig), false, 'a changed message');
    });
  }
});

describe('Ed25519: Wycheproof (C2SP testvectors_v1/ed25519_test.json)', () => {
  const file = readVector(
    'wycheproof_ed25519_test.json',
    '752d2ea7d7c6cf4736381b6cbacb61f8182b126ab7cd9b058f00c50084975536',
  ) as WycheproofFile;

  it('verify === (result === "valid") for all 151 cases (88 valid, 63 invalid)', () => {
    let total = 0;
    let valid = 0;
    let invalid = 0;
    const wrong: number[] = [];
    for (const group of file.testGroups) {
      for (const t of group.tests) {
        total++;
        if (t.result === 'valid') valid++;
        else if (t.result === 'invalid') invalid++;
        if (verify(hex(group.publicKey.pk), hex(t.msg), hex(t.sig)) !== (t.result === 'valid')) wrong.push(t.tcId);
      }
    }
    assert.deepEqual(wrong, []);
    assert.equal(total, 151);
    assert.equal(file.numberOfTests, 151);
    assert.equal(file.testGroups.length, 78);
    assert.equal(valid, 88);
    assert.equal(invalid, 63);
  });
});

describe('Ed25519: ed25519-speccheck cases 0..11', () => {
  const cases = readVector(
    'speccheck_cases.json',
    '08e47a36d9aead288664930505584f353fff113ab854f2800db1e4f5b3540450',
  ) as SpeccheckCase[];

  it('accepts exactly VVVVXXXXXXXV, the Go / OpenSSL 3 / BoringSSL row', () => {
    assert.equal(cases.length, 12);
    const pattern = cases.map((c) => (verify(hex(c.pub_key), hex(c.message), hex(c.signature)) ? 'V' : 'X')).join('');
    assert.equal(pattern, 'VVVVXXXXXXXV');
  });
});

describe('Ed25519: contracts', () => {
  const pair = keyPairFromSeed(new Uint8Array(32).fill(7));
  const msg = Buffer.from('message');
  const sig = sign(pair.privateKey, msg);

  it('verify returns false, never throws, on malformed keys and signatures', () => {
    for (const len of [0, 31, 33, 64])
      assert.equal(verify(new Uint8Array(len), msg, sig), false, `key of ${len} bytes`);
    for (const len of [0, 63, 65, 128])
      assert.equal(verify(pair.publicKey, msg, Buffer.alloc(len)), false, `signature of ${len} bytes`);
    assert.equal(verify(new Uint8Array(32).fill(0xff), msg, sig), false, 'a key that is not a point');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    assert.equal(verify(rsa, msg, sig), false, 'an RSA KeyObject');
    assert.equal(verify('not bytes' as unknown as Uint8Array, msg, sig), false);
    assert.equal(verify(pair.publicKey, 'not bytes' as unknown as Uint8Array, sig), false);
    assert.equal(verify(pair.publicKey, msg, null as unknown as Uint8Array), false);
  });

  it('keyPairFromSeed copies the seed and refuses any length but 32', () => {
    const seed = new Uint8Array(32).fill(1);
    const p = keyPairFromSeed(seed);
    seed.fill(2);
    assert.equal(p.seed.toString('hex'), '01'.repeat(32));
    assert.throws(() => keyPairFromSeed(new Uint8Array(31)), RangeError);
    assert.throws(() => keyPairFromSeed(new Uint8Array(64)), RangeError);
    assert.throws(() => publicKeyObject(new Uint8Array(33)), RangeError);
  });

  it('sign is deterministic and refuses a key that is not an Ed25519 private key', () => {
    assert.deepEqual(sign(pair.privateKey, msg), sig);
    assert.throws(() => sign(pair.publicKeyObject, msg), TypeError);
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    assert.throws(() => sign(ecKey, msg), TypeError);
    assert.throws(() => rawPublicKey(ecKey), TypeError);
  });
});
