/**
 * C2SP tlog-proof@v1 (issue 42, item 2): the text a card's proof is written in, the strict
 * parser, and the offline check under keys the reader trusts, with one test for each way a proof
 * can lie: another index, a swapped or truncated path, a checkpoint an impostor log signed under
 * the origin's name, a cosignature by a witness the reader does not know, another card's proof,
 * bytes after the checkpoint.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { formatCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { signCosignature } from '../../src/core/evidence/note/cosignature.js';
import { formatSignatureLine, signNote } from '../../src/core/evidence/note/signed-note.js';
import { formatTlogProof, TLOG_PROOF_HEADER as WRITTEN_HEADER } from '../../src/core/evidence/tlog-proof.js';
import { parseTlogProof, TLOG_PROOF_HEADER } from '../../src/core/verify/tlog-proof-parse.js';
import { type TlogProofTrust, verifyTlogProof } from '../../src/core/verify/tlog-proof.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';

const ORIGIN = 'board.example/log';
const LOG_SEED = Buffer.alloc(32, 7);
const logKey = keyPairFromSeed(LOG_SEED).publicKey;
const witness = (name: string, seed: number) => ({
  name,
  seed: Buffer.alloc(32, seed),
  publicKey: keyPairFromSeed(Buffer.alloc(32, seed)).publicKey,
});
const W1 = witness('witness1.example', 11);
const W2 = witness('witness2.example', 12);
const NOW = 1_800_000_000;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const cards = Array.from({ length: 13 }, (_, i) => createHash('sha256').update(`card ${i}`).digest('hex'));

/** A log of `entries` signed under `origin` by `seed`, cosigned by `cosigners` at `at`. */
function signedLog(
  entries: readonly string[],
  origin = ORIGIN,
  seed = LOG_SEED,
  cosigners: readonly { name: string; seed: Buffer }[] = [],
  at = NOW,
) {
  const tree = new MerkleTree(logLeaves(entries));
  const text = formatCheckpoint({ origin, size: tree.size, rootHash: tree.root(), extensions: [] });
  const note =
    signNote(text, { name: origin, privateKey: seed }) +
    cosigners.map((w) => formatSignatureLine(signCosignature(text, { name: w.name, privateKey: w.seed }, at))).join('');
  return { tree, text, note, proof: (i: number) => formatTlogProof(i, tree.inclusionProof(i), note) };
}

const trust = (extra: Partial<TlogProofTrust> = {}): TlogProofTrust => ({
  logs: [{ origin: ORIGIN, publicKey: logKey }],
  ...extra,
});
const check = (text: string | Uint8Array, card: string, t: TlogProofTrust = trust()) =>
  verifyTlogProof(nodeVerifyCrypto, text, card, t);

const log = signedLog(cards, ORIGIN, LOG_SEED, [W1]);

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The same 32 bytes with the unused low bits of the last base64 character set. */
function nonCanonical(line: string): string {
  const c = line.at(-2)!;
  return `${line.slice(0, -2)}${B64[B64.indexOf(c) | 1]}=`;
}

