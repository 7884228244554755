/**
 * What the payForArtefact tests share: a configured rail, the requirements it offers, a fresh
 * EIP-3009 payment header for them, an artefact, and a paid request for one product.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PaymentRequirements } from '@x402/core/types';
import { readRailConfig } from '../../src/config.js';
import type { PaidRequest } from '../../src/payments/paid-request.js';
import { readPaymentHeader } from '../../src/payments/payment-header.js';

export const PAY_TO = `0x${'22'.repeat(20)}`;
export const rail = readRailConfig({ GSPC_PAY_TO: PAY_TO, GSPC_FACILITATOR_URL: 'http://127.0.0.1:9' });
export const requirements = {
  scheme: 'exact',
  network: rail.network,
  amount: '20000',
  asset: rail.asset,
  payTo: PAY_TO,
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
} as PaymentRequirements;

/**
 * A payment header for `requirements` with a fresh nonce, valid for `seconds` from now, carrying
 * a payment-identifier id as a buyer that may want a lost response again does (decision P42).
 */
export function payment(signature = `0x${'ab'.repeat(65)}`, seconds = 300) {
  const authorization = {
    from: `0x${'11'.repeat(20)}`,
    to: PAY_TO,
    value: '20000',
    validAfter: '0',
    // Within the terms: at most maxTimeoutSeconds (plus the skew) after now (issue 37).
    validBefore: String(Math.floor(Date.now() / 1000) + seconds),
    nonce: `0x${randomBytes(32).toString('hex')}`,
  };
  const payload = {
    x402Version: 2,
    accepted: requirements,
    payload: { signature, authorization },
    extensions: { 'payment-identifier': { info: { required: false, id: `pay_${randomBytes(12).toString('hex')}` } } },
  };
  return readPaymentHeader({ 'payment-signature': Buffer.from(JSON.stringify(payload)).toString('base64') })!;
}

export const body = Buffer.from('{"artefact":1}\n');
export const artefact = { body, sha256: createHash('sha256').update(body).digest('hex') };
export const TX = `0x${'cd'.repeat(32)}`;

export const request = (p = payment(), produce = () => artefact): PaidRequest => ({
  product_id: 'gspc.request_attestation',
  sku_id: 'request_attestation',
  resourcePath: '/api/request-attestation?subject=m',
  resourceUrl: 'http://x/api/request-attestation?subject=m',
  requirements,
  payment: p,
  produce,
});
