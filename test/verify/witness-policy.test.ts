/**
 * A witness quorum a reader chooses (issue 31): the C2SP tlog-policy file is parsed as the
 * specification says (every refusal it names), its quorum is evaluated over the cosignatures on a
 * checkpoint, and `gspc verify --witness-policy` of a served release passes a policy of two
 * witnesses out of three with two cosignatures and fails it with one, naming who signed.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logOrigin, logVerifierKey } from '../../src/core/evidence/card-log.js';
import { signCosignature } from '../../src/core/evidence/note/cosignature.js';
import { formatSignatureLine, parseNote, SIG_TYPE_COSIGNATURE_V1 } from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { evaluateWitnessPolicy, parseWitnessPolicy } from '../../src/core/evidence/note/witness-policy.js';
import { runWitness } from '../../src/cli/witness.js';
import { loadRelease } from '../../src/release/load.js';
import { readWitnesses } from '../../src/release/witness-store.js';
import { ServedState } from '../../src/serve/served-state.js';
import { demoApp, liveSigning, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const NOW = Math.floor(Date.now() / 1000) - 60;
const witness = (name: string, seed: number) => {
  const pair = keyPairFromSeed(Buffer.alloc(32, seed));
  return {
    name,
    vkey: formatVerifierKey(name, pair.publicKey, SIG_TYPE_COSIGNATURE_V1),
    cosign: (text: string) =>
      formatSignatureLine(signCosignature(text, { name, privateKey: Buffer.alloc(32, seed) }, NOW)),
  };
};
const [a, b, c] = [
  witness('witness-a.example', 11),
  witness('witness-b.example', 12),
  witness('witness-c.example', 13),
];
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
    const both = evaluateWitnessPolicy(policy, text, signatures([a.cosign(text), c.cosign(text)]), () => true);
    assert.deepEqual([both.satisfied, both.cosigned], [true, ['A', 'C']]);
    const one = evaluateWitnessPolicy(policy, text, signatures([b.cosign(text)]), () => true);
    assert.deepEqual([one.satisfied, one.cosigned], [false, ['B']]);
    const other = evaluateWitnessPolicy(policy, text, signatures([a.cosign(`${text}x\n`), b.cosign(text)]), () => true);
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
    assert.equal(evaluateWitnessPolicy(nested.policy, text, sigs([b, c]), () => true).satisfied, true);
    assert.equal(evaluateWitnessPolicy(nested.policy, text, sigs([a, b]), () => true).satisfied, false);
    const none = parseWitnessPolicy('quorum none\n');
    assert.ok(none.ok);
    assert.equal(evaluateWitnessPolicy(none.policy, text, [], () => true).satisfied, true);
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
      /the same public key is listed twice/,
    ],
    ['a member twice', `witness A ${a.vkey}\ngroup g 1 A A\nquorum g\n`, /a member is listed twice/],
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
  after(() => app?.close());
  const serve = async () => {
    await app?.close();
    app = buildApp({
      state: new ServedState(release, liveSigning(signing), (sha) => readWitnesses(dataDir, sha)),
      logLevel: 'silent',
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  };
  const record = async (w: typeof a) => {
    const file = join(tempDir(), `${w.name}.txt`);
    writeFileSync(file, w.cosign(checkpointText));
    await runWitness(dataDir, { kind: 'transparency-log', evidence: file, witnessKeys: [w.vkey], now: NOW + 60 });
  };

  it('one cosignature of three: the quorum of two does not hold, and gspc verify fails naming who signed', async () => {
    await record(b);
    const r = await gspc(['verify', await serve(), '--witness-policy', policyFile]);
    assert.equal(r.status, 1, r.stdout);
    assert.match(
      r.stdout,
      /^ {2}FAIL witness_policy: quorum abc does not hold: cosigned by B \(of 3 witnesses the policy names\)$/m,
    );
    assert.match(r.stdout, /^INVALID: 1 failed check \(witness_policy\)/m);
  });

  it('two cosignatures: the quorum holds, and everything else passes as without a policy', async () => {
    await record(c);
    const r = await gspc(['verify', await serve(), '--witness-policy', policyFile]);
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /^ {2}ok {3}witness_policy: quorum abc holds: cosigned by B, C$/m);
  });

  it('a policy whose log is another key fails; a file that is no policy is refused before anything is fetched', async () => {
    const other = join(tempDir(), 'other');
    writeFileSync(other, twoOfThree(`log ${logVerifierKey(origin, Buffer.alloc(32, 99))}\n`));
    const r = await gspc(['verify', await serve(), '--witness-policy', other]);
    assert.match(r.stdout, /FAIL witness_policy: the checkpoint of .* is signed by none of the policy's logs/);
    const bad = join(tempDir(), 'bad');
    writeFileSync(bad, 'quorum A\n');
    const refused = await gspc(['verify', 'http://127.0.0.1:9', '--witness-policy', bad]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /is not a C2SP tlog-policy: line 1: quorum A is not defined above/);
  });
});
