/**
 * Round trips and tampering for the note formats (fast-check, bounded runs): what `signNote`,
 * `formatCheckpoint` and `signCosignature` produce opens and parses back to the same values,
 * and a changed byte makes verification fail.
 */
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  cosignatureVerifier,
  decodeCosignature,
  ed25519NoteVerifier,
  formatCheckpoint,
  formatNote,
  keyIdHex,
  openNote,
  parseCheckpoint,
  parseNote,
  parseVerifierKey,
  signCosignature,
  signNote,
  verifierFromKey,
  verifierKeyOf,
  verifyCosignature,
  type Checkpoint,
  type NoteSigner,
} from '../../src/core/evidence/note/index.js';

const CONTROL = /[\x00-\x1f]/g;
/** A note text: lines of any Unicode without control characters (blank lines allowed), final newline. */
const arbText = fc
  .array(
    fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(CONTROL, '')),
    { minLength: 1, maxLength: 6 },
  )
  .map((ls) => `${ls.join('\n')}\n`);
const arbName = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 20 })
  .map((s) => s.replace(/[\p{White_Space}+\x00-\x1f]/gu, ''))
  .filter((s) => s !== '');
const arbSigner = fc.record({ name: arbName, privateKey: fc.uint8Array({ minLength: 32, maxLength: 32 }) });
const arbSigners = fc.uniqueArray(arbSigner, { minLength: 1, maxLength: 3, selector: (s) => s.name });

function verifierOf(signer: NoteSigner) {
  const key = parseVerifierKey(verifierKeyOf(signer));
  assert.ok(key.ok);
  return verifierFromKey(key.key);
}

describe('signed notes', () => {
  it('sign → open gives back the text and every signer, in order', () => {
    fc.assert(
      fc.property(arbText, arbSigners, (text, signers) => {
        const note = signNote(text, signers);
        const opened = openNote(note, signers.map(verifierOf));
        assert.ok(opened.ok, opened.ok ? '' : opened.reason);
        assert.equal(opened.text, text);
        assert.deepEqual(
          opened.sigs.map((s) => s.name),
          signers.map((s) => s.name),
        );
        assert.deepEqual(openNote(Buffer.from(note, 'utf8'), signers.map(verifierOf)), opened);
      }),
      { numRuns: 60 },
    );
  });

  it('a changed text or a flipped signature bit is an invalid signature; unknown keys only is unverifiable', () => {
    fc.assert(
      fc.property(arbText, arbSigner, fc.nat(), fc.integer({ min: 0, max: 511 }), (text, signer, at, bit) => {
        const note = signNote(text, signer);
        const v = verifierOf(signer);
        const chars = Array.from(text); // code points, so a change never splits a surrogate pair
        const i = at % chars.length;
        chars[i] = chars[i] === 'x' ? 'y' : 'x';
        const changed = chars.join('');
        const tampered = openNote(note.replace(text, changed), [v]);
        assert.equal(!tampered.ok && tampered.kind, changed.endsWith('\n') ? 'invalid-signature' : 'malformed');
        const parsed = parseNote(note);
        assert.ok(parsed.ok);
        const raw = Buffer.from(parsed.signatures[0]!.base64, 'base64');
        raw[4 + (bit >> 3)]! ^= 1 << (bit & 7);
        const flipped = openNote(formatNote(text, [{ name: signer.name, base64: raw.toString('base64') }]), [v]);
        assert.equal(!flipped.ok && flipped.kind, 'invalid-signature');
        const unknown = openNote(note, [verifierOf({ name: `${signer.name}x`, privateKey: signer.privateKey })]);
        assert.equal(!unknown.ok && unknown.kind, 'no-verifiable-signatures');
      }),
      { numRuns: 60 },
    );
  });

  it('refuses to make notes that would not open', () => {
    const signer = { name: 'example.org/log', privateKey: new Uint8Array(32) };
    assert.throws(() => signNote('no final newline', signer), TypeError);
    assert.throws(() => signNote('carriage\r return\n', signer), TypeError);
    assert.throws(() => signNote('lone \ud800 surrogate\n', signer), TypeError);
    assert.throws(() => signNote('text\n', { ...signer, name: 'has space' }), TypeError);
    assert.throws(() => signNote('text\n', { ...signer, name: 'has+plus' }), TypeError);
    assert.throws(() => signNote('text\n', { ...signer, privateKey: new Uint8Array(31) }), RangeError);
    assert.throws(() => formatNote('text\n', []), TypeError);
    assert.ok(openNote(signNote('\ufeffa BOM is text, not a marker\n', signer), [verifierOf(signer)]).ok);
  });

  it('signs the same with a private KeyObject as with its seed', () => {
    const seed = Buffer.alloc(32, 9);
    const key = createPrivateKey({
      key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
      format: 'der',
      type: 'pkcs8',
    });
    assert.equal(
      signNote('same\n', { name: 'k', privateKey: key }),
      signNote('same\n', { name: 'k', privateKey: seed }),
    );
  });

  it('accepts 100 signatures (the spec asks for at least 16) and refuses 101', () => {
    const signer = { name: 'k', privateKey: new Uint8Array(32).fill(1) };
    const note = signNote('t\n', signer);
    const line = note.slice(3);
    assert.ok(openNote(`t\n\n${line.repeat(100)}`, [verifierOf(signer)]).ok);
    assert.equal(openNote(`t\n\n${line.repeat(101)}`, [verifierOf(signer)]).ok, false);
  });
});

