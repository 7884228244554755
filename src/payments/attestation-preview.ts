/**
 * The free preview of `request_attestation` (specification, "Product request_attestation
 * preview"): which active signed cards a commission for this subject would reserve (up to 24),
 * read from the live release, and the interop root references, which are shown but are not part
 * of the paid reserve. A subject matches a card by model id (case-insensitive), card sha256 or
 * its 16-hex id, or axis slug; `axis` narrows to one axis.
 */
import type { CardFile } from '../core/evidence/card.js';
import type { LoadedRelease } from '../release/load.js';

export const MAX_RESERVE = 24;

export interface PreviewRelease {
  as_of: string;
  axes: readonly string[];
  /** Active cards (not withdrawn, not superseded), in card-id order. */
  active: readonly CardFile[];
  root: { leaf_count: number; as_of: string };
  rootSha256: string;
  /** `root_sha256` as the unsigned pointer `/interop/card-root-latest.json` states it. */
  pointerRootSha256: string;
}

export interface CardReference {
  sha256: string;
  surface: string;
  subject: string;
  axis: string;
  as_of: string;
  url: string;
}

export function matchingCards(release: PreviewRelease, subject: string, axis: string | undefined): CardFile[] {
  const s = subject.toLowerCase();
  const isId = /^[0-9a-f]{16}([0-9a-f]{48})?$/.test(s);
  return release.active.filter(
    (c) =>
      c.sig_ed25519 !== null &&
      (axis === undefined || c.axis === axis) &&
      (c.subject.toLowerCase() === s || c.axis === s || (isId && c.sha256.startsWith(s))),
  );
}

export const cardReference = (c: CardFile): CardReference => ({
  sha256: c.sha256,
  surface: c.surface,
  subject: c.subject,
  axis: c.axis,
  as_of: c.as_of,
  url: c.url,
});

export function attestationPreview(
  release: PreviewRelease,
  subject: string,
  axis: string | undefined,
  baseUrl: string,
): Record<string, unknown> {
  const matches = matchingCards(release, subject, axis);
  const s = subject.toLowerCase();
  const interop = release.active.filter((c) => c.subject.toLowerCase().includes(s));
  return {
    subject,
    axis: axis ?? null,
    axis_known: axis === undefined ? null : release.axes.includes(axis),
    signed_cards_on_file: matches.length,
    cards: matches.slice(0, MAX_RESERVE).map(cardReference),
    corpus_as_of: release.as_of,
    read_from: `${baseUrl}/cards/index.json`,
    interop_collection: {
      pointer_url: `${baseUrl}/interop/card-root-latest.json`,
      match_basis: 'CASE_INSENSITIVE_MODEL_SUBSTRING',
      signature_verification: 'NOT_PERFORMED',
      included_in_paid_reserve: false,
      note: 'Root references whose subject contains the requested subject; listed for discovery, not verified here and not part of the paid reserve.',
      state: 'ROOT_REFERENCES_AVAILABLE',
      root_url: `${baseUrl}/root.json`,
      root_sha256: release.rootSha256,
      root_as_of: release.root.as_of,
      root_active_leaves: release.root.leaf_count,
      matching_active_leaves: interop.length,
      sample_card_urls: interop.slice(0, 3).map((c) => `${baseUrl}${c.url}`),
      root_integrity:
        release.pointerRootSha256 === release.rootSha256 ? 'BYTE_MATCHES_UNSIGNED_POINTER' : 'POINTER_MISMATCH',
    },
    free_preview: `${baseUrl}/api/gspc${axis ? `?axis=${encodeURIComponent(axis)}` : ''}`,
    free_verify: `${baseUrl}/api/verify`,
    free_board: `${baseUrl}/api/gspc`,
  };
}

/** The parts of a loaded release the preview reads. */
export function previewReleaseOf(release: LoadedRelease): PreviewRelease {
  const { cards, withdrawn, superseded, root, rootSha256, files } = release.evidence;
  const active = [...cards.values()]
    .filter((c) => !withdrawn.has(c.sha256) && !superseded.has(c.sha256))
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
  const pointer = JSON.parse(files.get('evidence/card-root-latest.json')!.toString('utf8')) as { root_sha256: string };
  return {
    as_of: release.source.meta.as_of,
    axes: release.source.axes.map((a) => a.row.axis),
    active,
    root,
    rootSha256,
    pointerRootSha256: pointer.root_sha256,
  };
}
