/** RFC 8785 canonical JSON against the cyberphone/json-canonicalization vectors. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  canonicalBytes,
  canonicalBytesStrict,
  canonicalJson,
  canonicalJsonStrict,
} from '../../src/core/crypto/canonical-json.js';
import { vectorPath } from '../helpers/repo.js';
import fc from 'fast-check';
import canonicalize from 'canonicalize';

const NAMES = ['arrays', 'french', 'structures', 'unicode', 'values', 'weird'];

describe('JCS: the six input/output vectors', () => {
  it('the vector folder holds exactly the six inputs', () => {
    assert.deepEqual(
      readdirSync(vectorPath('jcs', 'input')).sort(),
      NAMES.map((n) => `${n}.json`),
    );
  });

  for (const name of NAMES) {
    it(`${name}.json is byte for byte output/${name}.json and outhex/${name}.txt`, () => {
      const input = JSON.parse(readFileSync(vectorPath('jcs', 'input', `${name}.json`), 'utf8')) as unknown;
      const expected = readFileSync(vectorPath('jcs', 'output', `${name}.json`));
      const outhex = Buffer.from(
        readFileSync(vectorPath('jcs', 'outhex', `${name}.txt`), 'utf8')
          .trim()
          .split(/\s+/)
          .join(''),
        'hex',
      );
      assert.deepEqual(outhex, expected, 'the two oracles agree');
      assert.deepEqual(canonicalBytes(input), expected);
      assert.deepEqual(canonicalBytesStrict(input), expected);
      assert.deepEqual(Buffer.from(canonicalJson(input), 'utf8'), expected);
    });
  }
});

describe('JCS: ES6 number serialisation, first 1,000 lines of es6testfile100m', () => {
  it('all 1,000 lines serialise exactly (file pinned by SHA-256)', () => {
    const bytes = readFileSync(vectorPath('jcs', 'es6-numbers-first1000.txt'));
    assert.equal(bytes.length, 37967);
    assert.equal(
      createHash('sha256').update(bytes).digest('hex'),
      'be18b62b6f69cdab33a7e0dae0d9cfa869fda80ddc712221570f9f40a5878687',
    );
    const lines = bytes.toString('ascii').split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a newline');
    assert.equal(lines.length, 1000);
    const mismatches: string[] = [];
    let checked = 0;
    for (const line of lines) {
      const m = /^([0-9a-f]{1,16}),(.+)$/.exec(line);
      assert.ok(m, `malformed line: ${line}`);
      const value = Buffer.from(m[1]!.padStart(16, '0'), 'hex').readDoubleBE(0);
      assert.ok(Number.isFinite(value), `line ${line} is not finite`);
      if (canonicalJson(value) !== m[2]) mismatches.push(line);
      checked++;
    }
    assert.deepEqual(mismatches, []);
    assert.equal(checked, 1000);
  });

  it('samples from RFC 8785 Appendix B', () => {
    const cases: [string, string][] = [
      ['4340000000000001', '9007199254740994'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['8000000000000000', '0'],
    ];
    for (const [bits, out] of cases) assert.equal(canonicalJson(Buffer.from(bits, 'hex').readDoubleBE(0)), out);
  });
});

describe('JCS: the strict form refuses what canonicalize@4 gets wrong', () => {
  it('canonicalJson keeps its behaviour (the canonicalize@4 function bug is still there)', () => {
    assert.equal(canonicalJson({ x: () => 1 }), '{"x":undefined}');
    assert.equal(canonicalJson({ b: undefined, a: 1 }), '{"a":1}');
  });

  it('refuses functions, undefined, symbols, bigint, NaN, Infinity, class instances, holes and cycles, naming the path', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad: [unknown, RegExp][] = [
      [{ x: () => 1 }, /\$\.x: a value of type function/],
      [[1, () => 1], /\$\[1\]: a value of type function/],
      [{ a: { b: undefined } }, /\$\.a\.b: a value of type undefined/],
      [undefined, /\$: a value of type undefined/],
      [{ s: Symbol('s') }, /\$\.s: a value of type symbol/],
      [{ [Symbol('k')]: 1 }, /symbol keys/],
      [{ n: 1n }, /bigint/],
      [{ n: NaN }, /NaN has no JSON/],
      [[Infinity], /Infinity has no JSON/],
      [{ d: new Date(0) }, /\$\.d: only plain objects/],
      [{ m: new Map() }, /only plain objects/],
      [{ toJSON: () => ({}) }, /\$\.toJSON: a value of type function/],
      [[1, , 3], /\$\[1\]: arrays must not have holes/],
      [cyclic, /\$\.self: circular reference/],
    ];
    for (const [value, message] of bad)
      assert.throws(() => canonicalJsonStrict(value), { name: 'TypeError', message }, String(message));
  });

  it('accepts plain JSON, including null-prototype objects and shared (non-cyclic) references', () => {
    const shared = { k: 1 };
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2, a: [shared, shared] });
    assert.equal(canonicalJsonStrict(nullProto), '{"a":[{"k":1},{"k":1}],"b":2}');
    assert.equal(
      canonicalJsonStrict({ z: null, y: true, x: -0, w: 'é\u2028' }),
      '{"w":"é\u2028","x":0,"y":true,"z":null}',
    );
  });

  it('refuses lone surrogates in strings and member names (RFC 8785 §3.2.2.2), accepts pairs', () => {
    assert.throws(() => canonicalJsonStrict({ a: 'x\ud800' }), /\$\.a: a string has a lone surrogate/);
    assert.throws(() => canonicalJsonStrict({ ['\udc00']: 1 }), /a member name has a lone surrogate/);
    assert.equal(canonicalJsonStrict(['\ud83d\ude00']), '["\ud83d\ude00"]');
  });

  it('orders integer-like and __proto__ member names as RFC 8785 does (UTF-16 order, not engine order)', () => {
    const withProto = JSON.parse('{"b":1,"__proto__":{"x":1},"10":2,"9":3,"a":4}') as unknown;
    assert.equal(canonicalJsonStrict({ 10: 'a', 9: 'b', x: 'c' }), '{"10":"a","9":"b","x":"c"}');
    assert.equal(canonicalJsonStrict(withProto), '{"10":2,"9":3,"__proto__":{"x":1},"a":4,"b":1}');
  });

  it('equals canonicalize on arbitrary JSON, and refuses exactly the values with a lone surrogate (property)', () => {
    const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    const wellFormed = (v: unknown): boolean =>
      typeof v === 'string'
        ? !LONE.test(v)
        : Array.isArray(v)
          ? v.every(wellFormed)
          : v !== null && typeof v === 'object'
            ? Object.entries(v).every(([k, x]) => !LONE.test(k) && wellFormed(x))
            : true;
    const agree = (v: unknown) => {
      if (wellFormed(v)) assert.equal(canonicalJsonStrict(v), canonicalize(v));
      else assert.throws(() => canonicalJsonStrict(v), /lone surrogate/);
    };
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), agree), { numRuns: 2000 });
    const halves = fc.string({
      unit: fc.oneof(
        fc.constantFrom('a', '9', '\u00e9', '\ud83d\ude00'),
        fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
      ),
    });
    const keys = fc.oneof(
      halves,
      fc.constantFrom('0', '1', '10', '9', '__proto__', '', 'a'),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(
          keys,
          fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), halves, fc.array(halves, { maxLength: 3 })),
        ),
        agree,
      ),
      { numRuns: 2000 },
    );
  });
});
