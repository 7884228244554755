/**
 * Cards and JWSs for the /gspc-verify tests: a real card of the release, the same card tampered,
 * cards signed by a key the DID document does not list, a validly signed card that no root
 * covers, and offers/receipts (valid, tampered, unknown kid, another DID).
 */
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { signCompactJws } from '../../src/core/crypto/jws.js';
import { cardBodyOf, sealCard, type CardBody, type CardFile } from '../../src/core/evidence/card.js';
import type { SignerState } from '../../src/core/evidence/signer.js';
import { signReceipt } from '../../src/core/pricing/offer-receipt.js';

/** A signer with a fixed key that no DID document of the tests lists. */
export function strangerKey(kid: string): SignerState {
  const pair = keyPairFromSeed(Buffer.alloc(32, 7));
  return {
    healthy: true,
    signer: { kid, publicKey: pair.publicKey, sign: (m: Uint8Array) => sign(pair.privateKey, m) },
  };
}

const bodyOf = (card: CardFile) => cardBodyOf(card as unknown as Record<string, unknown>) as unknown as CardBody;

/** The card with one figure changed and nothing else (sha256, url, signature kept). */
export function tampered(card: CardFile): CardFile {
  const copy = structuredClone(card);
  copy.measurement.correct = Number(copy.measurement.correct ?? 0) + 1;
  return copy;
}

/** A new card (another subject) sealed by `key`. */
export function resealed(card: CardFile, key: SignerState, subject = `${card.subject}-not-published`): CardFile {
  const kid = key.healthy ? key.signer.kid : key.kid;
  return sealCard({ ...bodyOf(card), subject, signer: kid }, key);
}

/** Replaces the payload part of a compact JWS, keeping header and signature. */
export function withPayload(jws: string, payload: string): string {
  const [h, , s] = jws.split('.');
  return `${h}.${Buffer.from(payload, 'utf8').toString('base64url')}.${s}`;
}

/** A receipt as the service signs one after settlement, with its board key. */
export function receipt(boardKey: SignerState): string {
  if (!boardKey.healthy) throw new Error('the test board key is unhealthy');
  const k = boardKey.signer;
  return signReceipt(
    {
      network: 'eip155:8453',
      resourceUrl: 'http://localhost:8080/api/request-attestation?subject=demo%2Fatlas-70b',
      payer: `0x${'11'.repeat(20)}`,
      issuedAt: 1_795_000_000,
      transaction: `0x${'ab'.repeat(32)}`,
    },
    { kid: k.kid, sign: (m) => k.sign(m) },
  ).signature;
}

/** A receipt signed by a key the DID document does not hold, under `kid`. */
export function receiptSignedBy(kid: string): string {
  const pair = keyPairFromSeed(Buffer.alloc(32, 9));
  return signCompactJws(
    {
      version: 1,
      network: 'eip155:8453',
      resourceUrl: 'http://localhost:8080/x',
      payer: `0x${'22'.repeat(20)}`,
      issuedAt: 1_795_000_000,
      transaction: `0x${'cd'.repeat(32)}`,
    },
    { kid, privateKey: pair.privateKey },
  );
}
