/**
 * The A2A v1.0 agent card (A2A v1.0 `AgentCard`; specification, "Endpoints": the card at
 * `/.well-known/agent-card.json` and `/.well-known/agent.json`, same bytes, JWS-signed, 10
 * skills). Only v1.0 fields, none empty or default-valued, so the SDK's canonical form of the
 * card equals its plain RFC 8785 form and the signature covers every served byte but
 * `signatures` (protocols.md §2.3). Built from the live state: base URL, served release, key.
 */
import type { SignerState } from '../../core/evidence/signer.js';
import { signAgentCard, verifyAgentCard, type AgentCardSignature } from '../../core/verify/agent-card-signature.js';
import { SKILLS, type ExampleValues } from './skills.js';

/** Where the JSON-RPC binding is served (specification, "Endpoints": `/api/a2a`). */
export const A2A_PATH = '/api/a2a';
/** The only A2A protocol version offered (the `A2A-Version` a request must carry). */
export const A2A_VERSION = '1.0';
/** The key that signs agent cards now (specification, "Authentication" 4). */
export const CARD_KEY_FRAGMENT = 'card-attestation-2';
/** Where the card is served; the same bytes at both. */
export const CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;

export interface AgentCardInputs {
  /** The public origin, without a trailing slash. */
  baseUrl: string;
  /** The board's issuer (the provider's organization). */
  issuer: string;
  /** The served release id: the card's `version` (the answers change only with it). */
  release: string;
  examples: ExampleValues;
}

/** Whether the served card is signed, under which kid, or why not. */
export type CardSignatureState = { signed: true; kid: string } | { signed: false; reason: string };

/** A card ready to serve and the state of its signature. */
export interface BuiltAgentCard {
  /** The card as served (with `signatures` when signed). */
  card: Record<string, unknown> & { signatures?: AgentCardSignature[] };
  signature: CardSignatureState;
}

const DESCRIPTION =
  'Public, read-only peer agent of the GSPC measurement board: the signed board (per-axis n, accuracy, Wilson 95% intervals, exact McNemar separation), one axis, the regulation deadlines, the signed public root, measurement cards and their free verification, the corrections ledger, the capability fabric, the DID keys and the catalogue of paid products. ' +
  'Send one JSON-RPC SendMessage (A2A-Version 1.0) to the interface URL and get one Message back: a text part and data parts holding the documents the HTTP API serves, verbatim. ' +
  'Choose the skill with message metadata "skill", or start the text with the skill id, or use its words (see each skill). ' +
  'Task execution, streaming and push notifications are not offered: no task is ever created. Nothing is sold or charged over A2A; paid products are bought over HTTP with x402. Measurement, not certification.';

/** The card without signatures; `unsignedReason` is appended to the description when set. */
export function agentCardBody(i: AgentCardInputs, unsignedReason?: string): Record<string, unknown> {
  const provider = i.issuer.trim() === '' ? {} : { provider: { organization: i.issuer, url: i.baseUrl } };
  return {
    name: 'GSPC measurement board',
    description:
      unsignedReason === undefined ? DESCRIPTION : `${DESCRIPTION} This card is served unsigned: ${unsignedReason}.`,
    supportedInterfaces: [{ url: `${i.baseUrl}${A2A_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: A2A_VERSION }],
    ...provider,
    version: i.release,
    // The capability fabric documents every action and the rail (observed, never declared) that
    // backs each skill: the nearest thing to documentation an agent can read.
    documentationUrl: `${i.baseUrl}/api/capability-fabric`,
    // false is kept by the SDK's canonical form (optional fields with presence), so stating it
    // costs nothing in the signature and tells a client not to try.
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: SKILLS.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
      examples: s.examples(i.examples),
    })),
  };
}

/**
 * Signs the card with the card key when it is healthy and the signature verifies under the
 * DID document the service serves; otherwise the card is served unsigned and its description
 * says why (fail closed, never a wrong signature). The older card key is never used to sign.
 */
export function buildAgentCard(
  i: AgentCardInputs,
  cardKey: SignerState | undefined,
  didDocument: unknown,
): BuiltAgentCard {
  const unsigned = (reason: string): BuiltAgentCard => ({
    card: agentCardBody(i, reason),
    signature: { signed: false, reason },
  });
  if (cardKey === undefined) return unsigned(`no agent card key (${CARD_KEY_FRAGMENT}) is loaded by this process`);
  if (!cardKey.healthy) return unsigned(cardKey.reason);
  const signed = signAgentCard(agentCardBody(i), cardKey.signer);
  const check = verifyAgentCard(signed, didDocument);
  if (!check.ok)
    return unsigned(
      `the signature made under ${cardKey.signer.kid} does not verify under the served DID document (${check.detail})`,
    );
  return { card: signed, signature: { signed: true, kid: cardKey.signer.kid } };
}
