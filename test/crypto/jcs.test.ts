/** RFC 8785 canonical JSON against the cyberphone/json-canonicalization vectors. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { canonicalBytes, canonicalBytesStrict, canonicalJson, canonicalJsonStrict } from '../../src/core/crypto/canonical-json.js';
import { sharedPath } from '../helpers/shared.js';

const NAMES = ['arrays', 'french', 'structures', 'unicode', 'values', 'weird'];

describe('JCS: the six input/output vectors', () => {
  it('the vector folder holds exactly the six inputs', () => {
    assert.deepEqual(readdirSync(sharedPath('vectors', 'jcs', 'input')).sort(), NAMES.map((n) => `${n}.json`));
  });

  for (const name of NAMES) {
    it(`${name}.json is byte for byte output/${name}.json and outhex/${name}.txt`, () => {
      const input = JSON.parse(readFileSync(sharedPath('vectors', 'jcs', 'input', `${name}.json`), 'utf8')) as unknown;
      const expected = readFileSync(sharedPath('vectors', 'jcs', 'output', `${name}.json`));
      const outhex = Buffer.from(readFileSync(sharedPath('vectors', 'jcs', 'outhex', `${name}.txt`), 'utf8').trim().split(/\s+/).join(''), 'hex');
      assert.deepEqual(outhex, expected, 'the two oracles agree');
      assert.deepEqual(canonicalBytes(input), expected);
      assert.deepEqual(canonicalBytesStrict(input), expected);
      assert.deepEqual(Buffer.from(canonicalJson(input), 'utf8'), expected);
    });
  }
});

describe('JCS: ES6 number serialisation, first 1,000 lines of es6testfile100m', () => {
  it('all 1,000 lines serialise exactly (file pinned by SHA-256)', () => {
    const bytes = readFileSync(sharedPath('vectors', 'jcs', 'es6-numbers-first1000.txt'));
    assert.equal(bytes.length, 37967);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), 'be18b62b6f69cdab33a7e0dae0d9cfa869fda80ddc712221570f9f40a5878687');
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
    const cases: [string, string][] = [['4340000000000001', '9007199254740994'], ['444b1ae4d6e2ef50', '1e+21'], ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'], ['8000000000000000', '0']];
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
    for (const [value, message] of bad) assert.throws(() => canonicalJsonStrict(value), { name: 'TypeError', message }, String(message));
  });

  it('accepts plain JSON, including null-prototype objects and shared (non-cyclic) references', () => {
    const shared = { k: 1 };
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2, a: [shared, shared] });
    assert.equal(canonicalJsonStrict(nullProto), '{"a":[{"k":1},{"k":1}],"b":2}');
    assert.equal(canonicalJsonStrict({ z: null, y: true, x: -0, w: 'é\u2028' }), '{"w":"é\u2028","x":0,"y":true,"z":null}');
  });
});