describe('tlog-proof: the text', () => {
  it('is the header, the index, the path a line each, an empty line and the checkpoint as served', () => {
    const path = log.tree.inclusionProof(5);
    const b64 = path.map((h) => Buffer.from(h).toString('base64'));
    assert.equal(log.proof(5), `c2sp.org/tlog-proof@v1\nindex 5\n${b64.join('\n')}\n\n${log.note}`);
    assert.equal(WRITTEN_HEADER, TLOG_PROOF_HEADER);
    assert.equal(path.length, 4);
  });

  it('a log of one entry has an empty path: the index line is followed by the empty line', () => {
    const one = signedLog(cards.slice(0, 1));
    assert.equal(one.proof(0), `${TLOG_PROOF_HEADER}\nindex 0\n\n${one.note}`);
  });

  it('round trip: every entry of logs of 1 to 13 entries parses back and verifies', async () => {
    for (let n = 1; n <= 13; n++) {
      const l = signedLog(cards.slice(0, n));
      for (let i = 0; i < n; i++) {
        const parsed = parseTlogProof(l.proof(i));
        assert.ok(parsed.ok, `${n}/${i}`);
        assert.equal(parsed.proof.index, i);
        assert.deepEqual(parsed.proof.path.map(hex), l.tree.inclusionProof(i).map(hex));
        assert.equal(parsed.proof.checkpoint, l.note);
        const v = await check(l.proof(i), cards[i]!);
        assert.equal(v.result, 'VALID', `${n}/${i}: ${JSON.stringify(v.checks)}`);
        assert.equal(v.code, null);
        assert.deepEqual(v.claims, {
          origin: ORIGIN,
          tree_size: n,
          root_hash: hex(l.tree.root()),
          index: i,
          extra: false,
        });
      }
    }
  });

  it('the spec example (tlog-proof.md): its header, extra, index and path parse; its elided signatures do not', () => {
    const example = readFileSync(join('test', 'vectors', 'c2sp', 'spec-examples', 'tlog-proof-example.txt'), 'utf8');
    const verbatim = parseTlogProof(example);
    assert.equal(verbatim.ok, false);
    assert.match(verbatim.ok ? '' : verbatim.reason, /signature line/);
    // The example's lines before its checkpoint, followed by a checkpoint that parses.
    const head = example.slice(0, example.indexOf('\n\n') + 2);
    const parsed = parseTlogProof(head + log.note);
    assert.ok(parsed.ok);
    assert.equal(parsed.proof.index, 73894);
    assert.equal(parsed.proof.path.length, 5);
    assert.equal(
      hex(parsed.proof.path[0]!),
      Buffer.from('gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=', 'base64').toString('hex'),
    );
    assert.match(Buffer.from(parsed.proof.extra!).toString('latin1'), /^age-v1\.2\.1-darwin-arm64\.tar\.gz/);
  });
});

describe('tlog-proof: strict parsing refuses', () => {
  const good = log.proof(5);
  const cases: [string, string][] = [
    ['no header', good.replace(`${TLOG_PROOF_HEADER}\n`, '')],
    ['another version', good.replace('@v1', '@v2')],
    ['a byte order mark', `\ufeff${good}`],
    ['CRLF line ends', good.replace(/\n/g, '\r\n')],
    ['an index with a leading zero', good.replace('index 5', 'index 05')],
    ['a negative index', good.replace('index 5', 'index -5')],
    ['an index past 2^53', good.replace('index 5', 'index 9007199254740993')],
    ['no index line', good.replace('index 5\n', '')],
    ['an empty extra line', good.replace('index 5', 'extra \nindex 5')],
    ['an extra line that is not base64', good.replace('index 5', 'extra !!\nindex 5')],
    ['a path line that is not base64', good.replace(/\nindex 5\n[^\n]+/, '\nindex 5\nnot*base64')],
    ['a 31-byte path hash', good.replace(/\nindex 5\n[^\n]+/, `\nindex 5\n${Buffer.alloc(31).toString('base64')}`)],
    ['a 33-byte path hash', good.replace(/\nindex 5\n[^\n]+/, `\nindex 5\n${Buffer.alloc(33).toString('base64')}`)],
    // Go's decoder would take it (the last character's two unused bits set); only the canonical spelling is read.
    ['a path hash in a non-canonical base64 spelling', good.replace(/\nindex 5\n[^\n]+/, (m) => nonCanonical(m))],
    [
      '64 path lines',
      good.replace(/\nindex 5\n/, `\nindex 5\n${`${Buffer.alloc(32).toString('base64')}\n`.repeat(64)}`),
    ],
    ['no empty line before the checkpoint', good.replace(/\n\n/, '\n')],
    ['a checkpoint without signatures', `${good.slice(0, good.indexOf(ORIGIN))}${log.text}`],
    ['a trailing byte', `${good}x`],
    ['a trailing newline', `${good}\n`],
    ['a line after the signatures', `${good}junk\n`],
    ['a checkpoint root of 31 bytes', good.replace(/\n13\n[^\n]+/, `\n13\n${Buffer.alloc(31).toString('base64')}`)],
    ['a checkpoint size with a leading zero', good.replace('\n13\n', '\n013\n')],
    ['a control character', good.replace('index 5', 'index\t5')],
  ];
  for (const [what, text] of cases)
    it(what, async () => {
      assert.notEqual(text, good, 'the case changes the proof');
      const parsed = parseTlogProof(text);
      assert.equal(parsed.ok, false);
      const v = await check(text, cards[5]!);
      assert.equal(v.result, 'INVALID');
      assert.equal(v.code, 'tlog_proof_malformed');
    });

  it('bytes that are not UTF-8, and more than 1 MiB', async () => {
    const bytes = Buffer.concat([Buffer.from(good), Buffer.from([0xff])]);
    assert.equal((await check(bytes, cards[5]!)).code, 'tlog_proof_malformed');
    assert.equal((await check(Buffer.alloc((1 << 20) + 1, 0x41), cards[5]!)).code, 'tlog_proof_malformed');
  });
});

