/**
 * Decision P45: the paying wallet proves it holds the key with the x402 v2 `sign-in-with-x`
 * extension. Proofs here are made by the official client (`createSIWxPayload` from
 * @x402/extensions, a viem account), from the declaration this service's 402 carries; each
 * refusal is one way the proof could be lied about.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSIWxPayload, encodeSIWxHeader, type SIWxPayload } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { readSignIn, signInDeclaration, UsedSignIns, type SignIn } from '../../src/payments/payer-sign-in.js';

const ORIGIN = 'http://127.0.0.1:8788';
const PATH = '/api/request-attestation?subject=m1';
const NETWORK = 'eip155:8453';
const wallet = privateKeyToAccount(generatePrivateKey());

/** A proof by `signer` for the declaration a 402 on `path` carries at `now`. */
async function proof(
  o: { path?: string; origin?: string; network?: string; now?: Date; signer?: typeof wallet } = {},
): Promise<SIWxPayload> {
  const origin = o.origin ?? ORIGIN;
  const url = `${origin}${o.path ?? PATH}`;
  const d = signInDeclaration({ origin, resourceUrl: url, network: o.network ?? NETWORK, now: o.now ?? new Date() });
  return createSIWxPayload(
    { ...d.info, chainId: d.supportedChains[0]!.chainId, type: 'eip191' },
    o.signer ?? wallet,
    url,
  );
}

const read = (header: string | string[] | undefined, used = new UsedSignIns(), now = new Date()) =>
  readSignIn({ 'sign-in-with-x': header }, { origin: ORIGIN, resourcePath: PATH, network: NETWORK, used, now });

function refusedFor(s: SignIn, why: RegExp): void {
  assert.equal(s.kind, 'refused', JSON.stringify(s));
  assert.match((s as { reason: string }).reason, why);
}

describe('a payer signs in with its wallet (decision P45)', () => {
  it('a proof made by the official client from the declaration names the wallet, lower case', async () => {
    const s = await read(encodeSIWxHeader(await proof()));
    assert.deepEqual(s, { kind: 'signed_in', address: wallet.address.toLowerCase() });
  });

  it('no header is absent, not refused', async () => {
    assert.deepEqual(await read(undefined), { kind: 'absent' });
  });

  it('a proof is used once in a process: sent again it is refused', async () => {
    const used = new UsedSignIns();
    const header = encodeSIWxHeader(await proof());
    assert.equal((await read(header, used)).kind, 'signed_in');
    refusedFor(await read(header, used), /already used/);
  });

  it('a proof for another resource of this service opens nothing here (the library checks only the origin)', async () => {
    refusedFor(await read(encodeSIWxHeader(await proof({ path: '/api/free-door' }))), /not for this request/);
  });

  it('a proof for another origin, another chain, or a signature by another key is refused', async () => {
    refusedFor(await read(encodeSIWxHeader(await proof({ origin: 'http://evil.example' }))), /domain/);
    refusedFor(await read(encodeSIWxHeader(await proof({ network: 'eip155:1' }))), /eip155:1/);
    // The address says the victim; the signature is the attacker's.
    const forged = { ...(await proof({ signer: privateKeyToAccount(generatePrivateKey()) })), address: wallet.address };
    refusedFor(await read(encodeSIWxHeader(forged)), /signature/);
  });

  it('a proof older than five minutes, or one whose expiry is past, is refused', async () => {
    refusedFor(await read(encodeSIWxHeader(await proof({ now: new Date(Date.now() - 301_000) }))), /too old|expired/);
  });

  it('a header that is not the extension’s payload, or several headers, is refused with the reason', async () => {
    refusedFor(await read('not base64!'), /base64/);
    refusedFor(await read(Buffer.from('{"address":1}').toString('base64')), /Invalid SIWX header/);
    const h = encodeSIWxHeader(await proof());
    refusedFor(await read([h, h]), /one SIGN-IN-WITH-X header/);
    refusedFor(await read('A'.repeat(5000)), /4096/);
  });

  it('fields the EIP-4361 grammar refuses are a refused proof, never a thrown error (a 500): found by review', async () => {
    const good = await proof();
    for (const [edit, why] of [
      [{ nonce: 'short' }, /nonce/],
      [{ nonce: 'abc-defgh-ijk' }, /nonce/],
      [{ statement: 'two\nlines' }, /statement/],
      [{ address: '0x' }, /address/],
      [{ version: '2' }, /EIP-4361|version/],
      [{ resources: Array(5).fill(good.uri) }, /resources/],
      [{ requestId: 'r'.repeat(300) }, /requestId/],
    ] as const) {
      const s = await read(encodeSIWxHeader({ ...good, ...edit } as SIWxPayload));
      refusedFor(s, why);
    }
  });

  it('UsedSignIns never forgets a live pair: full, it drops expired pairs, else refuses the new proof (a flood of one’s own proofs cannot free a captured one)', () => {
    const used = new UsedSignIns(2);
    assert.equal(used.claim('0xA', 'n1', 1_000, 0), 'claimed');
    assert.equal(used.claim('0xa', 'n1', 1_000, 0), 'used', 'one address, whatever its case');
    assert.equal(used.claim('0xa', 'n2', 5_000, 0), 'claimed');
    assert.equal(used.claim('0xa', 'n3', 5_000, 2_000), 'claimed', 'n1 expired and was dropped');
    assert.equal(used.claim('0xa', 'n4', 5_000, 2_000), 'full', 'nothing expired: refused, n2 and n3 kept');
    assert.equal(used.claim('0xa', 'n2', 5_000, 2_000), 'used', 'n2 still held');
    assert.equal(used.claim('0xa', 'n1', 1_000, 6_000), 'claimed', 'once they expire there is room again');
  });
});
