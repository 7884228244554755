import { createHash, randomBytes } from 'node:crypto';
import type { ArtefactAttachment, NewInvoice, NewReservation, PaymentKey } from '../../src/store/ledger.js';

/** A fresh (payer, nonce), so tests sharing one store never touch each other's records. */
export function newKey(): PaymentKey {
  return { payer: `0x${randomBytes(20).toString('hex')}`, nonce: `0x${randomBytes(32).toString('hex')}` };
}

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A fixed clock: t(0) is 2025-01-01T00:00:00.000Z, t(n) n seconds later. */
export const t = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();

export function reservation(key: PaymentKey, over: Partial<NewReservation> = {}): NewReservation {
  return {
    ...key,
    product_id: 'evidence-card',
    sku_id: 'card-v1',
    resource: '/api/evidence/card?axis=governance&model=m1',
    amount_atomic: '250000000',
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    network: 'eip155:8453',
    pay_to: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
    payment_sha256: sha256(`payload:${key.payer}:${key.nonce}`),
    self_funded: false,
    // x402's exact client signs validBefore = now + maxTimeoutSeconds; t(0) + 300 s.
    valid_before: String(Date.UTC(2025, 0, 1) / 1000 + 300),
    at: t(0),
    ...over,
  };
}

/** Artefact bytes that include NUL and high bytes, so any text conversion would show. */
export function artefact(
  size = 64 * 1024,
  receipt: string | null = 'eyJhbGciOiJFZERTQSJ9.eyJ4IjoxfQ.c2ln',
): ArtefactAttachment {
  const bytes = Buffer.concat([Buffer.from([0, 255, 0, 10, 13]), randomBytes(size)]);
  return { artefact: bytes, artefact_sha256: sha256(bytes), receipt };
}

export function invoice(ref: string, over: Partial<NewInvoice> = {}): NewInvoice {
  return {
    ref,
    product_id: 'commissioned-eval',
    sku_id: 'axis-run',
    resource: '/api/commission?axis=governance',
    commissioned_by: 'Example Safety Institute <ops@example.org>',
    amount_atomic: '1500000',
    currency: 'USD',
    at: t(0),
    ...over,
  };
}
