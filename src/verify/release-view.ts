/**
 * A release as `gspc diff` compares it (src/core/board/release-diff.ts). A release directory is
 * read once, through the hash-checked loader (`viewOfRelease`; `GET /api/changes` hands it the
 * release it already serves); a service is read from what a reader fetches: the board, the cards
 * bundle, both ledgers, the correction entries the per-item manifest lists, and the key
 * transitions.
 */
import { createHash } from 'node:crypto';
import { buildBoard } from '../core/board/board.js';
import type { ReleaseView } from '../core/board/release-diff.js';
import { supersededNow } from '../core/evidence/card-matrix.js';
import { transitionId, type KeyTransition } from '../core/evidence/key-transition.js';
import { EVIDENCE_DIR } from '../release/evidence.js';
import { type LoadedRelease, loadRelease } from '../release/load.js';
import { parseDocument, type ReleaseSource } from './release-source.js';

type Row = { axis: string } & Record<string, unknown>;
type BundleCard = { sha256: string; subject: string; axis: string };
type Correction = { id?: string; what_was_wrong?: string };

const cardsOf = (cards: readonly BundleCard[]) => new Map(cards.map((c) => [c.sha256, `${c.subject} on ${c.axis}`]));
const transitionsOf = (list: readonly KeyTransition[]) =>
  new Map(list.map((t) => [transitionId(t), `${t.kind} of ${t.fragment} (sequence ${t.sequence})`]));

/** A loaded release directory's view: its board built as `gspc serve` builds it. */
export function viewOfRelease(release: LoadedRelease): ReleaseView {
  const evidence = (name: string) => release.evidence.files.get(`${EVIDENCE_DIR}/${name}`);
  const corrections = new Map(
    (release.corpus.status.corrections?.entries ?? []).map((c) => [c.id, c.entry.what_was_wrong]),
  );
  const board = buildBoard(release.source, null, {
    signedCells: release.evidence.signedCells,
    livingStamp: { verification_state: 'UNSIGNED' },
    limitations: [],
  });
  return {
    id: release.id,
    as_of: release.evidence.root.as_of,
    axes: board.axes as unknown as Row[],
    cards: cardsOf(parseDocument<{ cards: BundleCard[] }>(evidence('cards-bundle.json'))?.cards ?? []),
    withdrawn: release.evidence.withdrawn,
    superseded: release.evidence.superseded,
    corrections,
    transitions: transitionsOf(
      parseDocument<{ transitions: KeyTransition[] }>(evidence('key-transitions.json'))?.transitions ?? [],
    ),
  };
}

export async function readReleaseView(src: ReleaseSource): Promise<ReleaseView> {
  if (!src.live) return viewOfRelease(loadRelease(src.describe));
  const rootBytes = await src.get('/root.json');
  const bundle = parseDocument<{ cards: BundleCard[] }>(await src.get('/cards-bundle.json'));
  const withdrawals = parseDocument<{ entries: { sha256: string; reason: string }[] }>(
    await src.get('/ledgers/withdrawals.json'),
  );
  const supersessions = parseDocument<{ entries: { sha256: string; superseded_by: string }[] }>(
    await src.get('/ledgers/supersessions.json'),
  );
  const manifest = parseDocument<{ files: { url: string }[] }>(await src.get('/peritem/manifest.json'));
  const corrections = new Map<string, string>();
  for (const f of manifest?.files ?? []) {
    const id = /^\/peritem\/corrections\/entries\/([A-Za-z0-9._-]+)\.json$/.exec(f.url)?.[1];
    if (id === undefined) continue;
    const entry = parseDocument<Correction>(await src.get(f.url));
    corrections.set(entry?.id ?? id, entry?.what_was_wrong ?? '');
  }
  const kt = parseDocument<{ transitions: KeyTransition[] }>(await src.get('/keys/transitions.json'));
  return {
    // A service does not name its release: the root's SHA-256 identifies what it serves.
    id: `root ${createHash('sha256')
      .update(rootBytes ?? '')
      .digest('hex')
      .slice(0, 16)}`,
    as_of: parseDocument<{ as_of: string }>(rootBytes)?.as_of ?? '',
    axes: parseDocument<{ axes: Row[] }>(await src.get('/api/gspc'))?.axes ?? [],
    cards: cardsOf(bundle?.cards ?? []),
    withdrawn: new Map((withdrawals?.entries ?? []).map((e) => [e.sha256, e.reason])),
    superseded: supersededNow(supersessions?.entries ?? []),
    corrections,
    transitions: transitionsOf(kt?.transitions ?? []),
  };
}
