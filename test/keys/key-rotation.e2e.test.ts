/**
 * Keys that can change (issue 30), as an operator meets it. Before, `gspc keygen --force` wrote
 * new keys and every later publish was refused for good (`log_consistency: earlier checkpoints
 * that fail: … (signature)`). Now keygen --force refuses once a release exists and points to
 * `gspc keys rotate`, and A, rotate the board key, B, rotate the agent-card key, C: each publish
 * is verified before it goes live, the log is one consistent log whose earlier checkpoints are
 * checked under the key of their time, and the served DID document lists the retired keys, which
 * the browser verifier and the A2A did-keys skill read as such. A rotation is staged until the
 * publish that logs it (issue 36): the key directory's own keys change only then.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { liveOf } from '../../src/service.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { REPLICA_MARKER, requireReleaseKeys } from '../../src/release/release-keys.js';
import { ServedState } from '../../src/serve/served-state.js';
import { browserMissing, verifyServedInBrowser } from '../helpers/browser.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
type Json = any;

const publishedId = (stdout: string) => /^published (r-[0-9a-f]{20})/.exec(stdout)![1]!;

describe('key rotation: A, rotate the board key, B, rotate the agent-card key, C', () => {
  const data = tempDir();
  const keyDir = join(data, 'keys');
  let port = 0;
  let origin = '';
  const ids: string[] = [];
  const publicKeys = () => JSON.parse(readFileSync(join(keyDir, 'public-keys.json'), 'utf8')) as Record<string, string>;
  const publish = async () => {
    const r = await gspc(['publish', demoCorpus, '--data-dir', data, '--public-url', origin]);
    assert.equal(r.status, 0, r.stderr);
    ids.push(publishedId(r.stdout));
  };

  before(async () => {
    port = await freePort();
    origin = `http://localhost:${port}`;
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    await publish(); // A
  });

  it('keygen --force refuses once a release exists, points to keys rotate, and changes nothing', async () => {
    const before = publicKeys();
    const r = await gspc(['keygen', '--force', '--data-dir', data]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /keys has signed published releases \(in-use\.json\)/);
    assert.match(r.stderr, /gspc keys rotate <board\|agent-card\|identity-root>/);
    assert.deepEqual(publicKeys(), before);
  });

  it('rotate the board key, publish B: verified before it went live, the log continues', async () => {
    const before = publicKeys();
    const r = await gspc(['keys', 'rotate', 'board', '--data-dir', data]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^rotated board-attestation-1 \(board\), pending until the next publish: transition [0-9a-f]{64} \(sequence 1\)/,
    );
    assert.deepEqual(publicKeys(), before, 'staged: the key directory serves its keys until the publish');
    assert.ok(existsSync(join(keyDir, 'pending.json')));
    await publish(); // B: before, refused with log_consistency (signature)
    const after = publicKeys();
    assert.equal(
      existsSync(join(keyDir, 'pending.json')),
      false,
      'the publish made the change the key directory’s own',
    );
    assert.notEqual(after['board-attestation-1'], before['board-attestation-1']);
    assert.equal(after['card-attestation-2'], before['card-attestation-2'], 'only the board key changed');
    assert.notEqual(ids[1], ids[0]);
    const v = await gspc(['verify', join(data, 'releases', ids[1]!)]);
    assert.equal(v.status, 0, v.stdout);
  });

  it('rotate the agent-card key, publish C: verified, and a second board rotation is sequence 2', async () => {
    assert.equal((await gspc(['keys', 'rotate', 'agent-card', '--data-dir', data])).status, 0);
    await publish(); // C
    const v = await gspc(['verify', join(data, 'releases', ids[2]!)]);
    assert.equal(v.status, 0, v.stdout);
    const transitions = JSON.parse(readFileSync(join(keyDir, 'transitions.json'), 'utf8')).transitions as Json[];
    assert.deepEqual(
      transitions.map((t) => [t.fragment, t.sequence]),
      [
        ['board-attestation-1', 1],
        ['card-attestation-2', 1],
      ],
    );
  });

  it('refused, writing nothing: a key that is not healthy (a rotation is signed by the key it retires), and a replica', async () => {
    const other = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', other])).status, 0);
    const first = await gspc(['keys', 'rotate', 'board', '--data-dir', other]);
    assert.equal(first.status, 2);
    assert.match(
      first.stderr,
      /has no current release, so no log depends on these keys yet: replace them with gspc keygen --force/,
    );
    assert.equal((await gspc(['publish', demoCorpus, '--data-dir', other, '--public-url', origin])).status, 0);
    rmSync(join(other, 'keys', 'board-attestation-1.key'));
    const before = readFileSync(join(other, 'keys', 'public-keys.json'), 'utf8');
    const lost = await gspc(['keys', 'rotate', 'board', '--data-dir', other]);
    assert.equal(lost.status, 2);
    assert.match(
      lost.stderr,
      /board-attestation-1 cannot be rotated: key board-attestation-1 is unhealthy: the key file is missing/,
    );
    assert.equal(readFileSync(join(other, 'keys', 'public-keys.json'), 'utf8'), before);
    assert.equal(existsSync(join(other, 'keys', 'transitions.json')), false);
    assert.equal(existsSync(join(other, 'keys', 'pending.json')), false);
    writeFileSync(join(other, REPLICA_MARKER), '{}\n');
    const replica = await gspc(['keys', 'rotate', 'agent-card', '--data-dir', other]);
    assert.equal(replica.status, 2);
    assert.match(replica.stderr, /is a replica .*Run gspc keys rotate on the publisher, then copy its key directory/);
    const unknown = await gspc(['keys', 'rotate', 'cards', '--data-dir', data]);
    assert.notEqual(unknown.status, 0);
    assert.match(
      unknown.stderr,
      /measurement cards are signed by the board key .*gspc keys rotate board; agent cards .*gspc keys rotate agent-card/,
    );
    const notRole = await gspc(['keys', 'rotate', 'root', '--data-dir', data]);
    assert.match(
      notRole.stderr,
      /'root' is not a key role: give board, agent-card, identity-root; nothing was written/,
    );
  });

  it('a publish for another origin starts a log of its own with the keys as they are: the first origin’s transitions are not its history', async () => {
    const elsewhere = tempDir();
    cpSync(keyDir, join(elsewhere, 'keys'), { recursive: true });
    const r = await gspc(['publish', demoCorpus, '--data-dir', elsewhere, '--public-url', 'https://board.example']);
    assert.equal(r.status, 0, r.stderr);
    const id = publishedId(r.stdout);
    assert.equal(existsSync(join(elsewhere, 'releases', id, 'evidence', 'key-transitions.json')), false);
    assert.equal((await gspc(['verify', join(elsewhere, 'releases', id)])).status, 0);
  });

  describe('C served', () => {
    let app: ReturnType<typeof buildApp>;
    before(async () => {
      const signing = signingContext(keyDir, `localhost:${port}`);
      app = buildApp({
        state: new ServedState(loadRelease(join(data, 'releases', ids[2]!)), liveOf(signing)),
        logLevel: 'silent',
        baseUrl: origin,
      });
      await app.listen({ host: '127.0.0.1', port });
      assert.equal((app.server.address() as AddressInfo).port, port);
    });
    after(() => app.close());

    it('gspc verify of the served URL passes, with the transitions checked', async () => {
      const v = await gspc(['verify', origin, '--json']);
      const report = JSON.parse(v.stdout) as Json;
      assert.equal(v.status, 0, v.stdout);
      const check = report.checks.find((c: Json) => c.check === 'key_transitions');
      assert.ok(check?.ok, JSON.stringify(check));
      const consistency = report.checks.find((c: Json) => c.check === 'log_consistency');
      assert.match(consistency.detail, /^2 earlier checkpoints, each signed and consistent/);
    });

    it('the DID document lists each retired key beside the current ones, and /keys/transitions.json is served', async () => {
      const did = (await (await fetch(`${origin}/.well-known/did.json`)).json()) as Json;
      const ids2 = did.verificationMethod.map((m: Json) => m.id.split('#')[1]);
      assert.deepEqual(ids2, [
        'board-attestation-1',
        'card-attestation-1',
        'card-attestation-2',
        'identity-root',
        'board-attestation-1~1',
        'card-attestation-2~1',
      ]);
      assert.deepEqual(
        did.assertionMethod.map((m: string) => m.split('#')[1]),
        ['board-attestation-1', 'card-attestation-1', 'card-attestation-2'],
        'neither a retired key nor the identity root is an assertion method',
      );
      assert.deepEqual(did.capabilityInvocation, [`${did.id}#identity-root`]);
      const served = (await (await fetch(`${origin}/keys/transitions.json`)).json()) as Json;
      assert.equal(served.transitions.length, 2);
      const retired = did.verificationMethod.find((m: Json) => m.id.endsWith('#board-attestation-1~1'));
      assert.equal(retired.publicKeyJwk.x, served.transitions[0].old_x);
      // The first release's board key is the retired one: A's signatures are its.
      const a = JSON.parse(readFileSync(join(data, 'releases', ids[0]!, 'evidence', 'public-keys.json'), 'utf8'));
      assert.equal(a.keys.find((k: Json) => k.fragment === 'board-attestation-1').x, retired.publicKeyJwk.x);
    });

    it('the browser verifier at /gspc-verify finds every served card VALID under the rotated key', {
      skip: browserMissing(),
    }, async () => {
      const { result, text, valid, errors, offOrigin } = await verifyServedInBrowser(origin);
      assert.equal(result, 'VALID', text);
      const cards = ((await (await fetch(`${origin}/cards-bundle.json`)).json()) as Json).cards.length;
      assert.equal(valid, String(cards));
      assert.deepEqual([errors, offOrigin], [[], []]);
    });

    it('the A2A did-keys skill says what each retired key was and that it signs nothing now', async () => {
      // A2A 1.0 JSON-RPC, as the official SDK client sends it (test/surfaces/a2a-runtime.test.ts).
      const res = await fetch(`${origin}/api/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: 'm-keys',
              role: 'ROLE_USER',
              parts: [{ text: 'which keys?' }],
              metadata: { skill: 'did-keys' },
            },
          },
        }),
      });
      const text = ((await res.json()) as Json).result.message.parts[0].text as string;
      assert.match(text, /#board-attestation-1~1: the key board-attestation-1 had until it was rotated at 20\d\d-/);
      assert.match(
        text,
        /#card-attestation-2~1: the key card-attestation-2 had until it was rotated at .*signs nothing now/,
      );
      assert.match(text, /#board-attestation-1: signs the board/);
    });
  });
  describe('A, signed before both rotations, served with the keys of now', () => {
    let app: ReturnType<typeof buildApp>;
    before(async () => {
      const signing = signingContext(keyDir, `localhost:${port}`);
      const a = loadRelease(join(data, 'releases', ids[0]!));
      // What gspc serve --release checks first: before, release_keys_mismatch ("publish its corpus again").
      requireReleaseKeys(a, signing.keys.published, { keyDir, replica: false, transitions: signing.keys.transitions });
      app = buildApp({ state: new ServedState(a, liveOf(signing)), logLevel: 'silent', baseUrl: origin });
      await app.listen({ host: '127.0.0.1', port });
      // The process's fetch pool still holds a keep-alive socket to C's service, closed on this
      // port a moment ago: the first request on it fails ("other side closed") and drops it.
      await fetch(`${origin}/readyz`).catch(() => undefined);
    });
    after(() => app.close());

    it('gspc verify of the served URL passes, checking A under the keys of its time', async () => {
      const v = await gspc(['verify', origin, '--json']);
      assert.equal(v.status, 0, v.stdout);
      const checks = new Map((JSON.parse(v.stdout) as Json).checks.map((c: Json) => [c.check, c]));
      assert.match(
        (checks.get('key_transitions') as Json).detail,
        /the last 2 came after this release \(its log does not hold them\), which is checked under the keys before them/,
      );
      const board = (await (await fetch(`${origin}/api/gspc`)).json()) as Json;
      assert.equal(board.measured_on.living_stamp.verification_state, 'VERIFIED');
      assert.equal((await fetch(`${origin}/readyz`)).status, 200);
    });

    it('the DID document lists the retired keys A was signed with; /log/vkey is the key of A’s checkpoint', async () => {
      const did = (await (await fetch(`${origin}/.well-known/did.json`)).json()) as Json;
      const recorded = JSON.parse(
        readFileSync(join(data, 'releases', ids[0]!, 'evidence', 'public-keys.json'), 'utf8'),
      );
      const board = recorded.keys.find((k: Json) => k.fragment === 'board-attestation-1').x;
      assert.equal(
        did.verificationMethod.find((m: Json) => m.id.endsWith('#board-attestation-1~1')).publicKeyJwk.x,
        board,
      );
      assert.equal(((await (await fetch(`${origin}/keys/transitions.json`)).json()) as Json).transitions.length, 2);
      const vkey = (await (await fetch(`${origin}/log/vkey`)).text()).trim();
      assert.equal(
        vkey.split('+').slice(2).join('+'),
        Buffer.concat([Buffer.from([1]), Buffer.from(board, 'base64url')]).toString('base64'),
      );
    });

    it('POST /api/verify and the browser verifier find every card of A VALID', { skip: browserMissing() }, async () => {
      const bundle = (await (await fetch(`${origin}/cards-bundle.json`)).json()) as Json;
      const api = (await (
        await fetch(`${origin}/api/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(bundle),
        })
      ).json()) as Json;
      assert.equal(api.summary.invalid, 0, JSON.stringify(api.results.find((r: Json) => r.result !== 'VALID')));
      const { result, text, errors, offOrigin } = await verifyServedInBrowser(origin);
      assert.equal(result, 'VALID', text);
      assert.deepEqual([errors, offOrigin], [[], []]);
    });
  });
});
