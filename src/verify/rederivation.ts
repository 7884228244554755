/**
 * The last step of `gspc verify`: the figures re-derived from the per-item rows. Every card's
 * measurement must be the cell the rows give, and, from a running service, the served board
 * must carry a site attestation that verifies and be, row for row and total for total, the board
 * the rows give.
 */
import { isDeepStrictEqual } from 'node:util';
import { buildBoard, cellKey } from '../core/board/board.js';
import { verify as ed25519Verify } from '../core/crypto/ed25519.js';
import type { CardFile } from '../core/evidence/card.js';
import { attestationPreimage } from '../core/evidence/site-attestation.js';
import { signsNothing } from '../core/verify/card-verifier.js';
import type { deriveRelease } from '../release/derive.js';
import { parseDocument, type ReleaseSource } from './release-source.js';

/** The short addresses of the cards whose figures are not the cells the rows give. */
export function cardsAgainstRows(
  cards: readonly CardFile[],
  axes: ReturnType<typeof deriveRelease>['source']['axes'],
): string[] {
  const out: string[] = [];
  for (const card of cards) {
    const axis = axes.find((a) => a.row.axis === card.axis);
    if (card.surface === 'board.facts') {
      if (axis?.row.facts_held !== card.measurement.facts_held) out.push(card.sha256.slice(0, 16));
      continue;
    }
    const cell = axis?.cells?.find((c) => c.model === card.subject);
    const m = card.measurement;
    if (
      !cell ||
      cell.correct !== m.correct ||
      cell.parsed !== m.parsed ||
      cell.unparsed !== m.unparsed ||
      cell.accuracy !== m.accuracy ||
      !isDeepStrictEqual(cell.interval, m.interval)
    )
      out.push(card.sha256.slice(0, 16));
  }
  return out;
}

export async function checkBoard(
  src: ReleaseSource,
  derived: ReturnType<typeof deriveRelease>,
  cards: readonly CardFile[],
  keys: ReadonlyMap<string, Uint8Array>,
  manifestSha: string,
  add: (c: string, ok: boolean, d: string) => boolean,
): Promise<void> {
  const served = parseDocument<
    Record<string, unknown> & {
      axes: unknown[];
      totals: unknown;
      site_attestation?: { signer: string; sig?: string };
      measured_on: { peritem_sha256: string };
    }
  >(await src.get('/api/gspc'));
  if (!served) {
    add('board', false, 'no /api/gspc');
    return;
  }
  const att = served.site_attestation;
  // The identity root signs no board (issue 36), whatever key the DID document lists for it.
  const key = att && !signsNothing(att.signer) ? keys.get(att.signer) : undefined;
  const attOk =
    att?.sig !== undefined &&
    key !== undefined &&
    ed25519Verify(key, attestationPreimage(served), Buffer.from(att.sig, 'hex'));
  add(
    'board_attestation',
    attOk,
    attOk
      ? `site_attestation verifies under ${att!.signer}`
      : att?.sig === undefined
        ? 'the board is unsigned'
        : signsNothing(att.signer)
          ? `signed by ${att.signer}: the identity root authorises key changes and signs nothing else`
          : 'site_attestation does not verify',
  );
  add(
    'board_peritem_sha256',
    served.measured_on.peritem_sha256 === manifestSha,
    'measured_on.peritem_sha256 is the SHA-256 of the manifest served',
  );
  const signedCells = new Set(
    cards
      .filter((c) => c.sig_ed25519 !== null && c.surface === 'board.measurement')
      .map((c) => cellKey(c.subject, c.axis)),
  );
  const rebuilt = buildBoard(derived.source, null, {
    signedCells,
    livingStamp: { verification_state: 'UNSIGNED' },
    limitations: [],
  });
  const rowsOk = isDeepStrictEqual(JSON.parse(JSON.stringify(rebuilt.axes)), served.axes);
  const totalsOk = isDeepStrictEqual(JSON.parse(JSON.stringify(rebuilt.totals)), served.totals);
  add(
    'board_rederived',
    rowsOk && totalsOk,
    rowsOk && totalsOk
      ? 'every board row and total re-derives from the per-item rows'
      : `re-derived ${rowsOk ? '' : 'rows '}${totalsOk ? '' : 'totals '}differ from the served board`,
  );
}
