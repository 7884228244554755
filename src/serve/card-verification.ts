/**
 * Free card verification against the served release (specification, "POST /api/verify"): which
 * cards a request names (a card, `{"cards": [...]}`, a cards bundle, or `{"ids": [...]}`) and
 * the `svc.card-verification/1` document. One function for POST /api/verify, the MCP
 * `verify_card` tool and the A2A card-verification skill, so their verdicts are the same.
 *
 * A service that is not at its DID's host (a replica: issue 36) is given that host
 * (`ServiceContext.didHost`): its keys are the ones the host serves. Cards are checked against
 * the served release as everywhere, and the served keys must be the host's (`key_anchor`,
 * key-source.ts: the same history, or a prefix of it while the replica has not caught up);
 * otherwise no card is VALID: INVALID when they differ, UNVERIFIABLE_KEY when the host cannot be
 * read.
 */
import { BOARD_KEY } from '../core/evidence/signer.js';
import { GspcError } from '../core/errors.js';
import { revocationsOfDidDocument, verifyCard, type CardVerdict } from '../core/verify/card-verifier.js';
import { anchorKeys, anchoredVerdict, didOf, type HostAnswer, type KeyAnchorCheck } from '../core/verify/key-source.js';
import { revokedReason, type Revocation } from '../core/verify/revocation.js';
import type { DidHost } from '../keys/did-resolver.js';
import { releaseKeys } from '../release/release-keys.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';
import type { PreparedRelease } from './prepared.js';

export const MAX_CARDS_PER_REQUEST = 1000;
/** The longest a verification holds the event loop before giving it back (issue 38). */
const SLICE_MS = 2;
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

const HINT = "the service's operator restores the DID's host, or verify the origin itself";

/** The served keys judged against the host's, and the revocations the host's history holds. */
interface HostJudgement {
  check: KeyAnchorCheck;
  /** The host's revocations (a prefix of its history is the replica's; later ones apply too). */
  revocations: Revocation[] | undefined;
}

/**
 * The served keys against the host's answer, computed once per (release, answer): the answer is
 * cached by the DID host reader. Besides `key_anchor`, a key the host revoked that still signs
 * the served release beyond what the revocation trusts is INVALID here, as `gspc verify`'s
 * `signed_unrevoked` says (a replica not yet given the release published after the revocation).
 */
const judgements = new WeakMap<PreparedRelease, WeakMap<HostAnswer, Promise<HostJudgement>>>();
function judged(current: PreparedRelease, answer: HostAnswer): Promise<HostJudgement> {
  const byAnswer = judgements.get(current) ?? new WeakMap<HostAnswer, Promise<HostJudgement>>();
  judgements.set(current, byAnswer);
  let judgement = byAnswer.get(answer);
  if (judgement === undefined) {
    judgement = judgeNow(current, answer);
    byAnswer.set(answer, judgement);
  }
  return judgement;
}

async function judgeNow(current: PreparedRelease, answer: HostAnswer): Promise<HostJudgement> {
  const served = current.files.get('/keys/transitions.json');
  const view = {
    didDocument: current.didDocument,
    ...(served && { transitions: JSON.parse(served.body.toString('utf8')) as unknown }),
  };
  const entries = current.release.evidence.log.entries;
  const { anchor } = await anchorKeys(nodeVerifyCrypto, view, entries, { kind: 'host', answer }, HINT);
  if (!anchor.ok || !answer.ok) return { check: anchor, revocations: undefined };
  const revocations = revocationsOfDidDocument(answer.docs.didDocument);
  // The keys the release was signed with (its evidence/public-keys.json).
  const signedWith = releaseKeys(current.release);
  // Only the board key signs what a release holds: a revoked agent-card key takes nothing back.
  const revoked = revocations.find(
    (r) => r.fragment === BOARD_KEY && signedWith.get(r.fragment) === r.x && entries.length > r.trusted_size,
  );
  if (revoked === undefined) return { check: anchor, revocations };
  return {
    check: {
      ok: false,
      state: 'INVALID',
      detail: revokedReason(
        revoked,
        `${didOf(view.didDocument)}#${revoked.fragment}`,
        `this replica's release has ${entries.length} log entries, beyond the ${revoked.trusted_size} made before then: it serves the release before the one the DID's host published with the revocation`,
      ),
    },
    revocations,
  };
}

/**
 * The `svc.card-verification/1` document for cards checked against the served release: what
 * POST /api/verify answers, and the MCP `verify_card` tool and the A2A card-verification skill
 * with it. `didHost`: this service's DID's host, when the service is not it (a replica): the
 * cards are then checked under the host's revocations, no card is VALID unless the served keys
 * are the host's, and the document says so (`key_anchor`, `summary.unverifiable`).
 */
export async function cardVerificationDocument(current: PreparedRelease, cards: readonly unknown[], didHost?: DidHost) {
  const ctx = await current.verification();
  const host = didHost === undefined ? undefined : await judged(current, await didHost.documents());
  const context = host?.revocations === undefined ? ctx : { ...ctx, revocations: host.revocations };
  const results: CardVerdict[] = [];
  // The checks are synchronous under their awaits (node's crypto): a request of 1,000 cards held
  // the event loop for about 0.2 s, and every other request waited (issue 38). The loop is given
  // back every SLICE_MS, so a board read waits for one slice, not for a whole verification.
  let sliceStart = performance.now();
  for (const card of cards) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    const verdict = await verifyCard(card, context, nodeVerifyCrypto);
    results.push(host === undefined ? verdict : anchoredVerdict(verdict, host.check));
  }
  const valid = results.filter((r) => r.result === 'VALID').length;
  const unverifiable = results.filter((r) => r.result === 'UNVERIFIABLE_KEY').length;
  const root = ctx.root ? { ...ctx.root, signature: ctx.rootSignatureValid ? 'VALID' : 'INVALID' } : null;
  if (host === undefined)
    return {
      schema: 'svc.card-verification/1' as const,
      root,
      summary: { checked: results.length, valid, invalid: results.length - valid },
      results,
    };
  return {
    schema: 'svc.card-verification/1' as const,
    root,
    key_anchor: { result: host.check.state, detail: host.check.detail },
    summary: { checked: results.length, valid, invalid: results.length - valid - unverifiable, unverifiable },
    results,
  };
}
