/**
 * The evidence bundle (`svc.evidence-bundle/0.1`, specification "Metered products"): for one
 * obligation, the OSCAL assessment-results wrapper, the relevant signed card-v1 files with their
 * inclusion proofs, the bench JSON (the board document) with a DETACHED Ed25519 signature over
 * its RFC 8785 bytes, and a signed manifest card (surface `evidence.bundle`) that binds the
 * SHA-256 of every component. Relevant-to, never a determination. docs/formats.md, "Paid artefacts".
 */
import { createHash } from 'node:crypto';
import { BUNDLE_MANIFEST_SCHEMA } from './card-v0-schemas.js';
import { canonicalBytesStrict } from '../crypto/canonical-json.js';
import type { Obligation } from '../board/model.js';
import type { CardFile } from './card.js';
import {
  commissionedFor,
  sealRecord,
  signerOf,
  type CommissionedFor,
  type RootInclusionProof,
  type RootRef,
  type Seal,
} from './commission-receipt.js';
import { oscalAssessmentResults } from './oscal-assessment.js';
import type { SignerState } from './signer.js';

export const EVIDENCE_BUNDLE_SCHEMA = 'svc.evidence-bundle/0.1';
/** Schema id of the manifest card (card-v0 family, like the commission receipt; docs/decisions.md P13). */
export const BUNDLE_SURFACE = 'evidence.bundle';
export const BENCH_PREIMAGE = 'RFC 8785 of bench.json';

/** What each `unmeasured` entry of a bundle (and of its manifest card) means. */
export const BUNDLE_UNMEASURED = {
  fresh_run: 'Nothing is measured for the bundle: it is assembled from cards signed before it.',
  conformity_determination:
    'Whether the obligation is met is never assessed: the cards are relevant to the control, and no finding or satisfied/not-satisfied status is given.',
  cards_root_inclusion:
    'At least one card has no inclusion proof under the cited root (its root_inclusion entry is null).',
} as const;

export interface BundleInput {
  obligation: Obligation;
  subject: string | null;
  /** When the bundle is assembled (ISO 8601 UTC), passed in. */
  as_of: string;
  /** `metadata.version` of the OSCAL document: the release the cards were read from. */
  version: string;
  baseUrl: string;
  root: RootRef;
  /** The relevant active signed cards, each with its proof (undefined when none was found). */
  cards: readonly { card: CardFile; proof: RootInclusionProof | undefined }[];
  /** The board document (`/api/gspc`, parsed), shipped as `bench.json`. */
  bench: unknown;
  commissioned_for: CommissionedFor;
}

export interface DetachedSignature {
  sha256: string;
  sig_ed25519: string | null;
  kid: string;
  preimage: string;
  unsigned_reason?: string;
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** SHA-256 and a detached Ed25519 signature over the RFC 8785 bytes of `value`. */
export function detachedSignature(value: unknown, key: SignerState, preimage: string): DetachedSignature {
  const bytes = canonicalBytesStrict(value);
  const sha256 = sha256Of(bytes);
  if (!key.healthy) return { sha256, sig_ed25519: null, kid: key.kid, preimage, unsigned_reason: key.reason };
  return { sha256, sig_ed25519: key.signer.sign(bytes).toString('hex'), kid: key.signer.kid, preimage };
}

export function relationText(o: Obligation): string {
  return `These signed measurements are relevant to ${o.control_id} (${o.title}); the bundle is evidence to consider, never a determination that the obligation is met.`;
}

/**
 * Assembles and signs the bundle. `cards` stay exactly the published card-v1 files, so the
 * bundle can be posted to `/api/verify` as it is; their proofs sit beside them in
 * `root_inclusion` (same order), because a member added to a card would change its body hash
 * (docs/decisions.md P17). Throws `RangeError` when a proof is for another card or another root.
 */
export function evidenceBundle(input: BundleInput, key: SignerState): Record<string, unknown> {
  const { obligation: o, root } = input;
  const proofs = input.cards.map(({ card, proof }) => {
    if (
      proof &&
      ((typeof proof.sha256 === 'string' && proof.sha256 !== card.sha256) ||
        proof.merkle_root !== root.merkle_root ||
        proof.leaf_count !== root.leaf_count)
    ) {
      throw new RangeError(`the proof given for card ${card.sha256} is for another card or another root`);
    }
    return proof ?? null;
  });
  const cards = input.cards.map((c) => c.card);
  const oscal = oscalAssessmentResults({
    obligation: o,
    subject: input.subject,
    cards,
    as_of: input.as_of,
    version: input.version,
    baseUrl: input.baseUrl,
  });
  const bench = { json: input.bench, ...detachedSignature(input.bench, key, BENCH_PREIMAGE) };
  const relation = relationText(o);
  const unmeasured: (keyof typeof BUNDLE_UNMEASURED)[] = ['fresh_run', 'conformity_determination'];
  if (proofs.includes(null)) unmeasured.push('cards_root_inclusion');
  const rootRef = { url: '/root.json', merkle_root: root.merkle_root, leaf_count: root.leaf_count, as_of: root.as_of };

  const manifest: Seal & Record<string, unknown> = sealRecord(
    {
      schema: BUNDLE_MANIFEST_SCHEMA,
      surface: BUNDLE_SURFACE,
      // A card names a subject: the one asked for, else the control the bundle is about.
      subject: input.subject ?? o.control_id,
      as_of: input.as_of,
      signer: signerOf(key),
      payload: {
        obligation: { id: o.id, control_id: o.control_id, sha256: sha256Of(canonicalBytesStrict(o)) },
        subject: input.subject,
        relation,
        root: rootRef,
        components: {
          oscal: { sha256: sha256Of(canonicalBytesStrict(oscal)), preimage: 'RFC 8785 of oscal' },
          bench: { sha256: bench.sha256, preimage: BENCH_PREIMAGE },
          cards: cards.map((c) => c.sha256),
          root_inclusion: { sha256: sha256Of(canonicalBytesStrict(proofs)), preimage: 'RFC 8785 of root_inclusion' },
        },
        commissioned_for: commissionedFor(input.commissioned_for),
      },
      unmeasured,
    },
    key,
  );

  return {
    schema: EVIDENCE_BUNDLE_SCHEMA,
    kind: 'bundle',
    as_of: input.as_of,
    obligation: o,
    subject: input.subject,
    relation,
    oscal,
    cards,
    root_inclusion: proofs,
    root: rootRef,
    bench,
    manifest_card: manifest,
    unmeasured,
  };
}
