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
import { cardsOf, cardVerificationDocument } from '../serve/card-verification.js';
import { BASE_HEADERS } from '../serve/headers.js';
import type { ServedState } from '../serve/served-state.js';

const VERIFY_BODY_LIMIT = 16 * 1024 * 1024;

export function registerVerifyRoutes(app: FastifyInstance, state: ServedState, resolve: KeyResolver): void {
  app.post('/api/verify', { bodyLimit: VERIFY_BODY_LIMIT }, async (req, reply) => {
    const current = state.current();
    reply.headers(BASE_HEADERS).send(
      await cardVerificationDocument(
        current,
        cardsOf(req.body, (id) => current.cardById(id)),
      ),
    );
  });

  app.post('/api/receipts/verify', async (req, reply) => {
    const body = req.body;
    const jws = typeof body === 'string' ? body.trim() : (body as { jws?: unknown } | null)?.jws;
    if (typeof jws !== 'string' || jws === '')
      throw new GspcError('bad_body', 'send {"jws": "<compact JWS>"} as JSON, or the compact JWS as text/plain');
    if (jws.length > 64 * 1024) throw new GspcError('bad_body', 'the JWS is longer than 64 KiB');
    const v = await verifyCompactJws(jws, resolve);
    reply.headers(BASE_HEADERS).send({
      schema: 'svc.receipt-verification/1',
      result: v.result,
      reason: v.reason,
      ...(v.header && { header: v.header }),
      ...(v.payload !== undefined && { payload: v.payload }),
    });
  });
}
