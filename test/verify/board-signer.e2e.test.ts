/**
 * Only the current board key signs the board (issue 36, second review). A proxy in front of the
 * origin added a method `#board-attestation-1~9` with a key of its own to the DID document it
 * served, rewrote the board's issuer and limitations, and re-signed the board under `~9`:
 * `gspc verify` said VALID, because the board attestation was checked under any method of the
 * view's DID document. Now it is checked under the anchored current board key only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicJwk } from '../../src/core/crypto/jwk.js';
import { attest } from '../../src/core/evidence/site-attestation.js';
import { gspc } from '../helpers/cli.js';
import { healthy, hostOrigin, keyOf, proxy } from '../helpers/host-views.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- reports and documents as JSON */
type Json = any;

describe('the board attestation is the current board key’s', () => {
  it('a board re-signed under an extra method the view added to the DID document is not VALID', async () => {
    const origin = await hostOrigin();
    const honest = await gspc(['verify', origin.url, '--json']);
    assert.equal(JSON.parse(honest.stdout).verdict, 'VALID', honest.stdout);

    const extra = keyOf(origin.did, 'board-attestation-1~9', 99);
    const did = (await (await fetch(`${origin.url}/.well-known/did.json`)).json()) as Json;
    did.verificationMethod.push({
      id: extra.kid,
      type: 'JsonWebKey2020',
      controller: origin.did,
      publicKeyJwk: publicJwk(extra.publicKey),
    });
    const board = (await (await fetch(`${origin.url}/api/gspc`)).json()) as Json;
    board.issuer = 'ATTACKER-CHOSEN ISSUER';
    board.limitations = [];
    attest(board, healthy(extra));
    const forged = await proxy(
      () => origin.url,
      () =>
        new Map<string, unknown>([
          ['/.well-known/did.json', did],
          ['/api/gspc', board],
        ]),
    );
    const r = await gspc(['verify', forged.url.replace('127.0.0.1', 'localhost'), '--json']);
    const report = JSON.parse(r.stdout) as Json;
    assert.notEqual(report.verdict, 'VALID', r.stdout);
    const att = (report.checks as Json[]).find((c) => c.check === 'board_attestation');
    assert.equal(att?.ok, false, JSON.stringify(att));
  });
});
