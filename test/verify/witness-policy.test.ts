/**
 * A witness quorum a reader chooses (issue 31): the C2SP tlog-policy file is parsed as the
 * specification says (every refusal it names), its quorum is evaluated over the cosignatures on a
 * checkpoint, and `gspc verify --witness-policy` of a served release passes a policy of two
 * witnesses out of three with two cosignatures and fails it with one, naming who signed.
 * Issue 36: a name listed as a member of two groups is refused (one witness cannot fill two
 * groups), only space and tab separate items (U+00A0 is part of an item), names are octets, and a
 * cosignature dated more than 300 s after the reader's clock does not count, in gspc verify and
 * in the monitor, with the reason in the detail.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logOrigin, logVerifierKey } from '../../src/core/evidence/card-log.js';
import { COSIGNATURE_MAX_FUTURE_SECONDS, signCosignature } from '../../src/core/evidence/note/cosignature.js';
import { formatSignatureLine, parseNote, SIG_TYPE_COSIGNATURE_V1 } from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { evaluateWitnessPolicy, parseWitnessPolicy } from '../../src/core/evidence/note/witness-policy.js';
import { readPolicy } from '../../src/cli/verify.js';
import { runWitness } from '../../src/cli/witness.js';
import { loadRelease } from '../../src/release/load.js';
import { readWitnesses } from '../../src/release/witness-store.js';
import { ServedState } from '../../src/serve/served-state.js';
import { savedDidDocument } from '../helpers/anchor.js';
import { demoApp, liveSigning, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { observeView } from '../../src/verify/monitor-observe.js';
import { judgeWitnessPolicy } from '../../src/verify/witness-policy-check.js';

const NOW = Math.floor(Date.now() / 1000) - 60;
const witness = (name: string, seed: number) => {
  const pair = keyPairFromSeed(Buffer.alloc(32, seed));
  return {
    name,
    vkey: formatVerifierKey(name, pair.publicKey, SIG_TYPE_COSIGNATURE_V1),
    publicKey: pair.publicKey,
    cosign: (text: string, at = NOW) =>
      formatSignatureLine(signCosignature(text, { name, privateKey: Buffer.alloc(32, seed) }, at)),
  };
};
const [a, b, c] = [
  witness('witness-a.example', 11),
  witness('witness-b.example', 12),
  witness('witness-c.example', 13),
];
/** 2100-01-01T00:00:00Z, as POSIX seconds. */
const YEAR_2100 = 4102444800;
const twoOfThree = (log = '') =>
  `# two of three\n${log}witness A ${a.vkey}\nwitness B ${b.vkey} https://witness-b.example/\n\twitness C ${c.vkey}\ngroup abc 2 A B C\nquorum abc\n`;