describe('checkpoints', () => {
  const arbLine = fc
    .string({ unit: 'binary', minLength: 1, maxLength: 30 })
    .map((s) => s.replace(CONTROL, ''))
    .filter((s) => s !== '');
  const arbCheckpoint: fc.Arbitrary<Checkpoint> = fc.record({
    origin: arbLine,
    size: fc.maxSafeNat(),
    rootHash: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    extensions: fc.array(arbLine, { maxLength: 3 }),
  });

  it('format → parse is the identity', () => {
    fc.assert(
      fc.property(arbCheckpoint, (cp) => {
        const text = formatCheckpoint(cp);
        const parsed = parseCheckpoint(text, { origin: cp.origin });
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
        assert.deepEqual({ ...parsed.checkpoint, rootHash: Uint8Array.from(parsed.checkpoint.rootHash) }, { ...cp });
      }),
      { numRuns: 100 },
    );
  });

  it('refuses leading zeroes, signs, non-32-byte roots, empty extension lines and oversized sizes', () => {
    const root = Buffer.alloc(32).toString('base64');
    for (const bad of [
      `o\n012\n${root}\n`,
      `o\n+12\n${root}\n`,
      `o\n12\n${root.slice(4)}\n`,
      `o\n12\n${root}\n\n`,
      `o\n12\n${root}\next\n\n`,
      `o\n9007199254740992\n${root}\n`,
      `o\n 12\n${root}\n`,
    ]) {
      assert.equal(parseCheckpoint(bad).ok, false, JSON.stringify(bad));
    }
    assert.ok(parseCheckpoint(`o\n0\n${root}\n`).ok);
    assert.ok(parseCheckpoint(`o\n9007199254740991\n${root}\n`).ok);
  });
});

describe('cosignature/v1', () => {
  it('sign → verify gives the timestamp back; the key ID uses type 0x04; another checkpoint fails', () => {
    fc.assert(
      fc.property(arbSigner, fc.maxSafeNat(), fc.uint8Array({ minLength: 32, maxLength: 32 }), (signer, ts, root) => {
        const text = formatCheckpoint({ origin: 'example.org/log', size: 5, rootHash: root, extensions: [] });
        const sig = signCosignature(text, signer, ts);
        const key = parseVerifierKey(verifierKeyOf(signer, 4));
        assert.ok(key.ok);
        assert.equal(keyIdHex(sig.keyId), keyIdHex(key.key.keyId));
        assert.deepEqual(verifyCosignature(text, sig, key.key), { ok: true, timestamp: ts });
        assert.deepEqual(decodeCosignature(sig), {
          ok: true,
          keyId: sig.keyId,
          timestamp: ts,
          signature: Buffer.from(sig.signature.subarray(8)),
        });
        assert.equal(verifyCosignature(text.replace('\n5\n', '\n6\n'), sig, key.key).ok, false);
        // The same key as a note key (type 0x01) has another key ID, so it never matches the line.
        assert.notEqual(
          ed25519NoteVerifier(signer.name, key.key.publicKey).keyId,
          cosignatureVerifier(signer.name, key.key.publicKey).keyId,
        );
      }),
      { numRuns: 40 },
    );
  });
});
