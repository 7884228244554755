/**
 * `verify_card`: checks one card exactly as `POST /api/verify` does (specification, "POST
 * /api/verify"): the same function (src/serve/card-verification.ts) over the same verifier
 * (src/core/verify/card-verifier.ts) against the served state's verification context (DID keys,
 * signed root, withdrawals, supersessions, log), and on a service away from its DID's host (a
 * replica) under the host's keys (issue 36: UNVERIFIABLE_KEY when the host cannot be read,
 * INVALID when it serves other keys), answering the same `svc.card-verification/1` document.
 * Free, like every verification.
 */
import { z } from 'zod';
import { cardVerificationDocument } from '../../serve/card-verification.js';
import { errorResult, tool } from './tool-results.js';

/** The verify_card tool (input: `card` JSON or a card `id`; output: svc.card-verification/1). */
export const VERIFY_CARD = tool({
  name: 'verify_card',
  title: 'Verify a card',
  description:
    "Checks a card-v1 exactly as POST /api/verify does: shape, content address (SHA-256 of the RFC 8785 body), Ed25519 signature under the DID document, not withdrawn, not superseded, inclusion under the signed root and in the log. Give the card JSON as `card`, or a card of this release by `id`. Answers the same svc.card-verification/1 document: VALID, or INVALID with the failing checks; on a replica, the keys are its DID host's (UNVERIFIABLE_KEY while that host cannot be read).",
  input: z
    .object({
      card: z.record(z.string(), z.unknown()).optional().describe('the card-v1 JSON object to check'),
      id: z
        .string()
        .regex(/^([0-9a-f]{16}|[0-9a-f]{64})$/)
        .optional()
        .describe('or: the sha256 (64 hex) or first 16 hex of a card of this release'),
    })
    .strict(),
  run: async ({ card, id }, ctx) => {
    if ((card === undefined) === (id === undefined))
      return errorResult({
        error: 'give exactly one of card (the card JSON) or id (a card sha256 or its first 16 hex)',
        code: 'bad_body',
      });
    const current = ctx.state.current();
    const input = id !== undefined ? current.cardById(id) : card;
    if (input === undefined)
      return errorResult({ error: `no card with id ${id} in this release`, code: 'not_found', id: id! });
    const doc = await cardVerificationDocument(current, [input], ctx.didHost);
    const verdict = doc.results[0]!;
    const text =
      verdict.result === 'VALID'
        ? `VALID: card ${verdict.sha256} passes every check (${verdict.checks.map((c) => c.check).join(', ')}).`
        : `${verdict.result}: ${verdict.reasons.join('; ')}.`;
    return { content: [{ type: 'text', text }], structuredContent: doc };
  },
});
