/**
 * Free verification (specification, "POST /api/verify", "POST /api/receipts/verify").
 * Receipt keys resolve from this service's own DID document or, for did:web hosts the operator
 * allow-lists, theirs (src/keys/did-resolver.ts); no request makes the service fetch a URL of
 * its choosing. Bodies are JSON (docs/formats.md §5); malformed ones get 400 `bad_body` with a reason.
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { verifyCompactJws } from '../core/crypto/receipt-verifier.js';
import type { KeyResolver } from '../keys/did-resolver.js';
import { verifyCard } from '../core/verify/card-verifier.js';
import type { ServedState } from './served-state.js';
import type { PreparedRelease } from './prepared.js';
import { BASE_HEADERS } from './errors.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';

export const MAX_CARDS_PER_REQUEST = 1000;
const VERIFY_BODY_LIMIT = 16 * 1024 * 1024;

function cardsOf(body: unknown, lookup: (id: string) => unknown): unknown[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new GspcError('bad_body', 'the body must be a JSON object: a card, {"cards": [...]}, a cards bundle, or {"ids": [...]}');
  const b = body as Record<string, unknown>;
  let cards: unknown[];
  if (Array.isArray(b.cards)) cards = b.cards;
  else if (Array.isArray(b.ids)) {
    cards = b.ids.map((id, i) => {
      if (typeof id !== 'string' || !/^([0-9a-f]{16}|[0-9a-f]{64})$/.test(id)) throw new GspcError('bad_body', `ids[${i}] must be a card sha256 (64 hex) or its first 16 hex characters`);
      const card = lookup(id);
      if (card === undefined) throw new GspcError('not_found', `no card with id ${id} in this release`, { id });
      return card;
    });
  } else if (b.schema === 'card-v1') cards = [b];
  else throw new GspcError('bad_body', 'the body must be a card, {"cards": [...]}, a cards bundle, or {"ids": [...]}');
  if (cards.length === 0) throw new GspcError('bad_body', 'no card to verify');
  if (cards.length > MAX_CARDS_PER_REQUEST) throw new GspcError('bad_body', `at most ${MAX_CARDS_PER_REQUEST} cards per request (got ${cards.length}); verify a whole bundle offline with gspc verify`);
  return cards;
}

/**
 * The `svc.card-verification/1` document for cards checked against the served release: what
 * POST /api/verify answers, and the MCP `verify_card` tool with it.
 */
export async function cardVerificationDocument(current: PreparedRelease, cards: readonly unknown[]) {
  const ctx = await current.verification();
  const results = [];
  for (const card of cards) results.push(await verifyCard(card, ctx, nodeVerifyCrypto));
  const valid = results.filter((r) => r.result === 'VALID').length;
  return {
    schema: 'svc.card-verification/1' as const,
    root: ctx.root ? { ...ctx.root, signature: ctx.rootSignatureValid ? 'VALID' : 'INVALID' } : null,
    summary: { checked: results.length, valid, invalid: results.length - valid },
    results,
  };
}

export function registerVerifyRoutes(app: FastifyInstance, state: ServedState, resolve: KeyResolver): void {
  app.post('/api/verify', { bodyLimit: VERIFY_BODY_LIMIT }, async (req, reply) => {
    const current = state.current();
    reply.headers(BASE_HEADERS).send(await cardVerificationDocument(current, cardsOf(req.body, (id) => current.cardById(id))));
  });

  app.post('/api/receipts/verify', async (req, reply) => {
    const body = req.body;
    const jws = typeof body === 'string' ? body.trim() : (body as { jws?: unknown } | null)?.jws;
    if (typeof jws !== 'string' || jws === '') throw new GspcError('bad_body', 'send {"jws": "<compact JWS>"} as JSON, or the compact JWS as text/plain');
    if (jws.length > 64 * 1024) throw new GspcError('bad_body', 'the JWS is longer than 64 KiB');
    const v = await verifyCompactJws(jws, resolve);
    reply.headers(BASE_HEADERS).send({ schema: 'svc.receipt-verification/1', result: v.result, reason: v.reason, ...(v.header && { header: v.header }), ...(v.payload !== undefined && { payload: v.payload }) });
  });
}
