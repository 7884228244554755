/**
 * A release as `gspc diff` compares it (src/core/board/release-diff.ts), read from what a reader
 * fetches: the board, the cards bundle, both ledgers, the correction entries the per-item
 * manifest lists, and the key transitions. A release directory has no served board, so its board
 * is built from the release as `gspc serve` builds it.
 */
import { createHash } from 'node:crypto';
import { buildBoard } from '../core/board/board.js';
import type { ReleaseView } from '../core/board/release-diff.js';
import { supersededNow } from '../core/evidence/card-matrix.js';
import { transitionId, type KeyTransition } from '../core/evidence/key-transition.js';
import { loadRelease } from '../release/load.js';
import { parseDocument, type ReleaseSource } from './release-source.js';

type Row = { axis: string } & Record<string, unknown>;

export async function readReleaseView(src: ReleaseSource): Promise<ReleaseView> {
  const rootBytes = await src.get('/root.json');
  const root = parseDocument<{ as_of: string }>(rootBytes);
  let id: string;
  let axes: Row[];
  if (src.live) {
    // A service does not name its release: the root's SHA-256 identifies what it serves.
    id = `root ${createHash('sha256')
      .update(rootBytes ?? '')
      .digest('hex')
      .slice(0, 16)}`;
    axes = parseDocument<{ axes: Row[] }>(await src.get('/api/gspc'))?.axes ?? [];
  } else {
    const release = loadRelease(src.describe);
    id = release.id;
    axes = buildBoard(release.source, null, {
      signedCells: release.evidence.signedCells,
      livingStamp: { verification_state: 'UNSIGNED' },
      limitations: [],
    }).axes as unknown as Row[];
  }
  const bundle = parseDocument<{ cards: { sha256: string; subject: string; axis: string }[] }>(
    await src.get('/cards-bundle.json'),
  );
  const withdrawals = parseDocument<{ entries: { sha256: string; reason: string }[] }>(
    await src.get('/ledgers/withdrawals.json'),
  );
  const supersessions = parseDocument<{ entries: { sha256: string; superseded_by: string }[] }>(
    await src.get('/ledgers/supersessions.json'),
  );
  const manifest = parseDocument<{ files: { url: string }[] }>(await src.get('/peritem/manifest.json'));
  const corrections = new Map<string, string>();
  for (const f of manifest?.files ?? []) {
    const m = /^\/peritem\/corrections\/entries\/([A-Za-z0-9._-]+)\.json$/.exec(f.url);
    if (!m) continue;
    const entry = parseDocument<{ id?: string; what_was_wrong?: string }>(await src.get(f.url));
    corrections.set(entry?.id ?? m[1]!, entry?.what_was_wrong ?? '');
  }
  const kt = parseDocument<{ transitions: KeyTransition[] }>(await src.get('/keys/transitions.json'));
  const transitions = new Map(
    (kt?.transitions ?? []).map((t) => [transitionId(t), `${t.kind} of ${t.fragment} (sequence ${t.sequence})`]),
  );
  return {
    id,
    as_of: root?.as_of ?? '',
    axes,
    cards: new Map((bundle?.cards ?? []).map((c) => [c.sha256, `${c.subject} on ${c.axis}`])),
    withdrawn: new Map((withdrawals?.entries ?? []).map((e) => [e.sha256, e.reason])),
    superseded: supersededNow(supersessions?.entries ?? []),
    corrections,
    transitions,
  };
}
