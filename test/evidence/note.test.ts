/**
 * C2SP signed-note, vkeys, checkpoints and cosignatures against every file of
 * test/vectors/c2sp, as its README says: the .note/.vkey pairs verify, the case tables give
 * `want`, the spec examples parse, and the derived cosignature round-trips. Counts are asserted
 * so that a missing file or an empty table cannot pass.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { verifyConsistency } from '../../src/core/evidence/merkle/index.js';
import {
  cosignatureMessage,
  decodeCosignature,
  formatCheckpoint,
  formatVerifierKey,
  keyIdHex,
  openCheckpoint,
  openNote,
  parseCheckpoint,
  parseNote,
  parseSignerKey,
  parseVerifierKey,
  signCosignature,
  signNote,
  verifierFromKey,
  verifyCosignature,
  type NoteSignature,
  type NoteVerifier,
} from '../../src/core/evidence/note/index.js';
import { vectorPath } from '../helpers/repo.js';

const C2SP = vectorPath('c2sp');
const text = (...p: string[]) => readFileSync(join(C2SP, ...p), 'utf8');
const json = <T>(name: string) => JSON.parse(text(name)) as T;
const lines = (...p: string[]) =>
  text(...p)
    .split('\n')
    .filter((l) => l !== '');
const b64 = (s: string) => Buffer.from(s, 'base64');
const ids = (sigs: readonly NoteSignature[] | undefined) => (sigs ?? []).map((s) => `${s.name}+${keyIdHex(s.keyId)}`);

function verifier(vkey: string): NoteVerifier {
  const parsed = parseVerifierKey(vkey);
  assert.ok(parsed.ok, `${vkey}: ${parsed.ok ? '' : parsed.reason}`);
  return verifierFromKey(parsed.key);
}
const verifiersIn = (...p: string[]) => lines(...p).map(verifier);

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('c2sp vector files', () => {
  it('all 35 data files are present and match test/vectors/SHA256SUMS', () => {
    const sums = readFileSync(vectorPath('SHA256SUMS'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(' c2sp/'));
    assert.equal(sums.length, 35);
    for (const line of sums) {
      const [sum, path] = line.split(/\s+/) as [string, string];
      assert.equal(
        createHash('sha256')
          .update(readFileSync(vectorPath(path)))
          .digest('hex'),
        sum,
        path,
      );
    }
    const present = allFiles(C2SP)
      .map((f) => relative(C2SP, f))
      .filter((f) => f !== 'README.md');
    assert.equal(present.length, 35);
  });
});

describe('spec-examples (C2SP spec texts)', () => {
  it('signed-note example: opens with its vkey, one signature 530d903a over the example text', () => {
    const opened = openNote(
      text('spec-examples', 'signed-note-v1.0.0-example.note'),
      verifiersIn('spec-examples', 'signed-note-v1.0.0-example.vkey'),
    );
    assert.ok(opened.ok);
    assert.equal(opened.text, 'This is an example message.\n');
    assert.deepEqual(ids(opened.sigs), ['example.com/foo+530d903a']);
  });

  it('quasimodo: the text keeps its inner blank line (split at the LAST blank line); no key → rejected', () => {
    const note = text('spec-examples', 'signed-note-v1.0.0-quasimodo.note');
    const parsed = parseNote(note);
    assert.ok(parsed.ok);
    assert.equal(
      parsed.text,
      'Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n',
    );
    assert.deepEqual(
      parsed.signatures.map((s) => s.name),
      ['quasimodo.example/salvatore'],
    );
    const opened = openNote(note, []);
    assert.equal(opened.ok, false);
    assert.equal(!opened.ok && opened.kind, 'no-verifiable-signatures');
  });

  it('tlog-checkpoint example parses: origin, size, 32-byte root, a 68-byte signature with key ID 033de0ae', () => {
    const parsed = parseNote(text('spec-examples', 'tlog-checkpoint-v1.0.0-example.note'));
    assert.ok(parsed.ok);
    const cp = parseCheckpoint(parsed.text);
    assert.ok(cp.ok);
    assert.equal(cp.checkpoint.origin, 'example.com/behind-the-sofa');
    assert.equal(cp.checkpoint.size, 20852163);
    assert.deepEqual(Buffer.from(cp.checkpoint.rootHash), b64('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I='));
    assert.deepEqual(cp.checkpoint.extensions, []);
    assert.equal(formatCheckpoint(cp.checkpoint), parsed.text);
    assert.equal(parsed.signatures.length, 1);
    assert.equal(keyIdHex(parsed.signatures[0]!.keyId), '033de0ae');
    assert.equal(b64(parsed.signatures[0]!.base64).length, 68);
  });

  it('tlog-cosignature example: the witness line is 76 bytes, key ID 8d66cf3f, time 1679315147; the signed message is byte-exact', () => {
    const parsed = parseNote(text('spec-examples', 'tlog-cosignature-v1.0.1-example.note'));
    assert.ok(parsed.ok);
    const w = parsed.signatures[1]!;
    assert.equal(w.name, 'witness.example.com/w1');
    assert.equal(b64(w.base64).length, 76);
    const decoded = decodeCosignature(w);
    assert.ok(decoded.ok);
    assert.equal(keyIdHex(decoded.keyId), '8d66cf3f');
    assert.equal(decoded.timestamp, 1679315147);
    assert.deepEqual(
      cosignatureMessage(parsed.text, decoded.timestamp),
      readFileSync(join(C2SP, 'spec-examples', 'tlog-cosignature-v1.0.1-signed-message.txt')),
    );
  });
});

describe('golang-mod (sumdb/note tests)', () => {
  const note = text('golang-mod', 'peterneumann.note');
  const both = text('golang-mod', 'peterneumann-enochroot.note');
  const peter = verifiersIn('golang-mod', 'peterneumann.vkey');
  const enoch = verifiersIn('golang-mod', 'enochroot.vkey');

  it('peterneumann.note opens with PeterNeumann+c74f20a3, and signing its text with the skey reproduces it byte for byte', () => {
    const opened = openNote(note, peter);
    assert.ok(opened.ok);
    assert.deepEqual(ids(opened.sigs), ['PeterNeumann+c74f20a3']);
    const skey = parseSignerKey(lines('golang-mod', 'peterneumann.skey')[0]!);
    assert.ok(skey.ok);
    assert.equal(keyIdHex(skey.keyId), 'c74f20a3');
    assert.equal(signNote(opened.text, skey.signer), note);
  });

  it('peterneumann-enochroot.note: both keys → 2 verified; PeterNeumann only → 1 verified, EnochRoot unverified; re-signing reproduces it', () => {
    const two = openNote(both, [...peter, ...enoch]);
    assert.ok(two.ok);
    assert.deepEqual(ids(two.sigs), ['PeterNeumann+c74f20a3', 'EnochRoot+af0cfe78']);
    const one = openNote(both, peter);
    assert.ok(one.ok);
    assert.deepEqual(ids(one.sigs), ['PeterNeumann+c74f20a3']);
    assert.deepEqual(ids(one.unverifiedSigs), ['EnochRoot+af0cfe78']);
    // EnochRoot's seed is 32 zero bytes (GenerateKey with a zero reader); Go's Sign adds new signatures last.
    assert.equal(signNote(one.text, { name: 'EnochRoot', privateKey: new Uint8Array(32) }, one.sigs), both);
  });
});

describe('transparency-dev (formats and witness tests)', () => {
  const sum = verifiersIn('transparency-dev', 'sum.golang.org.vkey');

  it('the real Go checksum-database checkpoint verifies with sum.golang.org+033de0ae; a wrong expected origin fails', () => {
    const note = text('transparency-dev', 'sumdb-checkpoint-6476701.note');
    const opened = openCheckpoint(note, sum, { origin: 'go.sum database tree' });
    assert.ok(opened.ok);
    assert.equal(opened.checkpoint.size, 6476701);
    assert.deepEqual(ids(opened.sigs), ['sum.golang.org+033de0ae']);
    assert.equal(openCheckpoint(note, sum, { origin: 'Go rocks but I might have the wrong ID' }).ok, false);
  });

  it('with 4 signatures: all verify with the 4 keys; with sum.golang.org only, 1 verified and 3 unverified', () => {
    const note = text('transparency-dev', 'sumdb-checkpoint-6476701-4sigs.note');
    const others = verifiersIn('transparency-dev', 'monkeys-bananas-witness.vkeys');
    assert.equal(others.length, 3);
    const all = openNote(note, [...sum, ...others]);
    assert.ok(all.ok);
    assert.deepEqual(ids(all.sigs), [
      'sum.golang.org+033de0ae',
      'monkeys+db4d9f7e',
      'bananas+cf639f13',
      'witness+f13a86db',
    ]);
    const one = openNote(note, sum);
    assert.ok(one.ok);
    assert.equal(one.sigs.length, 1);
    assert.deepEqual(ids(one.unverifiedSigs), ['monkeys+db4d9f7e', 'bananas+cf639f13', 'witness+f13a86db']);
  });

  it('monkeys checkpoints at sizes 5 and 8 verify, and the published consistency proof 5 → 8 verifies between their roots', () => {
    const monkeys = verifiersIn('transparency-dev', 'monkeys-bananas-witness.vkeys').filter(
      (v) => v.name === 'monkeys',
    );
    const c5 = openCheckpoint(text('transparency-dev', 'witness-monkeys-size5.note'), monkeys, { origin: 'monkeys' });
    const c8 = openCheckpoint(text('transparency-dev', 'witness-monkeys-size8.note'), monkeys, { origin: 'monkeys' });
    assert.ok(c5.ok && c8.ok);
    assert.deepEqual(ids(c8.sigs), ['monkeys+db4d9f7e']);
    const proof = lines('transparency-dev', 'witness-monkeys-consistency-5-to-8.txt').map(b64);
    assert.equal(proof.length, 4);
    assert.ok(verifyConsistency(5, 8, proof, c5.checkpoint.rootHash, c8.checkpoint.rootHash).ok);
    assert.equal(verifyConsistency(5, 8, proof.slice(1), c5.checkpoint.rootHash, c8.checkpoint.rootHash).ok, false);
  });

  it('ECDSA (type 0x02) Rekor and Pixel checkpoints parse, their keys are unsupported here, so the notes do not open', () => {
    for (const [noteFile, vkeyFile, origin, size] of [
      ['ecdsa-rekor-v1-checkpoint-798034.note', 'ecdsa-rekor-v1.vkey', 'Rekor', 798034],
      ['ecdsa-pixel6-checkpoint-10.note', 'ecdsa-pixel6.vkey', 'DEFAULT', 10],
    ] as const) {
      const key = parseVerifierKey(lines('transparency-dev', vkeyFile)[0]!);
      assert.equal(key.ok, false);
      assert.equal(!key.ok && key.unsupported, true);
      const parsed = parseNote(text('transparency-dev', noteFile));
      assert.ok(parsed.ok);
      const cp = parseCheckpoint(parsed.text);
      assert.ok(cp.ok);
      assert.equal(cp.checkpoint.origin, origin);
      assert.equal(cp.checkpoint.size, size);
      assert.equal(openNote(text('transparency-dev', noteFile), []).ok, false);
    }
  });
});

interface OpenCase {
  desc: string;
  note?: string;
  note_base64?: string;
  verifierKeys: string[];
  want: { ok: boolean; sigs?: string[]; unverifiedSigs?: string[]; error?: string };
}

describe('note-open-cases.json (Go TestOpen)', () => {
  const { cases } = json<{ cases: OpenCase[] }>('note-open-cases.json');
  const kindOf = (error: string) =>
    error.startsWith('malformed')
      ? 'malformed'
      : error === 'note has no verifiable signatures'
        ? 'no-verifiable-signatures'
        : error.startsWith('invalid signature')
          ? 'invalid-signature'
          : error.startsWith('ambiguous key')
            ? 'ambiguous-key'
            : 'unknown';

  it('has 16 cases', () => assert.equal(cases.length, 16));

  for (const c of cases) {
    it(c.desc, () => {
      const inputs: (string | Uint8Array)[] =
        c.note !== undefined ? [c.note, Buffer.from(c.note, 'utf8')] : [b64(c.note_base64!)];
      for (const input of inputs) {
        const got = openNote(input, c.verifierKeys.map(verifier));
        assert.equal(got.ok, c.want.ok, got.ok ? 'opened' : got.reason);
        if (got.ok) {
          assert.deepEqual(ids(got.sigs), c.want.sigs);
          assert.deepEqual(ids(got.unverifiedSigs), c.want.unverifiedSigs);
        } else {
          assert.equal(got.kind, kindOf(c.want.error!));
          // Go's own strings, except "malformed note", where the reason says what is malformed.
          if (got.kind !== 'malformed') assert.equal(got.reason, c.want.error);
          if (c.want.unverifiedSigs) assert.deepEqual(ids(got.unverifiedSigs), c.want.unverifiedSigs);
        }
      }
    });
  }
});

interface VkeyCase {
  desc: string;
  vkey: string;
  type: number | null;
  want: 'ok' | 'error';
}

describe('vkey-parse-cases.json and test-keys.json', () => {
  const { cases } = json<{ cases: VkeyCase[] }>('vkey-parse-cases.json');
  const peter = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';

  it('has 15 cases', () => assert.equal(cases.length, 15));

  for (const c of cases) {
    it(c.desc, () => {
      const got = parseVerifierKey(c.vkey);
      if (c.want === 'error') {
        assert.equal(got.ok, false);
      } else if (c.type === 1 || c.type === 4) {
        assert.ok(got.ok, got.ok ? '' : got.reason);
        assert.equal(got.key.type, c.type);
        assert.equal(formatVerifierKey(got.key.name, got.key.publicKey, got.key.type), c.vkey);
      } else {
        // Valid upstream, but an Ed25519-only service does not take ECDSA or RFC 6962 keys.
        assert.equal(got.ok, false);
        assert.equal(!got.ok && got.unsupported, true);
      }
    });
  }

  it('every proper substring and every single-byte increment of the PeterNeumann vkey is rejected (as Go tests)', () => {
    let checked = 0;
    for (let i = 0; i <= peter.length; i++) {
      for (let j = i + 1; j <= peter.length; j++) {
        if (i === 0 && j === peter.length) continue;
        assert.equal(parseVerifierKey(peter.slice(i, j)).ok, false, peter.slice(i, j));
        checked++;
      }
    }
    for (let i = 0; i < peter.length; i++) {
      const mangled = peter.slice(0, i) + String.fromCharCode(peter.charCodeAt(i) + 1) + peter.slice(i + 1);
      assert.equal(parseVerifierKey(mangled).ok, false, mangled);
      checked++;
    }
    assert.equal(checked, (peter.length * (peter.length + 1)) / 2 - 1 + peter.length);
  });

  it('the 11 published test keys: vkeys parse to their key ID and public key; skeys derive the same key', () => {
    const { keys } = json<{
      keys: { name: string; keyId: string; publicKeyHex: string; vkey: string; skey?: string; seedHex?: string }[];
    }>('test-keys.json');
    assert.equal(keys.length, 11);
    for (const k of keys) {
      const v = parseVerifierKey(k.vkey);
      assert.ok(v.ok, k.name);
      assert.equal(keyIdHex(v.key.keyId), k.keyId);
      assert.equal(v.key.publicKey.toString('hex'), k.publicKeyHex);
      assert.equal(formatVerifierKey(k.name, v.key.publicKey), k.vkey);
      if (k.skey) {
        const s = parseSignerKey(k.skey);
        assert.ok(s.ok, k.name);
        assert.equal(s.publicKey.toString('hex'), k.publicKeyHex);
        assert.equal(s.signer.privateKey.toString('hex'), k.seedHex);
      }
    }
  });
});

describe('cosignature-timestamp-cases.json', () => {
  const { cases } = json<{
    cases: { desc: string; sigBase64: string; wantErr: boolean; keyId?: string; timestamp?: number }[];
  }>('cosignature-timestamp-cases.json');
  it('has 4 cases', () => assert.equal(cases.length, 4));
  for (const c of cases) {
    it(c.desc, () => {
      const got = decodeCosignature(c.sigBase64);
      assert.equal(got.ok, !c.wantErr);
      if (got.ok) {
        assert.equal(keyIdHex(got.keyId), c.keyId);
        assert.equal(got.timestamp, c.timestamp);
      }
    });
  }
});

interface CheckpointCases {
  marshal: { origin: string; size: number; hashBase64: string; want: string }[];
  unmarshal: {
    desc: string;
    input: string;
    goWantErr: boolean;
    want?: { origin: string; size: number; hashBase64: string; rest: string };
    remark?: string;
  }[];
}

describe('checkpoint-body-cases.json (transparency-dev/formats)', () => {
  const { marshal, unmarshal } = json<CheckpointCases>('checkpoint-body-cases.json');
  // Decision: the default parser is strict C2SP (32-byte root, no empty extension lines).
  // `hashSize: null` gives formats' leniency about root length, but empty extension lines stay refused.
  const STRICTER_THAN_GO = new Set(['valid with trailing newlines']);

  it('has 2 marshal and 13 unmarshal cases', () => {
    assert.equal(marshal.length, 2);
    assert.equal(unmarshal.length, 13);
  });

  it('marshal: formats with hashSize null; the default refuses these non-32-byte roots', () => {
    for (const m of marshal) {
      const cp = { origin: m.origin, size: m.size, rootHash: b64(m.hashBase64), extensions: [] };
      assert.equal(formatCheckpoint(cp, { hashSize: null }), m.want);
      assert.throws(() => formatCheckpoint(cp), RangeError);
    }
  });

  for (const u of unmarshal) {
    it(`unmarshal: ${u.desc}`, () => {
      const lenient = parseCheckpoint(u.input, { hashSize: null });
      if (STRICTER_THAN_GO.has(u.desc)) {
        assert.equal(u.goWantErr, false);
        assert.equal(lenient.ok, false, 'C2SP: extension lines MUST be non-empty');
      } else {
        assert.equal(lenient.ok, !u.goWantErr, lenient.ok ? 'parsed' : lenient.reason);
      }
      if (lenient.ok) {
        assert.equal(lenient.checkpoint.origin, u.want!.origin);
        assert.equal(lenient.checkpoint.size, u.want!.size);
        assert.equal(Buffer.from(lenient.checkpoint.rootHash).toString('base64'), u.want!.hashBase64);
        assert.equal(lenient.checkpoint.extensions.map((l) => `${l}\n`).join(''), u.want!.rest);
        assert.equal(formatCheckpoint(lenient.checkpoint, { hashSize: null }), u.input);
      }
      const strict = parseCheckpoint(u.input);
      assert.equal(strict.ok, lenient.ok && lenient.checkpoint.rootHash.length === 32);
    });
  }
});

describe('derived/ (cosignature made here with the published witness test key)', () => {
  const size8 = text('transparency-dev', 'witness-monkeys-size8.note');
  const opened8 = parseNote(size8);
  assert.ok(opened8.ok);
  const cpText = opened8.text;
  const cosigKey = parseVerifierKey(lines('derived', 'witness-cosignature-v1.vkey')[0]!);
  assert.ok(cosigKey.ok);
  const cosigner = verifierFromKey(cosigKey.key);
  const monkeys = verifiersIn('transparency-dev', 'monkeys-bananas-witness.vkeys').filter((v) => v.name === 'monkeys');

  it('the type-0x04 vkey has key ID 24b37851, and the signed message is byte-exact', () => {
    assert.equal(cosigKey.key.type, 4);
    assert.equal(keyIdHex(cosigKey.key.keyId), '24b37851');
    assert.deepEqual(
      cosignatureMessage(cpText, 1700000000),
      readFileSync(join(C2SP, 'derived', 'witness-cosignature-v1-signed-message.txt')),
    );
  });

  it('the response line verifies with time 1700000000, and re-cosigning with the witness seed reproduces it', () => {
    const response = text('derived', 'add-checkpoint-response-monkeys-size8.txt');
    const parsed = parseNote(`${cpText}\n${response}`);
    assert.ok(parsed.ok);
    const sig = parsed.signatures[0]!;
    assert.deepEqual(verifyCosignature(cpText, sig, cosigKey.key), { ok: true, timestamp: 1700000000 });
    assert.equal(verifyCosignature(cpText, sig, cosigKey.key, 1699999999).ok, false, 'a timestamp after notAfter');
    const seed = Buffer.from(
      json<{ keys: { name: string; seedHex?: string }[] }>('test-keys.json').keys.find((k) => k.name === 'witness')!
        .seedHex!,
      'hex',
    );
    const again = signCosignature(cpText, { name: 'witness', privateKey: seed }, 1700000000);
    assert.equal(`\u2014 ${again.name} ${again.base64}\n`, response);
  });

  it('the cosigned note opens with the monkeys key and the cosigner key; the type-0x01 witness key does not match the line', () => {
    const note = text('derived', 'witness-monkeys-size8-cosigned.note');
    const both = openNote(note, [...monkeys, cosigner]);
    assert.ok(both.ok);
    assert.deepEqual(ids(both.sigs), ['monkeys+db4d9f7e', 'witness+24b37851']);
    const ts = decodeCosignature(both.sigs[1]!);
    assert.ok(ts.ok && ts.timestamp === 1700000000);
    const noteKey = verifiersIn('transparency-dev', 'monkeys-bananas-witness.vkeys').filter(
      (v) => v.name === 'witness',
    );
    const wrongType = openNote(note, noteKey);
    assert.equal(wrongType.ok, false);
    assert.deepEqual(!wrongType.ok && ids(wrongType.unverifiedSigs), ['monkeys+db4d9f7e', 'witness+24b37851']);
  });

  it('changing one byte of the checkpoint text makes the cosignature fail', () => {
    const note = text('derived', 'witness-monkeys-size8-cosigned.note').replace('monkeys\n8\n', 'monkeys\n9\n');
    const got = openNote(note, [cosigner]);
    assert.equal(got.ok, false);
    assert.equal(!got.ok && got.kind, 'invalid-signature');
    const sig = parseNote(text('derived', 'witness-monkeys-size8-cosigned.note'));
    assert.ok(sig.ok);
    assert.equal(verifyCosignature(cpText.replace('\n8\n', '\n9\n'), sig.signatures[1]!, cosigKey.key).ok, false);
  });
});
