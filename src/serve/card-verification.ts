/**
 * Free card verification against the served release (specification, "POST /api/verify"): which
 * cards a request names (a card, `{"cards": [...]}`, a cards bundle, or `{"ids": [...]}`) and
 * the `svc.card-verification/1` document. One function for POST /api/verify, the MCP
 * `verify_card` tool and the A2A card-verification skill, so their verdicts are the same.
 */
import { GspcError } from '../core/errors.js';
import { verifyCard } from '../core/verify/card-verifier.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';
import type { PreparedRelease } from './prepared.js';

export const MAX_CARDS_PER_REQUEST = 1000;
export function cardsOf(body: unknown, lookup: (id: string) => unknown): unknown[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new GspcError(
      'bad_body',
      'the body must be a JSON object: a card, {"cards": [...]}, a cards bundle, or {"ids": [...]}',
    );
  const b = body as Record<string, unknown>;
  let cards: unknown[];
  if (Array.isArray(b.cards)) cards = b.cards;
  else if (Array.isArray(b.ids)) {
    cards = b.ids.map((id, i) => {
      if (typeof id !== 'string' || !/^([0-9a-f]{16}|[0-9a-f]{64})$/.test(id))
        throw new GspcError('bad_body', `ids[${i}] must be a card sha256 (64 hex) or its first 16 hex characters`);
      const card = lookup(id);
      if (card === undefined) throw new GspcError('not_found', `no card with id ${id} in this release`, { id });
      return card;
    });
  } else if (b.schema === 'card-v1') cards = [b];
  else throw new GspcError('bad_body', 'the body must be a card, {"cards": [...]}, a cards bundle, or {"ids": [...]}');
  if (cards.length === 0) throw new GspcError('bad_body', 'no card to verify');
  if (cards.length > MAX_CARDS_PER_REQUEST)
    throw new GspcError(
      'bad_body',
      `at most ${MAX_CARDS_PER_REQUEST} cards per request (got ${cards.length}); verify a whole bundle offline with gspc verify`,
    );
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
