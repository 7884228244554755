/**
 * Reads the payment a client sends: `PAYMENT-SIGNATURE` (x402 v2) or `X-PAYMENT` (v1, and the
 * specification's name), base64 JSON, dispatched on `x402Version` inside (research x402.md §0.2).
 * No header is an expected outcome (a challenge); a header that cannot be read is a 400
 * `bad_payment` with the reason, before any facilitator call.
 */
import { parsePaymentPayload } from '@x402/core/schemas';
import { isValidPaymentId, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { GspcError } from '../core/errors.js';

/** A payment header larger than this is refused unread (a v2 payload with extensions is ~4 KB). */
export const MAX_PAYMENT_HEADER_CHARS = 16 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;

export interface ReadPayment {
  header: 'payment-signature' | 'x-payment';
  version: 1 | 2;
  /** The decoded payload, as the facilitator expects it. */
  payload: Record<string, unknown> & { x402Version: number };
  /** EIP-3009 authorization of the exact scheme: who pays, the one-time nonce, the value. */
  payer: string;
  nonce: string;
  value: string;
  validBefore: string;
  /** For v2: the accepts entry the client echoed. */
  accepted?: Record<string, unknown>;
  /**
   * The x402 `payment-identifier` id the client chose (`extensions['payment-identifier'].info.id`),
   * or null when it sent none: only a request carrying the id a payment was bought with gets its
   * artefact again (decision P42).
   */
  paymentId: string | null;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * A request's payment, read once: the rate limiter's class check (is this payment already
 * settled?) and the route both read it, from the same headers object (0.2-0.3 ms a read: base64,
 * JSON and the x402 schema).
 */
const read = new WeakMap<Headers, ReadPayment>();

export function readPaymentHeader(headers: Headers): ReadPayment | undefined {
  const known = read.get(headers);
  if (known !== undefined) return known;
  const payment = readUncached(headers);
  if (payment !== undefined) read.set(headers, payment);
  return payment;
}

function readUncached(headers: Headers): ReadPayment | undefined {
  const v2 = one(headers, 'payment-signature');
  const v1 = one(headers, 'x-payment');
  if (v2 !== undefined && v1 !== undefined)
    throw new GspcError(
      'bad_payment',
      'send the payment in one header: PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1), not both',
    );
  const raw = v2 ?? v1;
  if (raw === undefined) return undefined;
  const header = v2 !== undefined ? 'payment-signature' : 'x-payment';
  if (raw.length > MAX_PAYMENT_HEADER_CHARS)
    throw new GspcError('bad_payment', `the ${header} header is longer than ${MAX_PAYMENT_HEADER_CHARS} characters`);
  const text = raw.trim();
  if (text === '' || !BASE64.test(text))
    throw new GspcError('bad_payment', `the ${header} header is not base64 (RFC 4648, + and /)`);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw new GspcError('bad_payment', `the ${header} header does not decode to JSON`);
  }
  const parsed = parsePaymentPayload(json);
  if (!parsed.success)
    throw new GspcError(
      'bad_payment',
      `the ${header} header is not an x402 payment payload: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
        .join('; ')}`,
    );
  const payload = json as ReadPayment['payload'];
  const version = payload.x402Version === 2 ? 2 : 1;
  const auth = (payload.payload as { authorization?: Record<string, unknown> } | undefined)?.authorization ?? {};
  const { from, nonce, value, validBefore } = auth as Record<string, unknown>;
  if (
    typeof from !== 'string' ||
    !ADDRESS.test(from) ||
    typeof nonce !== 'string' ||
    !NONCE.test(nonce) ||
    typeof value !== 'string' ||
    !/^[0-9]{1,78}$/.test(value) ||
    typeof validBefore !== 'string' ||
    !/^[0-9]{1,20}$/.test(validBefore)
  ) {
    throw new GspcError(
      'bad_payment',
      `the ${header} payload has no EIP-3009 authorization (from, nonce, value, validBefore) of the exact scheme`,
    );
  }
  return {
    header,
    version,
    payload,
    paymentId: paymentIdOf(payload, header),
    payer: from.toLowerCase(),
    nonce: nonce.toLowerCase(),
    value,
    validBefore,
    ...(version === 2 && { accepted: payload.accepted as Record<string, unknown> }),
  };
}

/** The payment-identifier id, checked as the extension defines it (16-128 of [A-Za-z0-9_-]). */
function paymentIdOf(payload: Record<string, unknown>, header: string): string | null {
  const ext = (payload.extensions as Record<string, unknown> | undefined)?.[PAYMENT_IDENTIFIER];
  const id = (ext as { info?: { id?: unknown } } | undefined)?.info?.id;
  if (id === undefined || id === null) return null;
  if (typeof id !== 'string' || !isValidPaymentId(id))
    throw new GspcError(
      'bad_payment',
      `the ${header} payload's extensions.payment-identifier.info.id is not a payment id (16 to 128 characters of A-Z, a-z, 0-9, _ and -)`,
    );
  return id;
}

function one(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  if (Array.isArray(v)) throw new GspcError('bad_payment', `the ${name} header is sent more than once`);
  return v;
}
