/**
 * The facilitator's wire, as `HTTPFacilitatorClient` (@x402/core/http) speaks it: `POST
 * <url>/verify` and `POST <url>/settle` with `{x402Version, paymentPayload, paymentRequirements}`
 * as JSON; a 2xx answer is a VerifyResponse / SettleResponse; a non-2xx answer whose JSON still
 * carries `isValid` / `success` states the outcome (the official client's VerifyError /
 * SettleError). The answers are checked against the same shapes the official client's zod
 * schemas require (copied below: @x402/core does not export them).
 *
 * Why not the official client (decision O11): it goes through `fetch` (a Request, a Response and
 * web streams per call) and a JSON round trip of its own arguments, 1.1-1.4 ms a call on this
 * machine against 0.5-0.6 ms for undici's `request` (the HTTP client `fetch` is built on), and
 * the paid request makes two calls in series. undici also keeps apart what matters for money: a connection never made (refused,
 * or the connect timed out) from a request sent whose answer was lost. The wire is pinned by a
 * test that sends the same payment through both clients and compares the bytes.
 */
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { Agent, request } from 'undici';
import { z } from 'zod';

const optionalString = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
const optionalRecord = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((v) => v ?? undefined);

/** The official client's verifyResponseSchema. */
const verifyResponse = z.object({
  isValid: z.boolean(),
  invalidReason: optionalString,
  invalidMessage: optionalString,
  payer: optionalString,
  extensions: optionalRecord,
  extra: optionalRecord,
});

/** The official client's settleResponseSchema. */
const settleResponse = z.object({
  success: z.boolean(),
  errorReason: optionalString,
  errorMessage: optionalString,
  payer: optionalString,
  transaction: z.string(),
  network: z.string(),
  amount: optionalString,
  extensions: optionalRecord,
  extra: optionalRecord,
});

export type VerifyAnswer = z.infer<typeof verifyResponse>;
export type SettleAnswer = z.infer<typeof settleResponse>;

/** What came back: an answer in the protocol's shape (any status), or why there is none. */
export type WireResult<A> =
  | { kind: 'answer'; status: number; answer: A }
  /** Answered, but not in the protocol's shape (a proxy's error page, a redirect, bad JSON). */
  | { kind: 'unreadable'; status: number; excerpt: string }
  /** No connection was made: the request was never sent. */
  | { kind: 'not_connected'; error: string }
  /** Sent (or maybe sent), and no answer arrived. */
  | { kind: 'lost'; error: string };

/** An answer larger than this is not a facilitator's (theirs are a few hundred bytes). */
const MAX_ANSWER_BYTES = 1 << 20;

/** Codes of a connection that was never made: nothing was written. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

export class FacilitatorWire {
  readonly #base: string;
  readonly #agent: Agent;
  readonly #timeoutMs: number;

  /** `url` comes from operator configuration only (GSPC_FACILITATOR_URL). */
  constructor(url: string, timeoutMs: number) {
    this.#base = url.replace(/\/+$/, '');
    this.#timeoutMs = timeoutMs;
    // A whole call is bounded by the timeout (a signal per call: the drain on SIGTERM counts on
    // it); a connection not made within half of it fails first, as a request never sent.
    this.#agent = new Agent({
      connectTimeout: Math.max(1, Math.floor(timeoutMs / 2)),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      maxResponseSize: MAX_ANSWER_BYTES,
    });
  }

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<WireResult<VerifyAnswer>> {
    return this.#post('verify', payload, requirements, verifyResponse);
  }

  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<WireResult<SettleAnswer>> {
    return this.#post('settle', payload, requirements, settleResponse);
  }

  close(): Promise<void> {
    return this.#agent.close();
  }

  async #post<A>(
    path: 'verify' | 'settle',
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    shape: z.ZodType<A>,
  ): Promise<WireResult<A>> {
    const body = JSON.stringify(
      { x402Version: payload.x402Version, paymentPayload: payload, paymentRequirements: requirements },
      (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
    );
    let status: number;
    let text: string;
    try {
      const res = await request(`${this.#base}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      status = res.statusCode;
      text = await res.body.text();
      const location = res.headers.location;
      if (status >= 300 && status < 400)
        return {
          kind: 'unreadable',
          status,
          excerpt: `a redirect to ${String(location)}, not followed: set GSPC_FACILITATOR_URL to the final URL`,
        };
    } catch (e) {
      const error = describe(e);
      return codesOf(e).some((c) => NOT_CONNECTED.has(c)) ? { kind: 'not_connected', error } : { kind: 'lost', error };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { kind: 'unreadable', status, excerpt: excerpt(text) };
    }
    const parsed = shape.safeParse(json);
    return parsed.success
      ? { kind: 'answer', status, answer: parsed.data }
      : { kind: 'unreadable', status, excerpt: excerpt(text) };
  }
}

function codesOf(e: unknown): string[] {
  const codes: string[] = [];
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    for (const inner of (c as { errors?: unknown[] }).errors ?? []) {
      const innerCode = (inner as { code?: unknown } | null)?.code;
      if (typeof innerCode === 'string') codes.push(innerCode);
    }
  }
  return codes;
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  const cause = (e as { cause?: unknown }).cause;
  return `${e.message}${typeof code === 'string' && !e.message.includes(code) ? ` (${code})` : ''}${cause instanceof Error ? ` (${cause.message})` : ''}`;
}

function excerpt(text: string): string {
  const compact = text.trim().replace(/\s+/g, ' ');
  return compact === '' ? '<empty answer>' : compact.length > 200 ? `${compact.slice(0, 200)}…` : compact;
}
