/**
 * From a `SendMessage` request to the reply's content: read the message (text parts, data
 * parts, metadata), route it to a skill (skills.ts), let the skill read the served documents,
 * and lay the answer out as A2A v1.0 parts: one text part, then one data part per document
 * (`mediaType` application/json, `metadata.source` the request that served it).
 */
import type { SendMessageRequest } from '@a2a-js/sdk';
import type { AnswerDeps, SkillAnswer, SkillAnswerer } from './answer-kit.js';
import { axisLookup, boardSummary, cardLookup, cardVerification } from './board-answers.js';
import { costLookup } from './cost-answers.js';
import {
  capabilityFabric,
  corrections,
  didKeys,
  productCatalogue,
  regulationDeadlines,
  rootPointer,
} from './document-answers.js';
import { routeMessage, SKILLS, type ExampleValues, type RoutedMessage, type SkillId } from './skills.js';

const ANSWERERS: Record<SkillId, SkillAnswerer> = {
  'board-summary': boardSummary,
  'axis-lookup': axisLookup,
  'cost-lookup': costLookup,
  'regulation-deadlines': regulationDeadlines,
  'root-pointer': rootPointer,
  'card-lookup': cardLookup,
  'card-verification': cardVerification,
  'capability-fabric': capabilityFabric,
  corrections,
  'product-catalogue': productCatalogue,
  'did-keys': didKeys,
};

/** The reply in ProtoJSON form (what `Message.fromJSON` reads), without ids and role. */
export interface ReplyContent {
  parts: Record<string, unknown>[];
  metadata: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function helpAnswer(examples: ExampleValues): SkillAnswer {
  const skills = SKILLS.map((s) => ({ id: s.id, name: s.name, examples: s.examples(examples) }));
  return {
    skill: null,
    text: `No skill was recognised in this message. Name one in message metadata "skill", start the text with its id, or use its words. Skills: ${skills.map((s) => `${s.id} (e.g. "${s.examples[0]}")`).join('; ')}.`,
    data: [{ value: { skills }, source: 'GET /.well-known/agent-card.json (skills)' }],
  };
}

/**
 * Answers one request. Throws the SDK's `RequestMalformedError` (-32602) for a metadata
 * `skill` that names no skill or an input a route refuses with 400; any other failure of a
 * read throws and becomes -32603.
 */
export async function replyTo(
  request: SendMessageRequest,
  deps: AnswerDeps,
  examples: ExampleValues,
): Promise<ReplyContent> {
  const message = request.message;
  const texts: string[] = [];
  const data: unknown[] = [];
  for (const part of message?.parts ?? []) {
    if (part.content?.$case === 'text') texts.push(part.content.value);
    else if (part.content?.$case === 'data') data.push(part.content.value);
  }
  const metadata = {
    ...(isObject(request.metadata) ? request.metadata : {}),
    ...(isObject(message?.metadata) ? message.metadata : {}),
  };
  const routed: RoutedMessage = routeMessage(
    { text: texts.join('\n'), data, metadata },
    deps.ctx.state.current().knownAxes,
  );
  const answer = routed.skill === null ? helpAnswer(examples) : await ANSWERERS[routed.skill](routed, deps);
  return {
    parts: [
      { text: answer.text, mediaType: 'text/plain' },
      ...answer.data.map((d) => ({ data: d.value, mediaType: 'application/json', metadata: { source: d.source } })),
    ],
    metadata: {
      ...(answer.skill !== null && { skill: answer.skill }),
      routed_by: routed.routedBy,
      sources: answer.data.map((d) => d.source),
    },
  };
}
