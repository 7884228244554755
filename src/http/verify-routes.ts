/**
 * Free verification (specification, "POST /api/verify", "POST /api/receipts/verify").
 * Receipt keys resolve from this service's own DID document or, for did:web hosts the operator
 * allow-lists, theirs (src/keys/did-resolver.ts); no request makes the service fetch a URL of
 * its choosing. Bodies are JSON (docs/formats.md §5); malformed ones get 400 `bad_body` with a reason.
 *
 * A service that is not at its DID's host (a replica: issue 36) is given that host (`atHost`):
 * its keys are the ones the host serves, for cards (src/serve/card-verification.ts, the one
 * function the MCP `verify_card` tool and the A2A card-verification skill answer with too) and
 * receipts alike.
 * A receipt check may name what it expects (issue 37): an offer posted as a receipt is never VALID.
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { type Expectation, verifyOfferOrReceipt } from '../core/crypto/receipt-verifier.js';
import type { DidHost, KeyResolver } from '../keys/did-resolver.js';
import { cardsOf, cardVerificationDocument } from '../serve/card-verification.js';
import { BASE_HEADERS } from '../serve/headers.js';
import type { ServedState } from '../serve/served-state.js';

/**
 * 4 MiB: a request carries at most 1,000 cards (a card-v1 is 1-3 KiB). The body is parsed whole
 * on the event loop before any card is counted, and 16 MiB of cards took 320 ms to parse, a
 * stall for every reader; 4 MiB takes about 40 ms (issue 38, docs/performance.md §15).
 */
export const VERIFY_BODY_LIMIT = 4 * 1024 * 1024;
/**
 * Card verifications one client address may have in flight (issue 38): each gives the event loop
 * back every few milliseconds, but four at once still queued every other reader behind their
 * slices. One more is a 429 (`rate_limited`, class `verify`), whatever the per-minute budget says.
 */
export const VERIFY_IN_FLIGHT_PER_CLIENT = 2;

export function registerVerifyRoutes(
  app: FastifyInstance,
  state: ServedState,
  resolve: KeyResolver,
  atHost?: DidHost,
): void {
  const inFlight = new Map<string, number>();
  app.post('/api/verify', { bodyLimit: VERIFY_BODY_LIMIT }, async (req, reply) => {
    const client = req.ip;
    const mine = inFlight.get(client) ?? 0;
    if (mine >= VERIFY_IN_FLIGHT_PER_CLIENT) {
      void reply.header('retry-after', '1');
      throw new GspcError(
        'rate_limited',
        `too many verifications in flight from ${client}: at most ${VERIFY_IN_FLIGHT_PER_CLIENT} at once; send the next when one is answered`,
        { class: 'verify', in_flight: VERIFY_IN_FLIGHT_PER_CLIENT, retry_after_seconds: 1 },
      );
    }
    inFlight.set(client, mine + 1);
    try {
      const current = state.current();
      const cards = cardsOf(req.body, (id) => current.cardById(id));
      reply.headers(BASE_HEADERS).send(await cardVerificationDocument(current, cards, atHost));
    } finally {
      const n = (inFlight.get(client) ?? 1) - 1;
      if (n <= 0) inFlight.delete(client);
      else inFlight.set(client, n);
    }
  });

  app.post('/api/receipts/verify', async (req, reply) => {
    const body = req.body;
    // A string is the compact JWS only when sent as text/plain, and JSON is never read as one: a
    // JSON body sent without a content type (fetch then says text/plain) is a 415, not an INVALID
    // verdict on its text (issue 37 review).
    if (
      typeof body === 'string' &&
      (!/^text\/plain\s*(;|$)/i.test(req.headers['content-type'] ?? '') || /^\s*[[{"]/.test(body))
    )
      throw new GspcError(
        'unsupported_media_type',
        `send {"jws": "<compact JWS>"} as application/json, or the compact JWS alone as text/plain (got ${req.headers['content-type'] ? `content-type ${req.headers['content-type']}` : 'no content-type'}${/^\s*[[{"]/.test(body) ? ' with a JSON body' : ''})`,
      );
    const jws = typeof body === 'string' ? body.trim() : (body as { jws?: unknown } | null)?.jws;
    if (typeof jws !== 'string' || jws === '')
      throw new GspcError('bad_body', 'send {"jws": "<compact JWS>"} as JSON, or the compact JWS as text/plain');
    if (jws.length > 64 * 1024) throw new GspcError('bad_body', 'the JWS is longer than 64 KiB');
    // A partner's key vouches only for its own host's resources (receipt-verifier.ts, ownDid).
    const v = await verifyOfferOrReceipt(jws, resolve, { ...expectationOf(body), ownDid: state.signingLive().did });
    reply.headers(BASE_HEADERS).send({
      schema: 'svc.receipt-verification/1',
      result: v.result,
      reason: v.reason,
      ...(v.kind && { kind: v.kind }),
      ...(v.header && { header: v.header }),
      ...(v.payload !== undefined && { payload: v.payload }),
    });
  });
}

/**
 * The optional expectation of a JSON body (issue 37): `kind` (`receipt`, the default, or
 * `offer`), `resource` (the absolute URL it must cover) and `amount` (atomic units, decimal).
 */
function expectationOf(body: unknown): Expectation {
  if (typeof body !== 'object' || body === null) return {};
  const { kind, resource, amount } = body as Record<string, unknown>;
  if (kind !== undefined && kind !== 'receipt' && kind !== 'offer')
    throw new GspcError('bad_body', "kind is 'receipt' (the default) or 'offer'");
  if (resource !== undefined && (typeof resource !== 'string' || resource === '' || resource.length > 2048))
    throw new GspcError('bad_body', 'resource is the absolute URL the receipt must cover (at most 2048 characters)');
  if (amount !== undefined && (typeof amount !== 'string' || !/^(0|[1-9][0-9]{0,77})$/.test(amount)))
    throw new GspcError('bad_body', 'amount is a decimal string of atomic units, such as "20000"');
  return {
    ...(kind !== undefined && { kind }),
    ...(resource !== undefined && { resourceUrl: resource }),
    ...(amount !== undefined && { amount }),
  };
}