describe('C2SP tlog-policy', () => {
  const text = 'example.com/log\n5\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n';
  const signatures = (lines: string[]) => {
    const parsed = parseNote(`${text}\n${lines.join('')}`);
    assert.ok(parsed.ok);
    return parsed.signatures;
  };
  const parsed = parseWitnessPolicy(twoOfThree());
  assert.ok(parsed.ok, JSON.stringify(parsed));
  const policy = parsed.policy;

  it('two of three: holds with two cosignatures, not with one or a wrong one, and names who signed', () => {
    const both = evaluateWitnessPolicy(policy, text, signatures([a.cosign(text), c.cosign(text)]), () => true, NOW);
    assert.deepEqual([both.satisfied, both.cosigned], [true, ['A', 'C']]);
    const one = evaluateWitnessPolicy(policy, text, signatures([b.cosign(text)]), () => true, NOW);
    assert.deepEqual([one.satisfied, one.cosigned], [false, ['B']]);
    const other = evaluateWitnessPolicy(
      policy,
      text,
      signatures([a.cosign(`${text}x\n`), b.cosign(text)]),
      () => true,
      NOW,
    );
    assert.deepEqual(
      [other.satisfied, other.cosigned],
      [false, ['B']],
      'a cosignature of another checkpoint counts for nothing',
    );
  });

  it('nested groups, any and all, and quorum none', () => {
    const nested = parseWitnessPolicy(
      `witness A ${a.vkey}\nwitness B ${b.vkey}\nwitness C ${c.vkey}\ngroup ab any A B\ngroup both all ab C\nquorum both\n`,
    );
    assert.ok(nested.ok);
    const sigs = (ws: (typeof a)[]) => signatures(ws.map((w) => w.cosign(text)));
    assert.equal(evaluateWitnessPolicy(nested.policy, text, sigs([b, c]), () => true, NOW).satisfied, true);
    assert.equal(evaluateWitnessPolicy(nested.policy, text, sigs([a, b]), () => true, NOW).satisfied, false);
    const none = parseWitnessPolicy('quorum none\n');
    assert.ok(none.ok);
    assert.equal(evaluateWitnessPolicy(none.policy, text, [], () => true, NOW).satisfied, true);
  });

  it('a cosignature dated more than 300 s after the clock does not count, and says why; one at the bound counts', () => {
    const abc = `witness A ${a.vkey}\nwitness B ${b.vkey}\nwitness C ${c.vkey}\ngroup abc all A B C\nquorum abc\n`;
    const all = parseWitnessPolicy(abc);
    assert.ok(all.ok);
    const future = evaluateWitnessPolicy(
      all.policy,
      text,
      signatures([a.cosign(text, YEAR_2100), b.cosign(text), c.cosign(text)]),
      () => true,
      NOW,
    );
    assert.deepEqual([future.satisfied, future.cosigned], [false, ['B', 'C']], 'the year-2100 cosignature counted');
    assert.equal(future.refused.length, 1);
    assert.equal(future.refused[0]!.witness, 'A');
    assert.match(
      future.refused[0]!.reason,
      /^cosignature timestamp 2100-01-01T00:00:00Z is more than 300 s in the future \(the clock here reads \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/,
    );
    assert.equal(COSIGNATURE_MAX_FUTURE_SECONDS, 300);
    const atBound = evaluateWitnessPolicy(
      all.policy,
      text,
      signatures([a.cosign(text, NOW + 300), b.cosign(text), c.cosign(text)]),
      () => true,
      NOW,
    );
    assert.deepEqual([atBound.satisfied, atBound.refused], [true, []], 'a cosignature 300 s ahead is within the skew');
    const past = evaluateWitnessPolicy(all.policy, text, signatures([a.cosign(text, NOW + 301)]), () => true, NOW);
    assert.deepEqual(past.cosigned, []);
    // A valid current line of the same witness still counts beside a future one.
    const both = evaluateWitnessPolicy(
      all.policy,
      text,
      signatures([a.cosign(text, YEAR_2100), a.cosign(text), b.cosign(text), c.cosign(text)]),
      () => true,
      NOW,
    );
    assert.deepEqual([both.satisfied, both.refused], [true, []]);
    // The same cosignatures, judged by a clock in the year 2100, count.
    assert.equal(
      evaluateWitnessPolicy(
        all.policy,
        text,
        signatures([a.cosign(text, YEAR_2100), b.cosign(text), c.cosign(text)]),
        () => true,
        YEAR_2100,
      ).satisfied,
      true,
    );
  });

  it("the check's detail names the witness whose cosignature is in the future, by the caller's clock", () => {
    const onlyA = parseWitnessPolicy(`witness A ${a.vkey}\nquorum A\n`);
    assert.ok(onlyA.ok);
    const note = `${text}\n${a.cosign(text, YEAR_2100)}`;
    const judged = judgeWitnessPolicy(note, onlyA.policy, new Date(NOW * 1000));
    assert.equal(judged.ok, false);
    assert.match(
      judged.detail,
      /^quorum A does not hold: cosigned by no witness of the policy \(of 1 witnesses the policy names\); not counted: witness A: cosignature timestamp 2100-01-01T00:00:00Z is more than 300 s in the future/,
    );
    assert.deepEqual(judgeWitnessPolicy(note, onlyA.policy, new Date(YEAR_2100 * 1000)), {
      ok: true,
      detail: 'quorum A holds: cosigned by A',
    });
    const wrong = judgeWitnessPolicy(`${text}\n${a.cosign(`${text}x\n`)}`, onlyA.policy, new Date(NOW * 1000));
    assert.match(wrong.detail, /not counted: witness A: its cosignature does not verify over this checkpoint/);
  });

  it('spec-exact acceptance: space and tab runs, leading zeros in k, a log and a witness sharing a key', () => {
    const spaced = parseWitnessPolicy(
      ` \t witness  A\t${a.vkey}  \nwitness B ${b.vkey}\n\t# a comment after a tab\n   \ngroup g\t 02 \tA B\n  quorum g \t`,
    );
    assert.ok(spaced.ok, JSON.stringify(spaced));
    assert.deepEqual(spaced.policy.groups.get('g'), { k: 2, members: ['A', 'B'] }, '"02" is decimal 2');
    assert.equal(spaced.policy.quorum, 'g', 'the last line needs no newline');
    // tlog-policy forbids duplicate logs and duplicate witnesses, not a log key that is also a
    // witness key (the signature types differ, so one never passes for the other).
    const shared = parseWitnessPolicy(
      `log ${logVerifierKey('witness-a.example', a.publicKey)}\nwitness A ${a.vkey}\nquorum A\n`,
    );
    assert.ok(shared.ok, JSON.stringify(shared));
  });

  it('names are opaque octets: two names that differ only in bytes that are not UTF-8 stay two names', () => {
    const file = join(tempDir(), 'octets');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`witness A`),
        Buffer.from([0xff]),
        Buffer.from(` ${a.vkey}\nwitness A`),
        Buffer.from([0xfe]),
        Buffer.from(` ${b.vkey}\ngroup both all A`),
        Buffer.from([0xff]),
        Buffer.from(' A'),
        Buffer.from([0xfe]),
        Buffer.from('\nquorum both\n'),
      ]),
    );
    const policy = readPolicy(file);
    assert.equal(policy.witnesses.size, 2);
    assert.deepEqual(policy.groups.get('both'), { k: 2, members: ['A\u00ff', 'A\u00fe'] });
    // A name in UTF-8 is kept as its octets and shown as its text.
    const kelvin = parseWitnessPolicy(`witness \u212a ${a.vkey}\nwitness K ${b.vkey}\nquorum \u212a\n`);
    assert.ok(kelvin.ok, 'the Kelvin sign and K are different names');
    const note = `${text}\n${a.cosign(text)}`;
    assert.equal(
      judgeWitnessPolicy(note, kelvin.policy, new Date(NOW * 1000)).detail,
      'quorum \u212a holds: cosigned by \u212a',
    );
  });

  const refusals: [string, string, RegExp][] = [
    ['no quorum', `witness A ${a.vkey}\n`, /no quorum line/],
    ['two quorums', `witness A ${a.vkey}\nquorum A\nquorum none\n`, /line 3: a second quorum line/],
    [
      'a name used before it is defined',
      `group g any A\nwitness A ${a.vkey}\nquorum g\n`,
      /line 1: member A is not a witness or group defined above/,
    ],
    [
      'a name defined twice',
      `witness A ${a.vkey}\nwitness A ${b.vkey}\nquorum A\n`,
      /line 2: the name A is already defined/,
    ],
    [
      'the same key twice',
      `witness A ${a.vkey}\nwitness B ${a.vkey}\nquorum A\n`,
      /line 2: witness key witness-a.example: the same public key as witness A/,
    ],
    [
      'a member twice in one group',
      `witness A ${a.vkey}\ngroup g 1 A A\nquorum g\n`,
      /line 2: member A is already a member of group g: each name can be listed as a group member at most once/,
    ],
    [
      'a witness listed in two groups (issue 36: one witness filled both)',
      `witness A ${a.vkey}\nwitness B ${b.vkey}\nwitness C ${c.vkey}\ngroup G1 any A B\ngroup G2 any A C\ngroup two-orgs 2 G1 G2\nquorum two-orgs\n`,
      /^line 5: member A is already a member of group G1: each name can be listed as a group member at most once$/,
    ],
    [
      'a group listed in two groups',
      `witness A ${a.vkey}\nwitness B ${b.vkey}\ngroup g any A\ngroup h all g B\ngroup i any g\nquorum h\n`,
      /^line 5: member g is already a member of group h/,
    ],
    [
      'none as a group name',
      `witness A ${a.vkey}\ngroup none any A\nquorum A\n`,
      /line 2: the name none is predefined/,
    ],
    ['none as a witness name', `witness none ${a.vkey}\nquorum none\n`, /line 1: the name none is predefined/],
    [
      'two logs with the same key under different names',
      `log ${logVerifierKey('example.com/log', Buffer.alloc(32, 3))}\nlog ${logVerifierKey('example.org/other', Buffer.alloc(32, 3))}\nquorum none\n`,
      /line 2: log key example.org\/other: the same public key as the log on line 1/,
    ],
    [
      'two witnesses with the same key',
      `witness A ${a.vkey}\nwitness B ${formatVerifierKey('another.example', a.publicKey, SIG_TYPE_COSIGNATURE_V1)}\nquorum A\n`,
      /line 2: witness key another.example: the same public key as witness A/,
    ],
    ['a threshold that is not decimal', `witness A ${a.vkey}\ngroup g +1 A\nquorum g\n`, /threshold \+1/],
    ['a threshold in hex', `witness A ${a.vkey}\ngroup g 0x1 A\nquorum g\n`, /threshold 0x1/],
    // Only space (U+0020) and tab (U+0009) separate items; U+00A0 (and every other Unicode space)
    // is an opaque part of the item it touches, so it is not trimmed either.
    [
      'U+00A0 after the quorum name',
      'quorum none\u00a0\n',
      /^line 1: quorum none\u00a0 is not defined above \(the line holds U\+00A0, which is not whitespace in a tlog-policy: only space and tab separate items\)$/,
    ],
    ['U+00A0 before the line type', '\u00a0quorum none\n', /line 1: unknown line type "\u00a0quorum"/],
    ['U+00A0 as a separator', 'quorum\u00a0none\n', /line 1: unknown line type "quorum\u00a0none"/],
    ['U+00A0 after a vkey', `witness A ${a.vkey}\u00a0\nquorum A\n`, /line 1: witness key: malformed verifier key/],
    [
      'U+3000 (ideographic space) as a separator',
      'quorum\u3000none\n',
      /unknown line type "quorum\u3000none" \(the line holds U\+3000/,
    ],
    [
      'a byte order mark (opaque octets)',
      '\ufeffquorum none\n',
      /line 1: unknown line type "\ufeffquorum" \(the line holds U\+FEFF/,
    ],
    ['none as a member', `witness A ${a.vkey}\ngroup g any A none\nquorum g\n`, /member none is not/],
    [
      'a threshold above n',
      `witness A ${a.vkey}\ngroup g 2 A\nquorum g\n`,
      /threshold 2: all, any, or a number from 1 to 1/,
    ],
    ['a threshold of 0', `witness A ${a.vkey}\ngroup g 0 A\nquorum g\n`, /threshold 0/],
    [
      'a note key as a witness',
      `witness A ${logVerifierKey('example.com/log', Buffer.alloc(32, 3))}\nquorum A\n`,
      /is not a cosignature\/v1 key/,
    ],
    ['a cosignature key as a log', `log ${a.vkey}\nquorum none\n`, /is not an Ed25519 note key/],
    ['an unknown line', 'witnesses A x\nquorum none\n', /unknown line type "witnesses"/],
    ['a control character', 'quorum none\r\n', /a control character other than tab/],
    ['an undefined quorum', 'quorum A\n', /quorum A is not defined above/],
  ];
  for (const [what, text2, expected] of refusals)
    it(`refuses ${what}`, () => {
      const r = parseWitnessPolicy(text2);
      assert.equal(r.ok, false);
      assert.match((r as { reason: string }).reason, expected);
    });
});

