/**
 * The OSCAL assessment-results document of the evidence bundle (specification, "Metered
 * products": "an OSCAL 1.1.0 assessment-results wrapper, assembled from already-signed cards").
 * One result for one obligation's control, one observation per signed card, and NO findings:
 * the bundle is relevant-to, never a conformity determination, so nothing here states that a
 * control is satisfied or not. Valid against NIST's assessment-results JSON schema
 * (schemas/oscal/, checked by test/artefacts/). docs/formats.md, "Paid artefacts".
 *
 * Every UUID is an RFC 4122 version-5 UUID of a SHA-256 content identifier, so the same inputs
 * give the same bytes (docs/decisions.md P15); core has no randomness anyway.
 */
import { createHash } from 'node:crypto';
import { canonicalBytesStrict } from '../crypto/canonical-json.js';
import type { Obligation } from '../board/model.js';
import type { CardFile } from './card.js';

export const OSCAL_VERSION = '1.1.0';
/**
 * Namespace of this service's OSCAL props (names outside the OSCAL namespace need one): a URL of
 * the operator's own public origin, `<origin>/ns/oscal`, where the service describes them.
 */
export const oscalPropNamespace = (baseUrl: string): string => `${baseUrl}/ns/oscal`;
export const RELEVANT_NOT_DETERMINATION =
  'The product is relevant-to, never a conformity determination: these observations are signed measurements relevant to the control, and this document states no finding and no satisfied or not-satisfied status.';

/** RFC 4122 §4.3 name-based UUID, version 5 (SHA-1 of namespace ‖ name, as the RFC defines it). */
export function uuidV5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new RangeError(`not a UUID: ${namespace}`);
  const h = createHash('sha1').update(ns).update(name, 'utf8').digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** RFC 4122 Appendix C NameSpace_URL. */
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';
/** This service's UUID namespace: v5 of the props namespace URL. */
export const oscalUuidNamespace = (baseUrl: string): string => uuidV5(URL_NAMESPACE, oscalPropNamespace(baseUrl));

const sha256Hex = (v: unknown) => createHash('sha256').update(canonicalBytesStrict(v)).digest('hex');

export interface OscalInput {
  obligation: Obligation;
  /** The subject the bundle was asked for, or null (every subject of the relevant axes). */
  subject: string | null;
  /** The relevant signed cards (card-v1 files as published). */
  cards: readonly CardFile[];
  /** When the document is assembled (ISO 8601 UTC); `metadata.last-modified`. */
  as_of: string;
  /** `metadata.version`: the release the cards were read from (its id or as-of). */
  version: string;
  /** Absolute base URL, so every href resolves outside the service too. */
  baseUrl: string;
}

type Prop = { name: string; ns: string; value: string };
const sentence = (s: string) => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

/**
 * The OSCAL document `{"assessment-results": {...}}` (the object NIST's schema validates at
 * its root). Pure: the same input gives the same bytes.
 */
export function oscalAssessmentResults(input: OscalInput): { 'assessment-results': Record<string, unknown> } {
  const { obligation: o, cards, baseUrl } = input;
  const ns = oscalPropNamespace(baseUrl);
  const uuidNs = oscalUuidNamespace(baseUrl);
  const prop = (name: string, value: string): Prop => ({ name, ns, value });
  /** `role` says what the UUID names; `digest` is a SHA-256 hex of the content it stands for. */
  const uuidOf = (role: string, digest: string) => uuidV5(uuidNs, `${role}:${digest}`);
  const content = sha256Hex({
    obligation: o,
    subject: input.subject,
    as_of: input.as_of,
    version: input.version,
    cards: cards.map((c) => c.sha256),
  });
  const subjects = [...new Set(cards.map((c) => c.subject))].sort();
  const subjectUuid = (s: string) => uuidOf('subject', sha256Hex(s));
  const times = cards.map((c) => c.as_of).sort();

  const observations = cards.map((c) => ({
    uuid: uuidOf('observation', c.sha256),
    title: `${c.surface} card: ${c.subject} on axis ${c.axis}`,
    description: c.public_framing,
    props: [
      prop('card-sha256', c.sha256),
      prop('card-surface', c.surface),
      prop('axis', c.axis),
      prop('measurement-kind', c.measurement.kind),
      prop('measurement-status', c.measurement.status),
      prop('signed', c.sig_ed25519 === null ? 'false' : 'true'),
    ],
    // TEST: a graded run of a model on a benchmark; EXAMINE: predicates checked over an evidence file.
    methods: [c.measurement.kind === 'deterministic-facts' ? 'EXAMINE' : 'TEST'],
    subjects: [{ 'subject-uuid': subjectUuid(c.subject), type: 'resource', title: c.subject }],
    'relevant-evidence': [
      {
        href: `${baseUrl}${c.url}`,
        description: `Signed card-v1 ${c.sha256}: SHA-256 of the RFC 8785 card body, Ed25519 by ${c.signer}. Verify free at ${baseUrl}/api/verify.`,
        links: [
          {
            href: `${baseUrl}/cards/${c.sha256.slice(0, 16)}.proof.json`,
            rel: 'inclusion-proof',
            text: 'inclusion proof under the signed public root',
          },
        ],
      },
    ],
    collected: c.as_of,
    remarks: 'A measurement relevant to the control, not a determination that it is met.',
  }));

  const result: Record<string, unknown> = {
    uuid: uuidOf('result', content),
    title: `Signed measurements relevant to ${o.control_id}`,
    description: `${sentence(o.title)} Obligation: ${sentence(o.obligation)} Regulator: ${sentence(o.regulator)} ${cards.length} signed card(s) from the axes ${o.axes.join(', ')}${input.subject === null ? '' : ` for subject ${input.subject}`}.`,
    start: times[0] ?? input.as_of,
    end: times[times.length - 1] ?? input.as_of,
    props: [
      prop('obligation-id', o.id),
      prop('regulator', o.regulator),
      prop('counsel-confirmed', String(o.counsel_confirmed)),
      prop('relation', 'relevant-to'),
    ],
    'reviewed-controls': {
      description: o.obligation,
      'control-selections': [{ 'include-controls': [{ 'control-id': o.control_id }] }],
    },
    remarks: `${RELEVANT_NOT_DETERMINATION} ${sentence(o.honesty)}`,
  };
  // The schema requires at least one item in any array it allows: an empty list is omitted.
  if (observations.length > 0) result.observations = observations;

  const doc: Record<string, unknown> = {
    uuid: uuidOf('assessment-results', content),
    metadata: {
      title: `Evidence relevant to ${o.control_id}: ${o.title}`,
      'last-modified': input.as_of,
      version: input.version,
      'oscal-version': OSCAL_VERSION,
      props: [prop('relation', 'relevant-to')],
      remarks: RELEVANT_NOT_DETERMINATION,
    },
    'import-ap': {
      href: `${baseUrl}/api/evidence-bundle?obligation=${encodeURIComponent(o.id)}`,
      remarks:
        'No OSCAL assessment plan exists for this bundle: the reference is the free preview that names the obligation, its relevant axes and the signed cards read.',
    },
    results: [result],
  };
  if (subjects.length > 0) {
    doc['back-matter'] = {
      resources: subjects.map((s) => ({
        uuid: subjectUuid(s),
        title: s,
        description:
          'A measured subject as a card names it: a model id, or the axis slug of a deterministic-facts card.',
      })),
    };
  }
  return { 'assessment-results': doc };
}
