/**
 * Skills over the service's other read documents: regulation-deadlines (`GET /api/regulation`),
 * root-pointer (`GET /root.json`, `GET /interop/card-root-latest.json`), capability-fabric
 * (`GET /api/capability-fabric`), corrections (`GET /api/corrections`), product-catalogue
 * (`GET /api/x402`) and did-keys (`GET /.well-known/did.json`). Data parts are the documents
 * verbatim; the text is a reading aid.
 */
import { list, read, str, type AnswerDeps, type SkillAnswer } from './answer-kit.js';
import type { RoutedMessage } from './skills.js';

const MAX_LINES = 12;

function days(d: unknown): string {
  if (typeof d !== 'number') return '';
  return d >= 0 ? ` (in ${d} days)` : ` (${-d} days ago)`;
}

/** regulation-deadlines: `GET /api/regulation`. */
export async function regulationDeadlines(_msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const r = await read(deps, '/api/regulation');
  const re = (r.json.reverification ?? {}) as Record<string, unknown>;
  const lines = [
    `Regulation feed ${str(r.json.version)}, verified as of ${str(r.json.verified_as_of)} (re-verification ${str(re.state)}, due by ${str(re.due_by)}).`,
    ...list(r.json.deadlines).map(
      (d) =>
        `${str(d.id)}: ${str(d.instrument)}, ${str(d.provision)}: applies from ${str(d.applies_from)}${days(d.days_until)}; ${str(d.status)}${d.in_force === true ? ', in force' : ''}.`,
    ),
    typeof r.json.note === 'string' ? r.json.note : '',
  ];
  return {
    skill: 'regulation-deadlines',
    text: lines.filter((l) => l !== '').join('\n'),
    data: [{ value: r.json, source: r.source }],
  };
}

/** root-pointer: `GET /root.json`, then `GET /interop/card-root-latest.json`. */
export async function rootPointer(_msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const root = await read(deps, '/root.json');
  const pointer = await read(deps, '/interop/card-root-latest.json');
  if (root.status !== 200)
    return {
      skill: 'root-pointer',
      text: `No signed root is served (HTTP ${root.status}).`,
      data: [{ value: root.json, source: root.source }],
    };
  const signed =
    typeof root.json.sig_ed25519 === 'string' ? `signed with Ed25519 under ${str(root.json.kid)}` : 'unsigned';
  const lines = [
    `Signed public root: merkle_root ${str(root.json.merkle_root)} over ${str(root.json.leaf_count)} active cards, as of ${str(root.json.as_of)}, ${signed} (DID ${str(root.json.did_intended)}).`,
    pointer.status === 200
      ? `Pointer ${deps.ctx.baseUrl}/interop/card-root-latest.json: the root bytes have SHA-256 ${str(pointer.json.root_sha256)}; witness record at ${str(pointer.json.witness_url)}.`
      : '',
    `Tree: ${str(root.json.tree)}.`,
  ];
  const data = [
    { value: root.json, source: root.source },
    ...(pointer.status === 200 ? [{ value: pointer.json, source: pointer.source }] : []),
  ];
  return { skill: 'root-pointer', text: lines.filter((l) => l !== '').join('\n'), data };
}

/** capability-fabric: `GET /api/capability-fabric` (rail states as observed). */
export async function capabilityFabric(_msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const r = await read(deps, '/api/capability-fabric');
  const contract = (r.json.action_contract ?? {}) as Record<string, unknown>;
  const policy = (contract.policy ?? {}) as Record<string, unknown>;
  const lines = [
    `Capability fabric observed at ${str(r.json.observed_at)}: ${list(r.json.rails).length} rails (states are observed by probing the service's own endpoints, never declared).`,
    ...list(r.json.rails).map(
      (x) => `${str(x.id)}: ${str(x.state)}${typeof x.last_error === 'string' ? ` (${x.last_error})` : ''}`,
    ),
    `Actions (${str(policy.mode)}, execution enabled: ${str(policy.execution_enabled)}): ${list(contract.actions)
      .map(
        (a) =>
          `${str((a.definition as Record<string, unknown> | undefined)?.id)} ${str((a.runtime as Record<string, unknown> | undefined)?.state)}`,
      )
      .join('; ')}.`,
  ];
  return { skill: 'capability-fabric', text: lines.join('\n'), data: [{ value: r.json, source: r.source }] };
}

