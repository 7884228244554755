/**
 * The free preview of `evidence_bundle` (specification, "Product evidence_bundle preview"),
 * answered with 200 when `bundle=1` is absent and repeated in the paid challenge: the obligation,
 * the active signed cards of its relevant axes (optionally for one subject), and how to ask for
 * an invoice. Relevant-to, never a determination.
 */
import type { Obligation } from '../core/board/model.js';
import type { CardFile } from '../core/evidence/card.js';
import type { PreviewRelease } from './attestation-preview.js';

/** At most this many cards are listed in the preview (the count is always the total). */
export const PREVIEW_CARDS = 24;

export function relevantCards(
  release: PreviewRelease,
  obligation: Obligation,
  subject: string | undefined,
): CardFile[] {
  const axes = new Set(obligation.axes);
  const s = subject?.toLowerCase();
  return release.active.filter(
    (c) => c.sig_ed25519 !== null && axes.has(c.axis) && (s === undefined || c.subject.toLowerCase() === s),
  );
}

export function bundlePreview(
  release: PreviewRelease & { merkle_root: string },
  obligation: Obligation,
  subject: string | undefined,
  baseUrl: string,
): Record<string, unknown> {
  const cards = relevantCards(release, obligation, subject);
  const { axes: _axes, ...described } = obligation;
  return {
    obligation: described,
    subject: subject ?? null,
    relevant_signed_cards: cards.length,
    // Listed up to the reserve size: the preview rides in every PAYMENT-REQUIRED header, which
    // clients cap at 16 KiB; the count above is the whole.
    cards: cards
      .slice(0, PREVIEW_CARDS)
      .map((c) => ({ sha256: c.sha256, surface: c.surface, subject: c.subject, as_of: c.as_of, url: c.url })),
    corpus: {
      as_of: release.as_of,
      merkle_root: release.merkle_root,
      read_from: `${baseUrl}/cards/index.json`,
      signed_cards_total: release.active.filter((c) => c.sig_ed25519 !== null).length,
    },
    relation: `These signed measurements are relevant to ${obligation.control_id} (${obligation.title}); the bundle is evidence to consider, never a determination that the obligation is met.`,
    free_verify: `${baseUrl}/api/verify`,
    invoice: {
      how: `${baseUrl}/api/evidence-bundle?obligation=${encodeURIComponent(obligation.id)}&bundle=1&invoice=gbp&commissioned_by=<legal entity>`,
      note: 'For a buyer who cannot pay in the token: an invoice reference is issued and recorded; the amount appears only on the invoice; the bundle is released when the invoice is paid.',
    },
  };
}
