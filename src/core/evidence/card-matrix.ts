/**
 * The card matrix (`/signed/card-matrix.json`), the card index and the ledgers of withdrawn and
 * superseded cards. Withdrawn cards are never counted; superseded ones are listed with the card
 * that replaced them. Counts are derived from the cells listed, never typed.
 */
import type { CardFile } from './card.js';

export interface IssuedCard {
  card: CardFile;
  model: string | null;
  axis: string;
  withdrawn?: string;
}

export interface CardMatrix {
  schema: 'svc.card-matrix/1';
  as_of: string;
  counts: { cells: number; cells_with_outer_signatures: number; models: number; represented_axes: number };
  cells: { subject: string; axis: string; surface: string; sha256: string; url: string; signed: boolean }[];
}

export function activeCards(issued: readonly IssuedCard[]): IssuedCard[] {
  return issued.filter((c) => c.withdrawn === undefined);
}

export function cardMatrix(asOf: string, issued: readonly IssuedCard[]): CardMatrix {
  const active = activeCards(issued);
  const cells = active.map(({ card }) => ({
    subject: card.subject,
    axis: card.axis,
    surface: card.surface,
    sha256: card.sha256,
    url: card.url,
    signed: card.sig_ed25519 !== null,
  }));
  return {
    schema: 'svc.card-matrix/1',
    as_of: asOf,
    counts: {
      cells: cells.length,
      cells_with_outer_signatures: cells.filter((c) => c.signed).length,
      models: new Set(active.filter((c) => c.model !== null).map((c) => c.model)).size,
      represented_axes: new Set(cells.map((c) => c.axis)).size,
    },
    cells,
  };
}

export function cardIndex(asOf: string, issued: readonly IssuedCard[]) {
  return {
    schema: 'svc.card-index/1',
    as_of: asOf,
    cards: activeCards(issued).map(({ card }) => ({
      sha256: card.sha256,
      url: card.url,
      surface: card.surface,
      subject: card.subject,
      axis: card.axis,
      as_of: card.as_of,
      signed: card.sig_ed25519 !== null,
    })),
    withdrawn_url: '/ledgers/withdrawals.json',
    superseded_url: '/ledgers/supersessions.json',
  };
}

export interface WithdrawalEntry {
  sha256: string;
  url: string;
  subject: string;
  axis: string;
  reason: string;
  withdrawn_as_of: string;
}
export interface SupersessionEntry {
  sha256: string;
  superseded_by: string;
  subject: string;
  axis: string;
  superseded_as_of: string;
}

export function withdrawalLedger(
  asOf: string,
  issued: readonly IssuedCard[],
  earlier: readonly WithdrawalEntry[] = [],
) {
  const now = issued
    .filter((c) => c.withdrawn !== undefined)
    .map((c) => ({
      sha256: c.card.sha256,
      url: c.card.url,
      subject: c.card.subject,
      axis: c.axis,
      reason: c.withdrawn!,
      withdrawn_as_of: asOf,
    }));
  const seen = new Set(earlier.map((e) => e.sha256));
  return {
    schema: 'svc.withdrawal-ledger/1',
    as_of: asOf,
    entries: [...earlier, ...now.filter((e) => !seen.has(e.sha256))],
  };
}

/**
 * The cards superseded now, each with its successor: the ledger replayed in order, where an entry
 * marks its card superseded and its successor current again. Cards are content-addressed, so a
 * card can come back: publish A, then B (a cell's card X superseded by Y), then A′ whose card for
 * that cell is X again (Y superseded by X). Read as a plain map, the first entry would call the
 * active X superseded and `gspc verify` would reject the release (issue 16).
 */
export function supersededNow(
  entries: readonly { readonly sha256: string; readonly superseded_by: string }[],
): Map<string, string> {
  const now = new Map<string, string>();
  for (const e of entries) {
    now.set(e.sha256, e.superseded_by);
    now.delete(e.superseded_by);
  }
  return now;
}

/**
 * Cards of the previous release whose (subject, axis, surface) cell now has a different card
 * are superseded by it; earlier entries are kept byte for byte. A card already superseded (as
 * the ledger replayed says) is not recorded again.
 */
export function supersessionLedger(
  asOf: string,
  issued: readonly IssuedCard[],
  previous: readonly IssuedCard[],
  earlier: readonly SupersessionEntry[] = [],
) {
  const cell = (c: CardFile) => `${c.surface}\u0000${c.subject}\u0000${c.axis}`;
  const current = new Map(issued.map((c) => [cell(c.card), c.card.sha256]));
  const already = supersededNow(earlier);
  const fresh: SupersessionEntry[] = [];
  for (const p of previous) {
    const next = current.get(cell(p.card));
    if (next !== undefined && next !== p.card.sha256 && !already.has(p.card.sha256)) {
      fresh.push({
        sha256: p.card.sha256,
        superseded_by: next,
        subject: p.card.subject,
        axis: p.axis,
        superseded_as_of: asOf,
      });
    }
  }
  return { schema: 'svc.supersession-ledger/1', as_of: asOf, entries: [...earlier, ...fresh] };
}
