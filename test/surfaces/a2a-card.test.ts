/**
 * The signed A2A agent card (issue 6): v1.0 shape with no empty or default-valued field (so the
 * SDK's canonical form is plain RFC 8785), an EdDSA detached JWS under #card-attestation-2 that
 * the SDK verifier accepts, byte-identical to the SDK's own signer over the same key, earlier
 * cards under #card-attestation-1 still verifying, an unhealthy key served unsigned with its
 * reason, and `verifyAgentCard`'s refusals. Routing of messages to skills is checked here too.
 */
import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { importJWK, type CryptoKey } from 'jose';
import { AgentCard, canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';
import { canonicalJson } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { agentCardBody } from '../../src/surfaces/a2a/agent-card.js';
import { signAgentCard, verifyAgentCard } from '../../src/core/verify/agent-card-signature.js';
import { routeMessage, SKILLS } from '../../src/surfaces/a2a/skills.js';
import { demoApp, liveSigning, TEST_DID_HOST, testSigning } from '../helpers/app.js';
import { demoCorpus } from '../helpers/tmp.js';

type Card = Record<string, unknown> & {
  skills: { id: string; description: string; examples: string[] }[];
  signatures?: { protected: string; signature: string }[];
  description: string;
};

const signing = testSigning();
const { app, dir } = demoApp(demoCorpus, signing);
const get = async (url: string) => (await app.inject({ method: 'GET', url })).body;
const servedCard = async () => JSON.parse(await get('/.well-known/agent-card.json')) as Card;
const didDoc = async () =>
  JSON.parse(await get('/.well-known/did.json')) as {
    verificationMethod: { id: string; publicKeyJwk: Record<string, string> }[];
    assertionMethod: string[];
  };
const fromServedDid = async (kid: string) => {
  const vm = (await didDoc()).verificationMethod.find((m) => m.id === kid);
  if (!vm) throw new Error(`${kid} is not in the DID document`);
  return (await importJWK(vm.publicKeyJwk, 'EdDSA')) as CryptoKey;
};
const header = (card: Card) =>
  JSON.parse(Buffer.from(card.signatures![0]!.protected, 'base64url').toString('utf8')) as Record<string, unknown>;

/** Every string non-empty, every array and object non-empty, no null: nothing the SDK would drop. */
function emptyPaths(v: unknown, path = '$'): string[] {
  if (v === null || v === '') return [path];
  if (Array.isArray(v)) return v.length === 0 ? [path] : v.flatMap((x, i) => emptyPaths(x, `${path}[${i}]`));
  if (typeof v === 'object')
    return Object.keys(v).length === 0 ? [path] : Object.entries(v).flatMap(([k, x]) => emptyPaths(x, `${path}.${k}`));
  return [];
}

describe('the agent card as served', () => {
  it('is an A2A v1.0 card: 11 skills with the fabric ids, nothing empty, SDK canonical form = RFC 8785', async () => {
    const card = await servedCard();
    for (const k of [
      'name',
      'description',
      'supportedInterfaces',
      'version',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
      'provider',
      'documentationUrl',
      'signatures',
    ])
      assert.ok(k in card, k);
    for (const k of ['url', 'protocolVersion', 'preferredTransport']) assert.ok(!(k in card), `no v0.3 field ${k}`);
    assert.deepEqual(card.capabilities, { streaming: false, pushNotifications: false });
    assert.match(card.description, /Task execution, streaming and push notifications are not offered/);
    assert.equal(card.skills.length, 11);
    assert.equal(new Set(card.skills.map((s) => s.id)).size, 11);
    for (const id of ['board-summary', 'regulation-deadlines', 'root-pointer'])
      assert.ok(
        card.skills.some((s) => s.id === id),
        id,
      );
    for (const s of card.skills)
      for (const k of ['id', 'name', 'description', 'tags', 'examples']) assert.ok(k in s, `${s.id}.${k}`);
    assert.deepEqual(emptyPaths(card), []);
    const { signatures: _s, ...unsigned } = card;
    assert.equal(canonicalizeAgentCard(card as unknown as AgentCard), canonicalJson(unsigned));
    // The SDK's own round trip drops nothing from the served card.
    assert.deepEqual(AgentCard.toJSON(AgentCard.fromJSON(card)), card);
  });

  it('is signed EdDSA/JOSE under #card-attestation-2; the SDK verifier accepts it with the served DID document', async () => {
    const card = await servedCard();
    assert.equal(card.signatures!.length, 1);
    assert.deepEqual(header(card), { alg: 'EdDSA', kid: `${signing.did}#card-attestation-2`, typ: 'JOSE' });
    await verifyAgentCardSignature(fromServedDid)(card as unknown as AgentCard);
    assert.deepEqual(verifyAgentCard(card, await didDoc()), {
      ok: true,
      detail: `signatures[0] verified under ${signing.did}#card-attestation-2 over the RFC 8785 form of the card without signatures`,
    });
  });

  it('equals, byte for byte, what the SDK signer makes with the same key (Ed25519 is deterministic)', async () => {
    const card = await servedCard();
    const seed = Buffer.from(readFileSync(join(signing.keyDir, 'card-attestation-2.key'), 'utf8').trim(), 'base64url');
    const { signatures: _s, ...unsigned } = card;
    const sdk = await generateAgentCardSignature(keyPairFromSeed(seed).privateKey, {
      alg: 'EdDSA',
      kid: `${signing.did}#card-attestation-2`,
      typ: 'JOSE',
    })(AgentCard.fromJSON(unsigned));
    assert.deepEqual(
      sdk.signatures.map((s) => ({ protected: s.protected, signature: s.signature })),
      card.signatures,
    );
  });

  it('is cached per served state: both paths, repeated reads and a second app over the same keys give the same bytes', async () => {
    const a = await get('/.well-known/agent-card.json');
    assert.equal(await get('/.well-known/agent.json'), a);
    assert.equal(await get('/.well-known/agent-card.json'), a);
    const again = buildApp({ state: new ServedState(loadRelease(dir), liveSigning(signing)), logLevel: 'silent' });
    try {
      assert.equal((await again.inject({ method: 'GET', url: '/.well-known/agent-card.json' })).body, a);
    } finally {
      await again.close();
    }
    assert.equal((await app.inject({ method: 'GET', url: '/.well-known/agent-card.json?x=1' })).statusCode, 400);
  });

  it('a card signed earlier under #card-attestation-1 still verifies against the served DID document', async () => {
    const old = signing.keys.state('card-attestation-1');
    assert.ok(old.healthy);
    const { signatures: _s, ...unsigned } = await servedCard();
    const earlier = signAgentCard({ ...unsigned, version: 'r-earlier' }, old.signer) as unknown as Card;
    assert.equal(header(earlier).kid, `${signing.did}#card-attestation-1`);
    await verifyAgentCardSignature(fromServedDid)(earlier as unknown as AgentCard);
    assert.equal(verifyAgentCard(earlier, await didDoc()).ok, true);
  });
});

describe('verifyAgentCard refuses', () => {
  it('a changed field, a changed signature, an unknown or unasserted kid, another alg or typ, and no signatures', async () => {
    const card = await servedCard();
    const doc = await didDoc();
    const kid = `${signing.did}#card-attestation-2`;
    const c = () => JSON.parse(JSON.stringify(card)) as Card;
    const changed = c();
    changed.skills[0]!.examples = [...changed.skills[0]!.examples, 'one more'];
    const sig = c();
    // Another first character (never the same one: that would leave the signature unchanged).
    const s0 = sig.signatures![0]!.signature;
    sig.signatures![0]!.signature = `${s0[0] === 'A' ? 'B' : 'A'}${s0.slice(1)}`;
    const unasserted = { ...doc, assertionMethod: doc.assertionMethod.filter((k) => k !== kid) };
    const withHeader = (h: Record<string, unknown>) => {
      const x = c();
      x.signatures![0]!.protected = Buffer.from(JSON.stringify(h)).toString('base64url');
      return x;
    };
    const cases: [unknown, unknown, RegExp][] = [
      [changed, doc, /does not verify under/],
      [sig, doc, /does not verify under|not unpadded base64url/],
      [card, { ...doc, verificationMethod: [] }, /not an Ed25519 verification method/],
      [card, unasserted, /not listed under assertionMethod/],
      [withHeader({ alg: 'ES256', kid, typ: 'JOSE' }), doc, /alg is ES256/],
      [withHeader({ alg: 'EdDSA', kid }), doc, /typ is undefined/],
      [{ ...card, signatures: [] }, doc, /has no signatures/],
      ['a string', doc, /not a JSON object/],
    ];
    for (const [x, d, why] of cases) {
      const r = verifyAgentCard(x, d);
      assert.equal(r.ok, false);
      assert.match(r.detail, why);
    }
  });
});

describe('an unhealthy or absent card key', () => {
  it('serves the card unsigned and says why in the description; a healthy key signs again', async () => {
    const s2 = testSigning();
    const { app: app2, state } = demoApp(demoCorpus, s2);
    const keyDir = s2.keyDir;
    chmodSync(join(keyDir, 'card-attestation-2.key'), 0o644);
    const unhealthy = signingContext(keyDir, TEST_DID_HOST);
    state.setSigning(liveSigning(unhealthy));
    const card = JSON.parse((await app2.inject({ method: 'GET', url: '/.well-known/agent-card.json' })).body) as Card;
    assert.equal(card.signatures, undefined);
    assert.match(
      card.description,
      /This card is served unsigned: key card-attestation-2 is unhealthy: the key file is readable or writable by group or others/,
    );
    state.setSigning({ did: s2.did, boardKey: s2.inputs.boardKey, published: s2.keys.published });
    const noKey = JSON.parse((await app2.inject({ method: 'GET', url: '/.well-known/agent-card.json' })).body) as Card;
    assert.match(noKey.description, /served unsigned: no agent card key \(card-attestation-2\) is loaded/);
    chmodSync(join(keyDir, 'card-attestation-2.key'), 0o600);
    state.setSigning(liveSigning(signingContext(keyDir, TEST_DID_HOST)));
    const signed = JSON.parse((await app2.inject({ method: 'GET', url: '/.well-known/agent-card.json' })).body) as Card;
    assert.equal(signed.signatures!.length, 1);
  });
});

describe('routing a message to a skill', () => {
  const axes = ['governance', 'jail', 'cross-reality'];
  const examples = { axis: 'jail', comparisonAxis: 'jail', cardId: '0123456789abcdef' };
  it('every example of every skill routes to that skill', () => {
    for (const s of SKILLS)
      for (const ex of s.examples(examples))
        assert.equal(routeMessage({ text: ex, data: [], metadata: {} }, axes).skill, s.id, ex);
  });
  it('metadata skill wins; a leading skill id next; a verification body as data; a known axis; otherwise none', () => {
    const r = (text: string, metadata: Record<string, unknown> = {}, data: unknown[] = []) =>
      routeMessage({ text, data, metadata }, axes);
    assert.deepEqual(
      [r('verify everything', { skill: 'did-keys' }).skill, r('verify everything', { skill: 'did-keys' }).routedBy],
      ['did-keys', 'metadata'],
    );
    assert.equal(r('corrections of the board').skill, 'corrections');
    assert.deepEqual(
      [r('hello', {}, [{ schema: 'card-v1' }]).skill, r('hello', {}, [{ ids: [] }]).routedBy],
      ['card-verification', 'data-part'],
    );
    assert.deepEqual(
      [r('How is cross-reality doing?').skill, r('How is cross-reality doing?').axis],
      ['axis-lookup', 'cross-reality'],
    );
    assert.deepEqual(r('verify 0123456789ABCDEF and ' + 'a'.repeat(64)).ids, ['0123456789abcdef', 'a'.repeat(64)]);
    assert.deepEqual([r('hello there').skill, r('hello there').routedBy], [null, 'none']);
    assert.throws(
      () => r('board', { skill: 'buy-a-grade' }),
      (e: Error) => e.name === 'RequestMalformedError' && /must name one of/.test(e.message),
    );
  });
  it('examples in the card quote the served release (an axis and a card that exist)', async () => {
    const card = await servedCard();
    const axisExample = card.skills.find((s) => s.id === 'axis-lookup')!.examples[0]!;
    const cardExample = card.skills.find((s) => s.id === 'card-lookup')!.examples[0]!;
    assert.equal(
      (await app.inject({ method: 'GET', url: `/api/gspc?axis=${axisExample.split(' ')[1]}` })).statusCode,
      200,
    );
    assert.equal(
      (await app.inject({ method: 'GET', url: `/cards/${cardExample.split(' ')[1]}.json` })).statusCode,
      200,
    );
  });
  it('agentCardBody omits the provider when the issuer is empty (no empty field is ever served)', () => {
    const body = agentCardBody({ baseUrl: 'https://board.example', issuer: ' ', release: 'r-1', examples });
    assert.equal('provider' in body, false);
    assert.deepEqual(emptyPaths(body), []);
  });
});

describe('axis-lookup metadata "cursor" (review of issue 39)', () => {
  it('a cursor that is not a string is refused (-32602), never ignored as page 1', () => {
    for (const cursor of [5, ['pairs:5'], { at: 5 }, null])
      assert.throws(
        () => routeMessage({ text: '', data: [], metadata: { skill: 'axis-lookup', axis: 'jail', cursor } }, ['jail']),
        /metadata\.cursor must be a string/,
      );
  });
});
