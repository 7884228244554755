/**
 * What a settled payment (or a paid invoice) delivers: the artefact of each metered product,
 * built by the pure builders in src/core/evidence from the served release, and serialised once.
 * No I/O: the release, proofs, board, key and time are all passed in, so the same context gives
 * the same bytes, and the ledger can store exactly the bytes that were delivered.
 */
import { createHash } from 'node:crypto';
import type { Obligation } from '../core/board/model.js';
import { GspcError } from '../core/errors.js';
import {
  commissionReceipt,
  type CommissionedFor,
  type RootInclusionProof,
  type RootRef,
} from '../core/evidence/commission-receipt.js';
import { eunomiaFeed } from '../core/evidence/eunomia-feed.js';
import { evidenceBundle } from '../core/evidence/evidence-bundle.js';
import type { SignerState } from '../core/evidence/signer.js';
import type { ProductKey } from '../core/pricing/products.js';
import { matchingCards, MAX_RESERVE, type PreviewRelease } from './attestation-preview.js';
import { relevantCards } from './bundle-preview.js';
import { freeDoorPreview } from './feed-preview.js';

import type { RegulationFile } from '../core/status/regulation-feed.js';

export interface ArtefactContext {
  /**
   * The served release as the previews read it. `root` is the signed root record at run time
   * (previewReleaseOf passes it whole); its `sig_ed25519` is read for the feed when present.
   */
  release: PreviewRelease & { merkle_root: string };
  obligations: readonly Obligation[];
  /** The board document (`/api/gspc`, all axes), parsed from the served bytes: the bundle's bench.json. */
  boardJson: unknown;
  /** The release's regulation feed (status/regulation.json), which fills the feed's signals and first-fine watch; null when none. */
  regulation?: RegulationFile | null;
  /** A card's inclusion proof object (`/cards/<id>.proof.json`, parsed), or undefined. */
  proofOf(sha256: string): Record<string, unknown> | undefined;
  boardKey: SignerState;
  /** The service's DID; the artefacts name the signing key by its DID URL (boardKey). */
  did: string;
  /** Absolute base URL, for links that must resolve outside the service (OSCAL hrefs, feed URLs). */
  baseUrl: string;
  /** When the artefact is produced (ISO 8601 UTC). */
  asOf: string;
  commissionedFor: CommissionedFor;
}

export interface ProducedArtefact {
  /** The exact bytes delivered (and stored in the ledger): JSON plus a newline. */
  body: Buffer;
  /** SHA-256 hex of `body`. */
  sha256: string;
  contentType: 'application/json; charset=utf-8';
  artefact: Record<string, unknown>;
}

/** The proof object as the builders need it, or undefined when it is missing or malformed. */
function proofShape(p: Record<string, unknown> | undefined): RootInclusionProof | undefined {
  if (
    !p ||
    typeof p.leaf_index !== 'number' ||
    typeof p.leaf_count !== 'number' ||
    typeof p.merkle_root !== 'string' ||
    !Array.isArray(p.proof)
  )
    return undefined;
  return p as RootInclusionProof;
}

function rootOf(release: ArtefactContext['release']): RootRef {
  return { merkle_root: release.merkle_root, leaf_count: release.root.leaf_count, as_of: release.root.as_of };
}

/**
 * Builds the artefact `key` delivers for `query` (already validated by parseProductQuery).
 * Throws GspcError `bad_query` only when the query names nothing this release has (an unknown
 * obligation), which validation already refuses.
 */
export function produceArtefact(
  key: ProductKey,
  query: Readonly<Record<string, string | undefined>>,
  ctx: ArtefactContext,
): ProducedArtefact {
  const artefact = build(key, query, ctx);
  const body = Buffer.from(`${JSON.stringify(artefact)}\n`, 'utf8');
  return {
    body,
    sha256: createHash('sha256').update(body).digest('hex'),
    contentType: 'application/json; charset=utf-8',
    artefact,
  };
}

function build(
  key: ProductKey,
  query: Readonly<Record<string, string | undefined>>,
  ctx: ArtefactContext,
): Record<string, unknown> {
  const { release } = ctx;
  const withProof = <C extends { sha256: string }>(card: C) => ({ card, proof: proofShape(ctx.proofOf(card.sha256)) });
  switch (key) {
    case 'free_door':
      return freeDoorPreview(ctx.baseUrl);
    case 'request_attestation': {
      const subject = query.subject;
      if (subject === undefined) throw new GspcError('bad_query', 'subject: required');
      const reserve = matchingCards(release, subject, query.axis).slice(0, MAX_RESERVE).map(withProof);
      return commissionReceipt(
        {
          subject,
          axis: query.axis ?? null,
          as_of: ctx.asOf,
          root: rootOf(release),
          reserve,
          commissioned_for: ctx.commissionedFor,
        },
        ctx.boardKey,
      );
    }
    case 'evidence_bundle': {
      const obligation = ctx.obligations.find((o) => o.id === query.obligation);
      if (!obligation)
        throw new GspcError('bad_query', `unknown obligation '${String(query.obligation)}'`, {
          known: ctx.obligations.map((o) => o.id),
        });
      const cards = relevantCards(release, obligation, query.subject).map(withProof);
      return evidenceBundle(
        {
          obligation,
          subject: query.subject ?? null,
          as_of: ctx.asOf,
          version: release.as_of,
          baseUrl: ctx.baseUrl,
          root: rootOf(release),
          cards,
          bench: ctx.boardJson,
          commissioned_for: ctx.commissionedFor,
        },
        ctx.boardKey,
      );
    }
    case 'eunomia_data': {
      const sig = (release.root as { sig_ed25519?: unknown }).sig_ed25519;
      return eunomiaFeed(
        {
          as_of: ctx.asOf,
          baseUrl: ctx.baseUrl,
          active: release.active,
          commissioned_for: ctx.commissionedFor,
          root: { ...rootOf(release), sha256: release.rootSha256, sig_ed25519: typeof sig === 'string' ? sig : null },
          ...(ctx.regulation !== undefined && { regulation: ctx.regulation }),
        },
        ctx.boardKey,
      );
    }
  }
}
