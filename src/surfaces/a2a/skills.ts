/**
 * The eleven skills of the A2A agent card (A2A v1.0 `AgentSkill`: id, name, description, tags,
 * examples) and how a `SendMessage` is routed to one of them (docs/drafts/a2a.md, "Formats").
 * Three ids are fixed by the capability fabric (src/core/fabric/actions.ts): `board-summary`,
 * `regulation-deadlines`, `root-pointer`. Every skill is a read of a document the HTTP API
 * already serves; none computes a figure of its own.
 */
import { RequestMalformedError } from '@a2a-js/sdk/errors';

/** The skill ids, in the card's order (board-summary, regulation-deadlines and root-pointer are the fabric's names). */
export const SKILL_IDS = [
  'board-summary',
  'axis-lookup',
  'cost-lookup',
  'regulation-deadlines',
  'root-pointer',
  'card-lookup',
  'card-verification',
  'capability-fabric',
  'corrections',
  'product-catalogue',
  'did-keys',
] as const;
export type SkillId = (typeof SKILL_IDS)[number];

/** Live values the examples quote, so an example always names something that exists. */
export interface ExampleValues {
  axis: string;
  /** A model-comparison axis (cost-lookup's examples must name one). */
  comparisonAxis: string;
  cardId: string;
}

/** One skill: the card's `AgentSkill` fields plus the words that route a message to it. */
export interface SkillSpec {
  id: SkillId;
  name: string;
  description: string;
  tags: string[];
  examples: (v: ExampleValues) => string[];
  /** Words of a message's text that route to this skill (whole words, lower case). */
  keywords: readonly string[];
}