describe('tlog-proof: each way a proof can lie', () => {
  it('another index: the path of entry 5 read as entry 4 or 6 leads elsewhere', async () => {
    for (const i of [4, 6]) {
      const v = await check(log.proof(5).replace('index 5', `index ${i}`), cards[5]!);
      assert.equal(v.code, 'tlog_proof_not_included');
      assert.ok(v.checks.find((c) => c.check === 'log_signature')?.ok, 'the checkpoint itself still verifies');
    }
    assert.equal((await check(log.proof(5).replace('index 5', 'index 13'), cards[5]!)).code, 'tlog_proof_not_included');
  });

  it('a swapped or altered path element', async () => {
    const lines = log.proof(5).split('\n');
    [lines[2], lines[3]] = [lines[3]!, lines[2]!];
    assert.equal((await check(lines.join('\n'), cards[5]!)).code, 'tlog_proof_not_included');
    const altered = log.proof(5).split('\n');
    altered[4] = Buffer.alloc(32, 1).toString('base64');
    assert.equal((await check(altered.join('\n'), cards[5]!)).code, 'tlog_proof_not_included');
  });

  it('a truncated path, and one element too many', async () => {
    const lines = log.proof(5).split('\n');
    const shorter = [...lines.slice(0, 5), ...lines.slice(6)].join('\n');
    const v = await check(shorter, cards[5]!);
    assert.equal(v.code, 'tlog_proof_not_included');
    assert.match(v.checks.at(-1)!.detail, /shorter/);
    const longer = [...lines.slice(0, 6), Buffer.alloc(32).toString('base64'), ...lines.slice(6)].join('\n');
    const w = await check(longer, cards[5]!);
    assert.equal(w.code, 'tlog_proof_not_included');
    assert.match(w.checks.at(-1)!.detail, /longer/);
  });

  it("another card's proof: card 5's proof does not prove card 6", async () => {
    const v = await check(log.proof(5), cards[6]!);
    assert.equal(v.result, 'INVALID');
    assert.equal(v.code, 'tlog_proof_not_included');
  });

  it("an impostor log: its own key and its own tree under the origin's name are not VALID", async () => {
    const thiefSeed = Buffer.alloc(32, 99);
    // The impostor logs a card the real log never held, signs under the real origin's name, and
    // hands out its own vkey with the proof: the reader's trusted key for the origin is the real one.
    const forged = createHash('sha256').update('a card never logged').digest('hex');
    const impostor = signedLog([...cards.slice(0, 3), forged], ORIGIN, thiefSeed);
    const v = await check(impostor.proof(3), forged);
    assert.equal(v.result, 'INVALID');
    assert.equal(v.code, 'tlog_proof_log_signature');
    assert.ok(v.checks.find((c) => c.check === 'inclusion')?.ok, 'its path is sound: only the key tells');
    assert.deepEqual(v.ignored.length, 1);
    // Under another origin it is simply a log the reader does not trust.
    const elsewhere = signedLog([...cards.slice(0, 3), forged], 'evil.example/log', thiefSeed);
    assert.equal((await check(elsewhere.proof(3), forged)).code, 'tlog_proof_unknown_log');
    // And a reader that trusts nothing trusts no proof, whoever signed it.
    assert.equal((await check(log.proof(3), cards[3]!, { logs: [] })).code, 'tlog_proof_unknown_log');
  });

  it("the real log's signature line altered: a trusted key's bad signature rejects the proof", async () => {
    const sigLine = log.note.split('\n').find((l) => l.startsWith(`\u2014 ${ORIGIN} `))!;
    const raw = Buffer.from(sigLine.split(' ')[2]!, 'base64');
    raw[10] = raw[10]! ^ 1;
    const bad = log.proof(5).replace(sigLine, `\u2014 ${ORIGIN} ${raw.toString('base64')}`);
    assert.equal((await check(bad, cards[5]!)).code, 'tlog_proof_log_signature');
  });

  it('a cosignature by a witness the reader does not know counts for nothing', async () => {
    const byW2 = signedLog(cards, ORIGIN, LOG_SEED, [W2]);
    const want = trust({ witnesses: [W1], now: NOW });
    const v = await check(byW2.proof(5), cards[5]!, want);
    assert.equal(v.code, 'tlog_proof_quorum');
    assert.deepEqual(v.cosigned, []);
    assert.deepEqual(v.ignored, [`witness2.example+${await keyIdHex('witness2.example', W2.publicKey)}`]);
    // W2 signing under W1's name: another key ID, so still not W1's cosignature.
    const named = signedLog(cards, ORIGIN, LOG_SEED, [{ name: W1.name, seed: W2.seed }]);
    assert.equal((await check(named.proof(5), cards[5]!, want)).code, 'tlog_proof_quorum');
    // W1's own cosignature counts.
    const ok = await check(log.proof(5), cards[5]!, want);
    assert.equal(ok.result, 'VALID', JSON.stringify(ok.checks));
    assert.deepEqual(ok.cosigned, [{ witness: W1.name, timestamp: NOW }]);
    // Without witness keys, the cosignature lines are not checked, and say so.
    const none = await check(log.proof(5), cards[5]!);
    assert.equal(none.result, 'VALID');
    assert.match(none.checks.find((c) => c.check === 'cosignatures')!.detail, /no witness keys given/);
  });

  it("a known witness's altered cosignature, or one dated in the future, does not count", async () => {
    const line = log.note.split('\n').find((l) => l.startsWith(`\u2014 ${W1.name} `))!;
    const raw = Buffer.from(line.split(' ')[2]!, 'base64');
    raw[40] = raw[40]! ^ 1;
    const bad = log.proof(5).replace(line, `\u2014 ${W1.name} ${raw.toString('base64')}`);
    assert.equal((await check(bad, cards[5]!, trust({ witnesses: [W1], now: NOW }))).code, 'tlog_proof_cosignature');
    const future = signedLog(cards, ORIGIN, LOG_SEED, [W1], NOW + 301);
    const v = await check(future.proof(5), cards[5]!, trust({ witnesses: [W1], now: NOW }));
    assert.equal(v.code, 'tlog_proof_quorum');
    assert.equal((await check(future.proof(5), cards[5]!, trust({ witnesses: [W1], now: NOW + 1 }))).result, 'VALID');
  });

  it('a quorum of one of two, and a rule over the names', async () => {
    const both = trust({ witnesses: [W1, W2], now: NOW });
    assert.equal((await check(log.proof(5), cards[5]!, both)).code, 'tlog_proof_quorum');
    assert.equal((await check(log.proof(5), cards[5]!, { ...both, quorum: 1 })).result, 'VALID');
    const rule = { ...both, quorum: (names: readonly string[]) => names.includes(W2.name) };
    assert.equal((await check(log.proof(5), cards[5]!, rule)).code, 'tlog_proof_quorum');
  });

  it('a key revoked as compromised counts only for the checkpoint its revocation trusts', async () => {
    const revoked = (root: string, size: number): TlogProofTrust => ({
      logs: [{ origin: ORIGIN, publicKey: logKey, revoked: { trusted_size: size, trusted_root: root } }],
    });
    const root = hex(log.tree.root());
    assert.equal((await check(log.proof(5), cards[5]!, revoked(root, 13))).result, 'VALID');
    assert.equal((await check(log.proof(5), cards[5]!, revoked(root, 12))).code, 'tlog_proof_log_signature');
    assert.equal((await check(log.proof(5), cards[5]!, revoked('00'.repeat(32), 13))).code, 'tlog_proof_log_signature');
  });
});

async function keyIdHex(name: string, publicKey: Uint8Array): Promise<string> {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(name), Buffer.from([0x0a, 0x04]), publicKey]))
    .digest('hex')
    .slice(0, 8);
}
