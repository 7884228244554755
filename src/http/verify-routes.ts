/**
 * Free verification (specification, "POST /api/verify", "POST /api/receipts/verify").
 * Receipt keys resolve from this service's own DID document or, for did:web hosts the operator
 * allow-lists, theirs (src/keys/did-resolver.ts); no request makes the service fetch a URL of
 * its choosing. Bodies are JSON (docs/formats.md §5); malformed ones get 400 `bad_body` with a reason.
 *
 * A service that is not at its DID's host (a replica: issue 36) is given that host (`atHost`):
 * its keys are the ones the host serves. Cards are checked against the served release as
 * everywhere, and the served keys must be the host's (`key_anchor`, key-source.ts: the same
 * history, or a prefix of it while the replica has not caught up); otherwise no card is VALID:
 * INVALID when they differ, UNVERIFIABLE_KEY when the host cannot be read.
 * A receipt check may name what it expects (issue 37): an offer posted as a receipt is never VALID.
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { type Expectation, verifyOfferOrReceipt } from '../core/crypto/receipt-verifier.js';
import { revocationsOfDidDocument, verifyCard, type CardVerdict } from '../core/verify/card-verifier.js';
import { anchorKeys, anchoredVerdict, didOf, type HostAnswer, type KeyAnchorCheck } from '../core/verify/key-source.js';
import { revokedReason, type Revocation } from '../core/verify/revocation.js';
import type { DidHost, KeyResolver } from '../keys/did-resolver.js';
import { releaseKeys } from '../release/release-keys.js';
import { cardsOf, cardVerificationDocument } from '../serve/card-verification.js';
import { BASE_HEADERS } from '../serve/headers.js';
import type { PreparedRelease } from '../serve/prepared.js';
import type { ServedState } from '../serve/served-state.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';

const VERIFY_BODY_LIMIT = 16 * 1024 * 1024;
const HINT = "the service's operator restores the DID's host, or verify the origin itself";

/** The served keys judged against the host's, and the revocations the host's history holds. */
interface HostJudgement {
  check: KeyAnchorCheck;
  /** The host's revocations (a prefix of its history is the replica's; later ones apply too). */
  revocations: Revocation[] | undefined;
}

/**
 * The served keys against the host's answer, computed once per (release, answer): the answer is
 * cached by the resolver. Besides `key_anchor`, a key the host revoked that still signs the
 * served release beyond what the revocation trusts is INVALID here, as `gspc verify`'s
 * `signed_unrevoked` says (a replica not yet given the release published after the revocation).
 */
function judge(): (current: PreparedRelease, answer: HostAnswer) => Promise<HostJudgement> {
  const memo = new WeakMap<PreparedRelease, WeakMap<HostAnswer, Promise<HostJudgement>>>();
  return (current, answer) => {
    const byAnswer = memo.get(current) ?? new WeakMap<HostAnswer, Promise<HostJudgement>>();
    memo.set(current, byAnswer);
    let judged = byAnswer.get(answer);
    if (judged === undefined) {
      judged = judgeNow(current, answer);
      byAnswer.set(answer, judged);
    }
    return judged;
  };
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
  const revoked = revocations.find((r) => signedWith.get(r.fragment) === r.x && entries.length > r.trusted_size);
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

export function registerVerifyRoutes(
  app: FastifyInstance,
  state: ServedState,
  resolve: KeyResolver,
  atHost?: DidHost,
): void {
  const judged = judge();
  app.post('/api/verify', { bodyLimit: VERIFY_BODY_LIMIT }, async (req, reply) => {
    const current = state.current();
    const cards = cardsOf(req.body, (id) => current.cardById(id));
    if (atHost === undefined) {
      reply.headers(BASE_HEADERS).send(await cardVerificationDocument(current, cards));
      return;
    }
    // Away from the DID's host: the card checks of the served release, under the host's
    // revocations, and no card VALID unless the served keys are the host's.
    const { check, revocations } = await judged(current, await atHost.documents());
    const ctx = await current.verification();
    const context = revocations === undefined ? ctx : { ...ctx, revocations };
    const results: CardVerdict[] = [];
    for (const card of cards) results.push(anchoredVerdict(await verifyCard(card, context, nodeVerifyCrypto), check));
    const valid = results.filter((r) => r.result === 'VALID').length;
    const unverifiable = results.filter((r) => r.result === 'UNVERIFIABLE_KEY').length;
    reply.headers(BASE_HEADERS).send({
      schema: 'svc.card-verification/1',
      root: ctx.root ? { ...ctx.root, signature: ctx.rootSignatureValid ? 'VALID' : 'INVALID' } : null,
      key_anchor: { result: check.state, detail: check.detail },
      summary: { checked: results.length, valid, invalid: results.length - valid - unverifiable, unverifiable },
      results,
    });
  });

  app.post('/api/receipts/verify', async (req, reply) => {
    const body = req.body;
    const jws = typeof body === 'string' ? body.trim() : (body as { jws?: unknown } | null)?.jws;
    if (typeof jws !== 'string' || jws === '')
      throw new GspcError('bad_body', 'send {"jws": "<compact JWS>"} as JSON, or the compact JWS as text/plain');
    if (jws.length > 64 * 1024) throw new GspcError('bad_body', 'the JWS is longer than 64 KiB');
    const v = await verifyOfferOrReceipt(jws, resolve, expectationOf(body));
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
