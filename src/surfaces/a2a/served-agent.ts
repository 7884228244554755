/**
 * The agent as served for one prepared state: the card (signed or not), its bytes with an
 * ETag, and the SDK handlers built over it. Kept per `PreparedRelease`, which the served state
 * replaces on every new release, key-health change or witness record, so the card is built
 * and signed once per state (Ed25519 is deterministic: the same state gives the same bytes).
 */
import { AgentCard } from '@a2a-js/sdk';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import { prepare, type Prepared } from '../../serve/prepared-bytes.js';
import type { PreparedRelease } from '../../serve/prepared.js';
import type { SurfaceContext } from '../context.js';
import { buildAgentCard, type BuiltAgentCard } from './agent-card.js';
import type { AnswerDeps } from './answer-kit.js';
import { replyTo } from './reply.js';
import { BoardRequestHandler } from './request-handler.js';
import type { ExampleValues } from './skills.js';

export interface ServedAgent extends BuiltAgentCard {
  /** The card's bytes (identical at both well-known paths). */
  bytes: Prepared;
  /** The card in the SDK's form (what `validateVersion` and the handler read). */
  sdkCard: AgentCard;
  transport: JsonRpcTransportHandler;
}

function examplesOf(p: PreparedRelease): ExampleValues {
  const { cards, withdrawn, superseded } = p.release.evidence;
  const active = [...cards.keys()].find((h) => !withdrawn.has(h) && !superseded.has(h));
  const axis = p.knownAxes[0] ?? 'governance';
  const comparison = p.release.corpus.definitions.find((d) => d.kind === 'model-comparison')?.axis ?? axis;
  return { axis, comparisonAxis: comparison, cardId: (active ?? '0'.repeat(64)).slice(0, 16) };
}

/** Returns the agent for the state being served now, building it on first use. */
export function servedAgent(ctx: SurfaceContext, verifyCards: AnswerDeps['verifyCards']): () => ServedAgent {
  const byState = new WeakMap<PreparedRelease, ServedAgent>();
  return () => {
    const current = ctx.state.current();
    const hit = byState.get(current);
    if (hit) return hit;
    const live = ctx.state.signingLive();
    const examples = examplesOf(current);
    const built = buildAgentCard(
      {
        baseUrl: ctx.baseUrl.replace(/\/+$/, ''),
        issuer: current.release.source.meta.issuer,
        release: current.release.id,
        examples,
      },
      live.cardKey,
      current.didDocument,
    );
    const deps: AnswerDeps = { ctx, verifyCards, cardSignature: () => built.signature };
    const sdkCard = AgentCard.fromJSON(built.card);
    const agent: ServedAgent = {
      ...built,
      bytes: prepare(Buffer.from(`${JSON.stringify(built.card, null, 2)}\n`), 'application/json; charset=utf-8'),
      sdkCard,
      transport: new JsonRpcTransportHandler(new BoardRequestHandler(sdkCard, (req) => replyTo(req, deps, examples))),
    };
    byState.set(current, agent);
    return agent;
  };
}