describe('gspc verify --witness-policy of a served release', () => {
  const signing = testSigning();
  const { dataDir } = demoApp(undefined, signing);
  const release = loadRelease(join(dataDir, 'current'));
  const note = release.evidence.log.checkpoint!;
  const checkpointText = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const policyFile = join(tempDir(), 'policy');
  const origin = logOrigin(signing.did);
  const boardX = signing.inputs.boardKey.healthy ? signing.inputs.boardKey.signer.publicKey : Buffer.alloc(32);
  writeFileSync(policyFile, twoOfThree(`log ${logVerifierKey(origin, boardX)}\n`));
  let app: ReturnType<typeof buildApp> | undefined;
  let trust: string[] = [];
  after(() => app?.close());
  const serve = async () => {
    await app?.close();
    app = buildApp({
      state: new ServedState(release, liveSigning(signing), (sha) => readWitnesses(dataDir, sha)),
      logLevel: 'silent',
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // The test keys' DID host (localhost:8080) does not serve them: the reader anchors them (issue 36).
    trust = ['--trust-did-document', savedDidDocument(await (await fetch(`${url}/.well-known/did.json`)).json())];
    return url;
  };
  const record = async (w: typeof a) => {
    const file = join(tempDir(), `${w.name}.txt`);
    writeFileSync(file, w.cosign(checkpointText));
    await runWitness(dataDir, { kind: 'transparency-log', evidence: file, witnessKeys: [w.vkey], now: NOW + 60 });
  };

  it('one cosignature of three: the quorum of two does not hold, and gspc verify fails naming who signed', async () => {
    await record(b);
    const r = await gspc(['verify', await serve(), '--witness-policy', policyFile, ...trust]);
    assert.equal(r.status, 1, r.stdout);
    assert.match(
      r.stdout,
      /^ {2}FAIL witness_policy: quorum abc does not hold: cosigned by B \(of 3 witnesses the policy names\)$/m,
    );
    assert.match(r.stdout, /^INVALID: 1 failed check \(witness_policy\)/m);
  });

  it('two cosignatures: the quorum holds, and everything else passes as without a policy', async () => {
    await record(c);
    const r = await gspc(['verify', await serve(), '--witness-policy', policyFile, ...trust]);
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /^ {2}ok {3}witness_policy: quorum abc holds: cosigned by B, C$/m);
  });

  it('a cosignature dated in the year 2100 counts neither for gspc verify nor for the monitor, and both say why', async () => {
    // Recorded by an operator whose clock says 2100 (the recorder refuses future ones by its own clock).
    const file = join(tempDir(), 'future.txt');
    writeFileSync(file, a.cosign(checkpointText, YEAR_2100));
    await runWitness(dataDir, { kind: 'transparency-log', evidence: file, witnessKeys: [a.vkey], now: YEAR_2100 });
    const onlyA = join(tempDir(), 'only-a');
    writeFileSync(onlyA, `witness A ${a.vkey}\nquorum A\n`);
    const url = await serve();
    const r = await gspc(['verify', url, '--witness-policy', onlyA, ...trust]);
    assert.equal(r.status, 1, r.stdout);
    assert.match(
      r.stdout,
      /^ {2}FAIL witness_policy: quorum A does not hold: cosigned by no witness of the policy \(of 1 witnesses the policy names\); not counted: witness A: cosignature timestamp 2100-01-01T00:00:00Z is more than 300 s in the future \(the clock here reads 20\d\d-/m,
    );
    // Two of three still holds with B and C, and the detail says why A did not count.
    const two = await gspc(['verify', url, '--witness-policy', policyFile, ...trust]);
    assert.equal(two.status, 0, two.stdout);
    assert.match(
      two.stdout,
      /^ {2}ok {3}witness_policy: quorum abc holds: cosigned by B, C; not counted: witness A: cosignature timestamp 2100-01-01T00:00:00Z is more than 300 s in the future/m,
    );
    const policy = readPolicy(onlyA);
    const seen = await observeView(url, undefined, { policy, now: new Date(NOW * 1000) });
    assert.equal(seen.problem?.alert, 'witness_quorum');
    assert.match(
      seen.problem.detail,
      /witness A: cosignature timestamp 2100-01-01T00:00:00Z is more than 300 s in the future/,
    );
    const later = await observeView(url, undefined, { policy, now: new Date(YEAR_2100 * 1000) });
    assert.equal(later.problem, undefined, 'by a clock in 2100 it counts');
  });

  it('a policy whose log is another key fails; a file that is no policy is refused before anything is fetched', async () => {
    const other = join(tempDir(), 'other');
    writeFileSync(other, twoOfThree(`log ${logVerifierKey(origin, Buffer.alloc(32, 99))}\n`));
    const r = await gspc(['verify', await serve(), '--witness-policy', other, ...trust]);
    assert.match(r.stdout, /FAIL witness_policy: the checkpoint of .* is signed by none of the policy's logs/);
    const bad = join(tempDir(), 'bad');
    writeFileSync(bad, 'quorum A\n');
    const refused = await gspc(['verify', 'http://127.0.0.1:9', '--witness-policy', bad]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /is not a C2SP tlog-policy: line 1: quorum A is not defined above/);
  });
});