const SPECS: Record<SkillId, Omit<SkillSpec, 'id'>> = {
  'board-summary': {
    name: 'Board summary',
    description:
      'The GSPC board as GET /api/gspc serves it: counts of axes, items, separated leaders and ties, and each quotable leader with its accuracy, Wilson 95% interval and exact McNemar separation. Text: a summary; data: the signed board document verbatim, or, past 64 kB, with its per-model lists cut and then its axes page by page (send the data part\'s page.next_cursor in metadata "cursor" for the next).',
    tags: ['board', 'measurement', 'gspc', 'read-only'],
    examples: () => ['board summary', 'What does the GSPC board show?'],
    keywords: ['board', 'summary', 'summarise', 'summarize', 'overview', 'totals', 'leaders', 'gspc'],
  },
  'axis-lookup': {
    name: 'Axis lookup',
    description:
      'One axis of the board as GET /api/gspc?axis=<slug> serves it: status, n, accuracy, leader, Wilson interval, separation and the limitations that name the axis; for a model comparison, every model and pair of GET /api/models?axis=<slug>, page by page within 64 kB (send the data part\'s page.next_cursor in metadata "cursor" for the next). Give the axis slug in metadata "axis" or in the text; an unknown slug is answered with the known ones.',
    tags: ['board', 'axis', 'measurement', 'read-only'],
    examples: (v) => [`axis ${v.axis}`, `axis-lookup ${v.axis}`],
    keywords: ['axis', 'axes'],
  },
  'cost-lookup': {
    name: 'Cost and the cheapest model not separated from the leader',
    description:
      'What the models of one model-comparison axis cost, as GET /api/cost?axis=<slug> serves it: from the operator\'s dated price list (USD per million input and output tokens) and the rows\' token counts, per model cost per item and per correct answer with 95% intervals and whether it is dominated (separated below another model after Holm that costs no more per item); the models not separated from the leader with their cost, and the cheapest of those compared with the leader whose cost covers every one of their rows (cheaper ones never compared with it are named apart). No price or no token counts is no cost, never 0. Give the axis slug in metadata "axis" or in the text.',
    tags: ['cost', 'price', 'tokens', 'read-only'],
    examples: (v) => [
      `cheapest model not separated from the leader on ${v.comparisonAxis}`,
      `cost-lookup ${v.comparisonAxis}`,
    ],
    keywords: ['cheapest', 'cheaper', 'dominated', 'dominance', 'cost-effective'],
  },
  'regulation-deadlines': {
    name: 'Regulation deadlines',
    description:
      'The version-pinned regulation deadline feed as GET /api/regulation serves it: each instrument and provision, the date it applies from, days until then, and the date the feed was verified.',
    tags: ['regulation', 'deadlines', 'compliance', 'read-only'],
    examples: () => ['regulation deadlines', 'Which AI regulation deadlines apply next?'],
    keywords: ['regulation', 'regulations', 'regulatory', 'deadline', 'deadlines', 'obligation', 'obligations', 'law'],
  },
  'root-pointer': {
    name: 'Signed root pointer',
    description:
      'The signed Merkle public root over every active card (GET /root.json, signed with Ed25519 under #board-attestation-1 and binding its leaf count) and its pointer (GET /interop/card-root-latest.json: the SHA-256 of the root bytes and where the witness record is).',
    tags: ['evidence', 'merkle', 'root', 'signature', 'read-only'],
    examples: () => ['root pointer', 'What is the current signed root?'],
    keywords: ['root', 'merkle', 'pointer', 'witness'],
  },
  'card-lookup': {
    name: 'Card lookup',
    description:
      'Measurement cards (card-v1) as GET /cards/<id>.json serves them, with their inclusion proofs under the signed root: by card id (the first 16 hex characters of its sha256, or all 64) in metadata "id" or the text, or the cards of one axis from GET /cards/index.json.',
    tags: ['cards', 'evidence', 'read-only'],
    examples: (v) => [`card ${v.cardId}`, `cards of axis ${v.axis}`],
    keywords: ['card', 'cards'],
  },
  'card-verification': {
    name: 'Card verification',
    description:
      'Verifies measurement cards exactly as POST /api/verify does (content address, Ed25519 signature under the DID document, not withdrawn or superseded, under the signed root, in the card log). Send the card JSON, {"cards": [...]} or {"ids": [...]} as a data part, or card ids in the text. Free.',
    tags: ['verification', 'cards', 'ed25519', 'free'],
    examples: (v) => [`verify ${v.cardId}`, 'verify (with the card JSON as a data part)'],
    keywords: ['verify', 'verification', 'valid', 'validate'],
  },
  'capability-fabric': {
    name: 'Capability fabric',
    description:
      'The capability fabric as GET /api/capability-fabric serves it: each rail with its observed state (never declared) and the fail-closed action contract; the service reads and never executes actions.',
    tags: ['fabric', 'capabilities', 'status', 'read-only'],
    examples: () => ['capability fabric', 'Which rails are observed right now?'],
    keywords: ['fabric', 'capability', 'capabilities', 'rail', 'rails', 'actions'],
  },
  corrections: {
    name: 'Corrections ledger',
    description:
      'The corrections ledger as GET /api/corrections serves it: every published error, when it was detected and published, what changed, and the computed correction latency.',
    tags: ['corrections', 'transparency', 'read-only'],
    examples: () => ['corrections', 'Which errors were corrected?'],
    keywords: ['correction', 'corrections', 'corrected', 'errata', 'erratum', 'errors'],
  },
  'product-catalogue': {
    name: 'Product catalogue',
    description:
      'The paid products as GET /api/x402 lists them: what each delivers, its price, its free preview and free equivalents, and how to pay (x402 over HTTP at the product URL). This agent sells nothing and takes no payment.',
    tags: ['products', 'pricing', 'x402', 'read-only'],
    examples: () => ['product catalogue', 'What can I buy and how do I pay?'],
    keywords: [
      'product',
      'products',
      'catalogue',
      'catalog',
      'price',
      'prices',
      'pricing',
      'pay',
      'payment',
      'buy',
      'purchase',
      'paid',
      'cost',
      'x402',
    ],
  },
  'did-keys': {
    name: 'DID and keys',
    description:
      'The DID document as GET /.well-known/did.json serves it: the Ed25519 keys of the board (#board-attestation-1) and of agent cards (#card-attestation-2 now, #card-attestation-1 for earlier cards), and whether this agent card is signed.',
    tags: ['did', 'keys', 'ed25519', 'read-only'],
    examples: () => ['did keys', 'Which keys sign the board?'],
    keywords: ['did', 'did:web', 'key', 'keys', 'jwk', 'signer', 'signing'],
  },
};

/** The eleven skills of the card (A2A v1.0 `AgentCard.skills`). */
export const SKILLS: readonly SkillSpec[] = SKILL_IDS.map((id) => ({ id, ...SPECS[id] }));

// Keyword routing order: the more specific intent first ("verify card X" verifies, "card X"
// looks up, "board summary" is the fallback of any board question).
const KEYWORD_ORDER: readonly SkillId[] = [
  'card-verification',
  'card-lookup',
  'regulation-deadlines',
  'root-pointer',
  'did-keys',
  'corrections',
  'capability-fabric',
  'cost-lookup',
  'product-catalogue',
  'axis-lookup',
  'board-summary',
];