/** corrections: `GET /api/corrections`, newest entries first in the text. */
export async function corrections(_msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const r = await read(deps, '/api/corrections');
  const entries = list(r.json.corrections);
  // Ids are C-YYYY-MMDD-NN, so their text order is their date order: newest first.
  const newest = [...entries].sort((a, b) => str(b.id).localeCompare(str(a.id))).slice(0, MAX_LINES);
  const lines = [
    `${entries.length} corrections in the ledger (${str(r.json.license, 'no licence stated')}).${entries.length > newest.length ? ` The ${newest.length} newest:` : ''}`,
    ...newest.map((c) => `${str(c.id)} (${str(c.date)}, ${str(c.status)}): ${str(c.what_was_wrong)}`),
    typeof r.json.policy === 'string' ? `Policy: ${r.json.policy}` : '',
  ];
  return {
    skill: 'corrections',
    text: lines.filter((l) => l !== '').join('\n'),
    data: [{ value: r.json, source: r.source }],
  };
}

/** product-catalogue: `GET /api/x402`; says that nothing is sold over A2A. */
export async function productCatalogue(_msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const r = await read(deps, '/api/x402');
  if (r.status !== 200) {
    return {
      skill: 'product-catalogue',
      text: `This instance serves no paid products (GET /api/x402 answered HTTP ${r.status}). Everything free stays free: the board, the root, the cards and their verification.`,
      data: [{ value: r.json, source: r.source }],
    };
  }
  const rail = (r.json.rail ?? {}) as Record<string, unknown>;
  const lines = [
    'This agent sells nothing and takes no payment. Paid products are requested over HTTP at their URL and paid with x402 (the 402 challenge says what to pay and to whom).',
    `Rail: ${str(rail.mode)}, ${str(rail.scheme)} on ${str(rail.network)} in ${str(rail.symbol)}; payee configured: ${str(rail.pay_to_configured)}, facilitator configured: ${str(rail.facilitator_configured)}.${typeof rail.note === 'string' ? ` ${rail.note}.` : ''}`,
    ...list(r.json.products).map((p) => {
      const price = (p.pricing ?? {}) as Record<string, unknown>;
      const free = Array.isArray(p.free_equivalents) ? ` Free equivalents: ${p.free_equivalents.join(', ')}.` : '';
      return `${str(p.product_id)}: ${str(p.method)} ${str(p.url)}, ${str(price.offered)} per ${str(p.per)} (${str(price.pricing_basis)}). ${str(p.description)} Without payment: ${str(p.without_payment)}.${free}`;
    }),
  ];
  return { skill: 'product-catalogue', text: lines.join('\n'), data: [{ value: r.json, source: r.source }] };
}

const ROLE_OF: Record<string, string> = {
  'board-attestation-1': 'signs the board, the public root, measurement cards, offers and receipts',
  'card-attestation-2': 'signs this agent card',
  'card-attestation-1': 'signed earlier agent cards (kept so they still verify; no longer signs)',
  'identity-root':
    'the identity root: authorises key changes (revocations, root rotations) and signs nothing else; kept off the serving machine (docs/threat-model.md)',
};

/** did-keys: `GET /.well-known/did.json`, and whether the card now served is signed. */
export async function didKeys(_msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const r = await read(deps, '/.well-known/did.json');
  const sig = deps.cardSignature();
  const methods = list(r.json.verificationMethod);
  const lines = [
    `DID ${str(r.json.id)} (document: ${deps.ctx.baseUrl}/.well-known/did.json), ${methods.length} Ed25519 verification methods:`,
    ...methods.map((m) => {
      const id = str(m.id);
      const fragment = id.slice(id.indexOf('#') + 1);
      const retired = m.retired as { fragment?: string; at?: string } | undefined;
      if (retired !== undefined)
        return `${id}: the key ${str(retired.fragment)} had until it was rotated at ${str(retired.at)} (kept so what it signed still verifies; signs nothing now).`;
      return `${id}: ${ROLE_OF[fragment] ?? 'a key of this service'}.`;
    }),
    sig.signed
      ? `This agent card is signed under ${sig.kid} (detached JWS, EdDSA, over the RFC 8785 form of the card without signatures).`
      : `This agent card is served unsigned: ${sig.reason}.`,
  ];
  const cardState = sig.signed ? { signed: true, kid: sig.kid } : { signed: false, reason: sig.reason };
  return {
    skill: 'did-keys',
    text: lines.join('\n'),
    data: [
      { value: r.json, source: r.source },
      { value: { agent_card: cardState }, source: 'GET /.well-known/agent-card.json' },
    ],
  };
}