/**
 * Words that ask what a model costs: with an axis named they route to cost-lookup ("what do the
 * models cost on jail"); alone, "cost" still asks what this service sells (product-catalogue).
 * Price words stay the catalogue's: "the price of an attestation for jail" is about a product.
 */
const COST_WORDS = ['cost', 'costs', 'costly', 'expensive', 'spend', 'spent'];

/** What a message asks for: the skill (null: none recognised) and the arguments read from it. */
export interface RoutedMessage {
  skill: SkillId | null;
  /** How the skill was chosen (reported in the answer's metadata). */
  routedBy: 'metadata' | 'leading-skill-id' | 'data-part' | 'keyword' | 'none';
  axis?: string;
  /** metadata `cursor`: the page of the every-model document to answer (axis-lookup). */
  cursor?: string;
  ids: string[];
  /** The first data part, when there is one (the body card-verification sends to POST /api/verify). */
  data?: unknown;
}

/** What routing reads from a `SendMessage`: its text parts joined, its data parts, its metadata. */
export interface MessageInput {
  text: string;
  data: unknown[];
  /** Message metadata, then the request's metadata (message keys win). */
  metadata: Record<string, unknown>;
}

const HEX_ID = /\b(?:[0-9a-f]{64}|[0-9a-f]{16})\b/g;

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9:/._-]+/)
    .map((t) => t.replace(/^[._:-]+|[._:-]+$/g, ''))
    .filter((t) => t !== '');
}

function isVerifyBody(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.schema === 'card-v1' || Array.isArray(o.cards) || Array.isArray(o.ids);
}

/**
 * Routes a message (docs/decisions.md A2A3): metadata `skill` first, then a text
 * starting with a skill id, then a data part that is a verification body, then keywords.
 * A metadata `skill` that names no skill is a malformed request (-32602).
 */
export function routeMessage(input: MessageInput, knownAxes: readonly string[]): RoutedMessage {
  const words = tokens(input.text);
  const m = input.metadata;
  const ids = new Set<string>();
  if (typeof m.id === 'string') ids.add(m.id.toLowerCase());
  if (Array.isArray(m.ids)) for (const x of m.ids) if (typeof x === 'string') ids.add(x.toLowerCase());
  for (const hit of input.text.toLowerCase().matchAll(HEX_ID)) ids.add(hit[0]);
  const axis = typeof m.axis === 'string' ? m.axis : words.find((w) => knownAxes.includes(w));
  // A cursor of another type is refused, not ignored: ignored, it gave page 1 again forever.
  if (m.cursor !== undefined && typeof m.cursor !== 'string')
    throw new RequestMalformedError('metadata.cursor must be a string: the page.next_cursor of the previous answer');
  const base = {
    ids: [...ids],
    ...(axis !== undefined && { axis }),
    ...(typeof m.cursor === 'string' && { cursor: m.cursor }),
    ...(input.data.length > 0 && { data: input.data[0] }),
  };

  if (m.skill !== undefined) {
    if (typeof m.skill !== 'string' || !(SKILL_IDS as readonly string[]).includes(m.skill)) {
      throw new RequestMalformedError(`metadata.skill must name one of this agent's skills: ${SKILL_IDS.join(', ')}`);
    }
    return { skill: m.skill as SkillId, routedBy: 'metadata', ...base };
  }
  const first = words[0];
  if (first !== undefined && (SKILL_IDS as readonly string[]).includes(first))
    return { skill: first as SkillId, routedBy: 'leading-skill-id', ...base };
  if (input.data.length > 0 && isVerifyBody(input.data[0]))
    return { skill: 'card-verification', routedBy: 'data-part', ...base };
  const said = new Set(words);
  for (const id of KEYWORD_ORDER) {
    if (SPECS[id].keywords.some((k) => said.has(k))) return { skill: id, routedBy: 'keyword', ...base };
    // "cost on jail" asks what the models of an axis cost; "cost" alone asks what this service sells for.
    if (id === 'cost-lookup' && axis !== undefined && COST_WORDS.some((k) => said.has(k)))
      return { skill: id, routedBy: 'keyword', ...base };
    // Naming a known axis is asking about it, even without the word "axis".
    if (id === 'axis-lookup' && axis !== undefined) return { skill: id, routedBy: 'keyword', ...base };
  }
  return { skill: null, routedBy: 'none', ...base };
}
